package dev.engram.store;

import dev.engram.error.StoreException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.store.lucene.LuceneSearchIndex;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The embedded default: a SQLite record ({@code <dir>/engram.db}) and a Lucene index derived from it
 * ({@code <dir>/index}). Opening catches the index up with the record, so a crash loses nothing
 * that was acknowledged. Several processes may open the same directory at once (see
 * {@link LuceneSearchIndex} for how they share the index). Thread-safe.
 */
public final class EmbeddedStore implements AutoCloseable {
    private final SqliteMemoryStore store;
    private final LuceneSearchIndex index;

    private EmbeddedStore(SqliteMemoryStore store, LuceneSearchIndex index) {
        this.store = store;
        this.index = index;
    }

    /**
     * Opens or creates the store in {@code dir}. The clock is accepted for future time-based
     * housekeeping; the store itself records the instants the engine gives it. The record is opened
     * first, so a directory whose {@code engram.db} is another program's gets no {@code index/} either.
     *
     * @throws dev.engram.store.sqlite.ForeignDatabaseException if {@code dir/engram.db} is not Engram's
     */
    public static EmbeddedStore open(Path dir, Clock clock) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("open store " + dir + ": cannot create the directory: " + e.getMessage(), e);
        }
        SqliteMemoryStore store = SqliteMemoryStore.open(dir);
        try {
            return new EmbeddedStore(store, LuceneSearchIndex.open(store, dir.resolve("index")));
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

    /**
     * Compares the index with the record after a catch-up: counts, and ids present in one but not the
     * other. Exact when no write lands during the check; it retries a few times if one does.
     */
    public IndexCheck check() {
        return IndexCheck.of(store, index);
    }

    /** Commits the index, then releases the index's and the record's files and locks. */
    @Override
    public void close() {
        try {
            index.close();
        } finally {
            store.close();
        }
    }
}
