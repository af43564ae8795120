package dev.engram.store.postgres;

import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.store.IndexCheck;
import dev.engram.store.lucene.LuceneSearchIndex;
import java.nio.file.Path;

/**
 * The team mode: the record in PostgreSQL, shared by every replica, and a Lucene index that each
 * replica derives for itself from the record's change feed, in a local directory. Searches catch the
 * index up first ({@link LuceneSearchIndex}), so a replica finds what any replica has committed. The
 * index directory is {@code <indexRoot>/<store id>}: a schema dropped and created again is another
 * store and gets a fresh index. Between searches, a commit on any replica wakes the index through
 * LISTEN/NOTIFY ({@link ChangeListener}), so it is usually caught up before the next search asks. Thread-safe.
 */
public final class PostgresStore implements AutoCloseable {
    private final PostgresMemoryStore store;
    private final LuceneSearchIndex index;
    private final Path indexDir;
    private final ChangeListener listener;

    private PostgresStore(PostgresMemoryStore store, LuceneSearchIndex index, Path indexDir) {
        this.store = store;
        this.index = index;
        this.indexDir = indexDir;
        this.listener = ChangeListener.start(store.location(), index::catchUpSoon);
    }

    /** Connects and migrates the record, then opens (building it if needed) this replica's index under {@code indexRoot}. */
    public static PostgresStore open(PostgresLocation location, Path indexRoot) {
        PostgresMemoryStore store = PostgresMemoryStore.open(location);
        try {
            Path dir = indexRoot.resolve(store.storeId());
            return new PostgresStore(store, LuceneSearchIndex.open(store, dir), dir);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    public MemoryStore store() {
        return store;
    }

    public SearchIndex index() {
        return index;
    }

    public Path indexDir() {
        return indexDir;
    }

    /** As {@code EmbeddedStore.check}: this replica's index against the shared record. */
    public IndexCheck check() {
        return IndexCheck.of(store, index);
    }

    @Override
    public void close() {
        try {
            listener.close();
            index.close();
        } finally {
            store.close();
        }
    }
}
