package dev.engram.store;

import dev.engram.crypto.SealedMemoryStore;
import dev.engram.error.StoreException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.store.lucene.LuceneSearchIndex;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default: a SQLite record ({@code <dir>/engram.db}) and a Lucene index derived from it
 * ({@code <dir>/index}). Opening catches the index up with the record, so a crash loses nothing
 * that was acknowledged. Several processes may open the same directory at once (see
 * {@link LuceneSearchIndex} for how they share the index). Thread-safe.
 * <p>Encrypted at rest ({@link SealedMemoryStore}, toon's memory_encrypt), the record's fields are
 * sealed and the index lives in memory only (its terms are the memories' words, so no {@code index/}
 * directory exists while the store is encrypted); between runs it is kept as one sealed file
 * ({@link SealedIndexSnapshot}), loaded at open and caught up from its commit.
 */
public final class EmbeddedStore implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(EmbeddedStore.class);
    private final SealedMemoryStore store;
    private final Path indexDir;
    private final SwitchingIndex index;
    /** The encrypted store's index files, in memory; null while the store is plain. */
    private volatile ByteBuffersDirectory memoryFiles;
    /** Their listing as loaded from the snapshot: unchanged at close, the snapshot is current and is not rewritten. */
    private volatile java.util.List<String> snapshotListing = java.util.List.of();

    private EmbeddedStore(SealedMemoryStore store, Path indexDir) {
        this.store = store;
        this.indexDir = indexDir;
        this.index = new SwitchingIndex(openIndex(store.encrypted()));
        store.onChange(this::switchIndex);
    }

    /** Opens a plain store, or fails closed on an encrypted one; see {@link #open(Path, Clock, String)}. */
    public static EmbeddedStore open(Path dir, Clock clock) {
        return open(dir, clock, null);
    }

    /**
     * Opens or creates the store in {@code dir}. The clock is accepted for future time-based
     * housekeeping; the store itself records the instants the engine gives it. The record is opened
     * first, so a directory whose {@code engram.db} is another program's gets no {@code index/} either.
     *
     * @param key the store key (TOON_MEMORY_KEY / ENGRAM_KEY, 64 hex characters), null when unset;
     *            needed only when the store is encrypted
     * @throws dev.engram.store.sqlite.ForeignDatabaseException if {@code dir/engram.db} is not Engram's
     * @throws dev.engram.crypto.SealedStoreException if the store is encrypted and the key is missing or wrong
     */
    public static EmbeddedStore open(Path dir, Clock clock, String key) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StoreException("open store " + dir + ": cannot create the directory: " + e.getMessage(), e);
        }
        SqliteMemoryStore raw = SqliteMemoryStore.open(dir);
        try {
            return new EmbeddedStore(SealedMemoryStore.open(raw, raw, key), dir.resolve("index"));
        } catch (RuntimeException e) {
            raw.close();
            throw e;
        }
    }

    private LuceneSearchIndex openIndex(boolean encrypted) {
        if (!encrypted) return LuceneSearchIndex.open(store, indexDir);
        // left by a crash between a conversion's commit and the index's removal, or by a process without
        // the key that rebuilt it meanwhile: it holds memories' words
        deleteIndexDir();
        ByteBuffersDirectory files = SealedIndexSnapshot.load(storeDir(), store.sealer());
        snapshotListing = SealedIndexSnapshot.listing(files);
        return inMemory(files);
    }

    private LuceneSearchIndex inMemory(ByteBuffersDirectory files) {
        memoryFiles = files;
        return LuceneSearchIndex.inMemory(store, indexDir, SealedIndexSnapshot.keptOpen(files));
    }

    private Path storeDir() {
        return indexDir.getParent();
    }

    /** After this or another process converted the store: the index moves into memory, or back onto disk. */
    private void switchIndex(boolean encrypted) {
        if (encrypted) {
            snapshotListing = java.util.List.of();
            LuceneSearchIndex old = index.swap(inMemory(new ByteBuffersDirectory()));
            closeDiscarded(old);
            deleteIndexDir();
        } else {
            deleteIndexDir(); // what is there is from before the encryption: stale, rebuilt from the record
            ByteBuffersDirectory files = memoryFiles;
            memoryFiles = null;
            closeDiscarded(index.swap(LuceneSearchIndex.open(store, indexDir)));
            if (files != null) org.apache.lucene.util.IOUtils.closeWhileHandlingException(files);
            try {
                SealedIndexSnapshot.delete(storeDir());
            } catch (IOException e) {
                throw new StoreException("delete " + storeDir().resolve(SealedIndexSnapshot.FILE) + ": " + e.getMessage(), e);
            }
        }
    }

    /** An index being replaced; the process that converted the store may have removed its files already. */
    private void closeDiscarded(LuceneSearchIndex old) {
        try {
            old.close();
        } catch (StoreException e) {
            log.debug("store {}: closing the replaced index: {}", indexDir.getParent(), e.getMessage());
        }
    }

    private void deleteIndexDir() {
        if (!Files.exists(indexDir)) return;
        try (Stream<Path> files = Files.walk(indexDir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            throw new StoreException("delete the on-disk index " + indexDir + " of an encrypted store: " + e.getMessage()
                    + "; delete the directory by hand, it holds memories' words", e);
        }
        log.info("store {}: on-disk index removed (the store is encrypted: its index lives in memory)", indexDir.getParent());
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
        return IndexCheck.of(store, index.current());
    }

    /** An encrypted store's index, sealed beside the record for the next start; a failure costs that start a rebuild. */
    private void saveSnapshot() {
        ByteBuffersDirectory files = memoryFiles;
        if (files == null) return;
        try {
            boolean changed = !SealedIndexSnapshot.listing(files).equals(snapshotListing);
            if (store.encrypted() && changed) SealedIndexSnapshot.save(storeDir(), files, store.sealer());
        } catch (IOException | RuntimeException e) {
            log.warn("store {}: could not save the sealed index snapshot ({}); the next start rebuilds the index", storeDir(), e.toString());
        } finally {
            org.apache.lucene.util.IOUtils.closeWhileHandlingException(files);
        }
    }

    /** Commits the index, then releases the index's and the record's files and locks. */
    @Override
    public void close() {
        try {
            if (!store.encrypted() && !Files.isDirectory(indexDir)) {
                // another process encrypted the store and removed the on-disk index this one still had open
                closeDiscarded(index.current());
            } else {
                index.close();
            }
            saveSnapshot();
        } finally {
            store.close();
        }
    }
}
