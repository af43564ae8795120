package dev.engram.store.lucene;

import dev.engram.error.StoreException;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.WordWeights;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.store.NativeFSLockFactory;
import org.apache.lucene.util.Bits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SearchIndex} on a Lucene directory ({@code <dir>/index}) derived from a {@link MemoryStore}.
 *
 * <h2>Catch-up</h2>
 * The last commit's user data holds {@code seq}, the last store change the committed index reflects.
 * Catching up reads {@link MemoryStore#changesSince} in batches and, per id, updates the document if
 * the memory exists (with its stored vector, if any: {@link VectorFields}) and deletes it otherwise.
 * Re-applying a change is harmless, so an index that lost uncommitted work (kill -9) just replays
 * from its committed seq: the store stays the truth.
 *
 * <h2>Several processes on one directory</h2>
 * Lucene allows one IndexWriter per directory (its {@code write.lock}, a {@link NativeFSLockFactory}
 * OS lock that dies with its process). The write lock plus the commit's seq are the only
 * coordination; there are no other lock files:
 * <ul>
 *   <li>A process opens the writer only when the store is ahead of what it can search. If another
 *       process holds the lock, it polls every {@link #LOCK_POLL} until it gets the lock or the
 *       committed index reaches the store's head (the holder indexes everyone's changes), for at
 *       most the caller's bound; then it quietly searches what is committed. No lock error escapes.
 *   <li>The holder keeps the writer as a {@link WriterLease lease}: bursts of writes then do not pay
 *       an open and a commit (15-95 ms, storage-and-embeddings §0) each. While leased it follows the
 *       store's head, group-commits at most every {@link WriterLease#COMMIT_INTERVAL}, and closes the
 *       writer after {@link WriterLease#IDLE} without local use so another process can take it.
 *   <li>Searches use an NRT reader while this process holds the writer, otherwise the last commit,
 *       refreshed with {@code openIfChanged}; so other processes' writes are visible after their
 *       next group commit, a few hundred milliseconds.
 * </ul>
 * A missing index is created; a corrupt or incompatible one, or one ahead of the store (the store
 * file was replaced), is rebuilt from the store with a WARN.
 *
 * <p>Thread-safe: one monitor guards the writer and swaps of the current reader. Searches never take
 * it when the index is caught up: they read {@link #indexedSeq()} and take a reference on the
 * current reader without it. One thread at a time catches up (the {@link #catchUpTurn}); a search
 * that finds the index behind while another thread catches up does not queue for the monitor but
 * waits only until the reader reflects the change the search needs (the store's head when it
 * started), then searches: with writes streaming in, a queue on the monitor made each search wait
 * for catch-ups of changes written after it had started (docs/benchmarks.md §10).
 *
 * <h2>Read-your-writes without searches waiting for writers</h2>
 * A write of this process returns only once its change is searchable ({@link #catchUpAfterWrite}:
 * concurrent writers share one catch-up). While such writes are being indexed, a search does not wait
 * for them: whoever wrote them has not been answered yet, and every write that was answered is in the
 * reader already. Otherwise (no write of this process in flight, or one that returned before it was
 * searchable because another process held the writer) a search catches up first, as before. The cost:
 * while this process's writes are in flight, another process's or replica's change committed during
 * the current catch-up is found by the next one, a few milliseconds later, not by a search at once.
 *
 * <p>Group commits (an fsync, 11-92 ms per wait under load at 5k memories,
 * docs/benchmarks.md §1) run on the tick thread outside the monitor. A catch-up (after a write) can
 * still wait for part of a commit: its NRT reopen needs the IndexWriter's own monitor, which Lucene
 * holds while it writes and syncs the new segments_N (CommitOutsideLockTest shows where it blocks).
 */
public final class LuceneSearchIndex implements SearchIndex {
    private static final Logger log = LoggerFactory.getLogger(LuceneSearchIndex.class);

    /**
     * BM25 with less length normalisation than Lucene's default (b 0.4 instead of 0.75; k1 stays 1.2). Memories
     * are short, a sentence or a conversation turn, and full normalisation lets the shortest of them win on a
     * single shared word. LoCoMo through the tools (plain ingestion, e5): dev R@5 / R@10 / NDCG@10 0.663 / 0.744 /
     * 0.567 → 0.670 / 0.756 / 0.579 (b 0.2-0.5 all gave 0.667-0.670 R@5, 0.6 and 0.9 did not help R@10); checked
     * once on test: 0.650 / 0.737 / 0.550 → 0.657 / 0.737 / 0.556 (docs/benchmarks.md). Only the search-time
     * scoring changes: the index stores document lengths, not a normalised score, so no reindex is needed.
     */
    static final BM25Similarity SIMILARITY = new BM25Similarity(1.2f, 0.4f);

    static final Duration LOCK_POLL = Duration.ofMillis(20);
    /** How long {@link #catchUp()} waits for another process's writer before settling for the last commit. */
    static final Duration CATCH_UP_WAIT = Duration.ofSeconds(5);
    /** A search waits less: a slightly stale candidate list is fine, the engine re-reads every hit. */
    static final Duration SEARCH_WAIT = Duration.ofSeconds(1);

    /** Flushed segments up to this size stay in RAM until committed... */
    static final double NRT_CACHE_SEGMENT_MB = 4;
    /** ...as long as the cache holds less than this. */
    static final double NRT_CACHE_TOTAL_MB = 32;
    /** Merges of up to this many bytes (short-lived: a few flushes merged) are cached too; larger ones go to disk. */
    static final long NRT_CACHE_MERGE_BYTES = 512 * 1024;

    private final MemoryStore store;
    private final Path path;
    private final Directory directory;
    private final TextAnalysis analysis = new TextAnalysis();
    private final QueryTranslator queries = new QueryTranslator(analysis);
    private final PostFilter postFilter = new PostFilter();
    /** Of the reader last searched; replaced, never changed, when a search brings another reader. */
    private volatile FilterCoverage coverage;
    /** Sign codes of the segments vector scans have read; segments outlive readers, so they are kept here. */
    private final SignCodes.Cache signCodes = new SignCodes.Cache();
    private final ScheduledExecutorService timer;
    private final WriterLease lease;
    private final Object lock = new Object();
    // the reader searches use; replaced on refresh under lock, read without it (reference-counted for searches)
    private volatile DirectoryReader reader;
    // the store change the reader reflects; written under lock with reader, read by searches without it
    private volatile long readerSeq;
    private boolean closed;
    private final AtomicBoolean catchUpQueued = new AtomicBoolean();
    /** Held by the one thread catching up (before {@link #lock}); the others wait on {@link #advanced}. */
    private final ReentrantLock catchUpTurn = new ReentrantLock();
    /** Notified whenever {@link #readerSeq} moves or the catch-up turn is given back. */
    private final Object advanced = new Object();
    /** Writes of this process inside {@link #catchUpAfterWrite}, waiting for their change to be searchable. */
    private final AtomicInteger writesInFlight = new AtomicInteger();
    /** The highest change a write of this process returned without being searchable; searches catch up to it. */
    private final AtomicLong owed = new AtomicLong();
    /** Whether the holder of the catch-up turn is polling for another process's writer (between tries). */
    private volatile boolean turnWaitsForOtherProcess;

    /**
     * Caches flushed segments and small merges only. A large merged segment lives until the next large merge, and
     * every search reads it: from the RAM cache it is read through up to a hundred or two small heap buffers per
     * file, where each terms and postings enum clones the file's whole buffer list and a read across two buffers
     * costs an exception (JFR of a recall at 10k: 16% of its allocation in those clones). Written to the file
     * system it is mapped as one buffer. An open reader keeps a segment's inputs for the segment's life, so the
     * choice is made when the segment is written.
     *
     * <p>A file the cache does hold is opened as one heap buffer, copied when the reader opens it: read through the
     * cache's own buffers, every vector, float run or block read that straddles two of them threw and caught a
     * {@code BufferUnderflowException} (a wall-clock profile of recalls with the model over stdio: a tenth of the
     * vector scan's time in building those exceptions' stack traces). The copy is read by the same input class as
     * the cache's (relative reads within a buffer), only without boundaries: a scan of every vector of 25 flushed
     * segments took a quarter of the time, and term queries as long as before (docs/benchmarks.md, "Where a
     * stdio recall with the model goes"). Cached files are at most a few megabytes, opened once per segment per
     * reader.
     */
    static final class FlushCachingDirectory extends NRTCachingDirectory {
        /** Larger files are read as the cache gives them (none is cached: segments over 4 MB are not). */
        private static final long MAX_ONE_BUFFER = 1L << 30;

        FlushCachingDirectory(Directory delegate, double maxMergeSizeMB, double maxCachedMB) {
            super(delegate, maxMergeSizeMB, maxCachedMB);
        }

        @Override
        protected boolean doCacheWrite(String name, IOContext context) {
            if (context.mergeInfo != null && context.mergeInfo.estimatedMergeBytes > NRT_CACHE_MERGE_BYTES) return false;
            return super.doCacheWrite(name, context);
        }

        /** Synchronized as the cache's own methods are, so the file cannot leave the cache between the two looks. */
        @Override
        public synchronized IndexInput openInput(String name, IOContext context) throws IOException {
            IndexInput in = super.openInput(name, context);
            if (in.length() > MAX_ONE_BUFFER || !Arrays.asList(listCachedFiles()).contains(name)) return in;
            try (in) {
                // one block as large as the file, handed to the input the cache itself builds from its blocks
                int bits = Math.max(ByteBuffersDataOutput.LIMIT_MIN_BITS_PER_BLOCK,
                        64 - Long.numberOfLeadingZeros(Math.max(1, in.length() - 1)));
                ByteBuffersDataOutput copy = new ByteBuffersDataOutput(bits, bits, ByteBuffersDataOutput.ALLOCATE_BB_ON_HEAP,
                        ByteBuffersDataOutput.NO_REUSE);
                copy.copyBytes(in, in.length());
                return ByteBuffersDirectory.OUTPUT_AS_MANY_BUFFERS_LUCENE.apply(name, copy);
            }
        }
    }

    /** Opens {@code path} (created if missing) over {@code store} and catches up with it. */
    public static LuceneSearchIndex open(MemoryStore store, Path path) {
        Directory directory;
        try {
            Files.createDirectories(path);
            // each write's NRT reopen flushes a tiny segment; keeping those in RAM until the group commit
            // spares a remember the file creates, maps and unmaps (a third of its index time, profiled).
            // Other processes read commits only, and a commit writes the cached files through.
            directory = new FlushCachingDirectory(FSDirectory.open(path, NativeFSLockFactory.INSTANCE),
                    NRT_CACHE_SEGMENT_MB, NRT_CACHE_TOTAL_MB);
        } catch (IOException e) {
            throw new StoreException("open index " + path + ": " + e.getMessage(), e);
        }
        return new LuceneSearchIndex(store, path, directory);
    }

    /**
     * An index held in memory only ({@code directory}, e.g. a ByteBuffersDirectory, possibly holding a
     * commit to start from), caught up with {@code store} now: an encrypted store's, whose terms must
     * not reach the disk. {@code path} only names it in logs; nothing is written there.
     */
    public static LuceneSearchIndex inMemory(MemoryStore store, Path path, Directory directory) {
        return new LuceneSearchIndex(store, path, directory);
    }

    /** {@code directory} is on {@code path}; tests wrap it to slow down or fail its operations. */
    LuceneSearchIndex(MemoryStore store, Path path, Directory directory) {
        this.store = store;
        this.path = path;
        this.directory = directory;
        this.lease = new WriterLease(directory, analysis, store, path, signCodes);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-index-lease " + path);
            t.setDaemon(true); // a forgotten close must not keep the JVM alive; the store has everything
            return t;
        });
        try {
            synchronized (lock) {
                openCommitted();
                if (readerSeq > store.headSeq()) {
                    log.warn("index {}: reflects change {} but the store ends at {} (store replaced?); rebuilding",
                            path, readerSeq, store.headSeq());
                    lease.recreateOnNextOpen();
                }
            }
            long tick = WriterLease.TICK.toMillis();
            timer.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
            catchUp(CATCH_UP_WAIT);
        } catch (RuntimeException e) {
            close(); // no half-open index holding a thread, a write lock or file handles
            throw e;
        }
    }

    /** Opens the committed index if there is one; a corrupt or incompatible one is marked for rebuild. */
    private void openCommitted() {
        try {
            if (!DirectoryReader.indexExists(directory)) return;
            reader = DirectoryReader.open(directory);
            Map<String, String> commit = reader.getIndexCommit().getUserData();
            readerSeq = WriterLease.seqOf(commit);
            int layout = WriterLease.layoutOf(commit);
            if (layout != WriterLease.CURRENT_LAYOUT) {
                // searches keep working on it meanwhile: ids fall back to the stored field
                log.info("index {}: layout {} (this version writes {}); rebuilding it from the store",
                        path, layout, WriterLease.CURRENT_LAYOUT);
                lease.recreateOnNextOpen();
            }
        } catch (IOException e) {
            // CorruptIndexException, IndexFormatTooOld/NewException, a truncated file: all derived data
            log.warn("index {}: unreadable ({}); rebuilding it from the store", path, e.toString());
            lease.recreateOnNextOpen();
        }
    }

    @Override
    public long catchUp() {
        return catchUp(CATCH_UP_WAIT);
    }

    /**
     * Runs a catch-up on the lease's thread: for changes made elsewhere (another replica's NOTIFY), which
     * searches catch up to first anyway. Requests made while one is queued share it.
     */
    @Override
    public void catchUpSoon() {
        if (!catchUpQueued.compareAndSet(false, true)) return;
        try {
            timer.execute(() -> {
                catchUpQueued.set(false);
                try {
                    catchUp(CATCH_UP_WAIT);
                } catch (RuntimeException e) {
                    // the store has the change; the next search or write catches up again
                    log.warn("index {}: background catch-up failed: {}", path, e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            catchUpQueued.set(false); // closing: the next open catches up from the store
        }
    }

    /**
     * Returns once this process's searches find what was just written, sharing the catch-up under way
     * with the other writers. Does not wait for another process that holds the writer: the change is
     * then owed, and searches catch up to it first. A failure is logged, not thrown: the store has the
     * write, and the next catch-up applies it.
     */
    @Override
    public void catchUpAfterWrite() {
        long head = store.headSeq();
        if (readerSeq >= head && reader != null) return;
        writesInFlight.incrementAndGet();
        try {
            catchUpTo(head, CATCH_UP_WAIT, false);
        } catch (RuntimeException e) {
            log.warn("index {}: catch-up after a write failed: {}", path, e.toString());
        } finally {
            // before the count drops: a search that sees no write in flight, or this one owed, catches up
            if (readerSeq < head) owed.accumulateAndGet(head, Math::max);
            writesInFlight.decrementAndGet();
        }
        if (readerSeq < head) catchUpSoon(); // another process held the writer: follow its commit soon
    }

    /** While writes of this process are being indexed and none is owed, searches use the reader as it is. */
    private boolean ownWritesInFlight() {
        return writesInFlight.get() > 0 && reader != null && readerSeq >= owed.get();
    }

    private long catchUp(Duration maxWait) {
        return catchUpTo(store.headSeq(), maxWait);
    }

    /** {@link #catchUpTo(long, Duration, boolean)}, waiting for another process's writer too; package-private for tests. */
    long catchUpTo(long head, Duration maxWait) {
        return catchUpTo(head, maxWait, true);
    }

    /**
     * Returns once searches reflect change {@code head}, or after {@code maxWait}. Takes the catch-up turn
     * when it is free; otherwise waits for the thread that holds it, and returns as soon as the reader
     * reaches {@code head}, not when that thread is done (it may be applying later changes). Without
     * {@code waitForOtherProcess} it returns as soon as another process is found holding the writer.
     */
    private long catchUpTo(long head, Duration maxWait, boolean waitForOtherProcess) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        while (true) {
            if (catchUpTurn.tryLock()) {
                try {
                    return catchUpHoldingTurn(head, deadline, waitForOtherProcess);
                } finally {
                    catchUpTurn.unlock();
                    signalAdvance();
                }
            }
            if (!awaitTurnOrSeq(head, deadline, waitForOtherProcess)) return readerSeq; // timed out or interrupted: the index as it is
            if (readerSeq >= head && reader != null) return readerSeq;
        }
    }

    /**
     * Waits while another thread holds the catch-up turn and the reader is short of {@code head}. False
     * when the thread was interrupted (its interrupt is kept), or the deadline passed while the holder
     * waits for another process's writer. A catch-up within this process always ends, so past the
     * deadline this goes on waiting for it, as a wait for the monitor did. Without
     * {@code waitForOtherProcess}, false as soon as the holder polls for another process.
     */
    private boolean awaitTurnOrSeq(long head, long deadline, boolean waitForOtherProcess) {
        synchronized (advanced) {
            while (catchUpTurn.isLocked() && (readerSeq < head || reader == null)) {
                if (turnWaitsForOtherProcess && !waitForOtherProcess) return false;
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (turnWaitsForOtherProcess) return false;
                    left = LOCK_POLL.toNanos();
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(advanced, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    /** Wakes the threads in {@link #awaitTurnOrSeq}. */
    private void signalAdvance() {
        synchronized (advanced) {
            advanced.notifyAll();
        }
    }

    /** The catch-up itself, by the holder of {@link #catchUpTurn}. */
    private long catchUpHoldingTurn(long head, long deadline, boolean waitForOtherProcess) {
        while (true) {
            synchronized (lock) {
                if (closed) return readerSeq;
                try {
                    lease.touch();
                    // an index awaiting a rebuild is followed again once another process has rebuilt it
                    if (!lease.held() && (!lease.mustRecreate() || lease.adoptRebuild())) refreshCommitted();
                    if (!lease.mustRecreate() && readerSeq >= head) return readerSeq;
                    if (lease.held() || lease.tryAcquire()) {
                        lease.applyChanges();
                        refreshFromWriter();
                        return readerSeq;
                    }
                    if (!waitForOtherProcess) return readerSeq;
                } catch (IOException e) {
                    throw new StoreException("catch up index " + path + " to change " + head + ": " + e.getMessage(), e);
                }
            }
            if (System.nanoTime() > deadline) {
                log.debug("index {}: writer busy in another process; searching change {} of {}", path, readerSeq, head);
                synchronized (lock) {
                    return readerSeq;
                }
            }
            turnWaitsForOtherProcess = true;
            signalAdvance(); // waiters past their own bound now settle for the last commit
            boolean slept = pause();
            turnWaitsForOtherProcess = false;
            if (!slept) {
                synchronized (lock) {
                    return readerSeq;
                }
            }
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(LOCK_POLL.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the caller gets the index as it is, and its interrupt back
            return false;
        }
    }

    /** Swaps in the newest commit (another process's or ours). Caller holds the lock and not the writer. */
    private void refreshCommitted() throws IOException {
        if (reader == null) {
            openCommitted();
            return;
        }
        DirectoryReader fresh = DirectoryReader.openIfChanged(reader);
        if (fresh != null) swap(fresh, WriterLease.seqOf(fresh.getIndexCommit().getUserData()));
    }

    /** Swaps in an NRT reader on the leased writer. Caller holds the lock and the writer. */
    private void refreshFromWriter() throws IOException {
        DirectoryReader fresh = reader == null ? DirectoryReader.open(lease.writer())
                : DirectoryReader.openIfChanged(reader, lease.writer());
        if (fresh != null) {
            swap(fresh, lease.seq());
        } else {
            readerSeq = lease.seq();
            signalAdvance();
        }
    }

    private void swap(DirectoryReader fresh, long seq) throws IOException {
        DirectoryReader old = reader;
        reader = fresh;
        readerSeq = seq;
        signalAdvance();
        if (old != null) old.decRef(); // searches still running hold their own reference
    }

    /** The lease's heartbeat: follow the store, group-commit, and give the writer up when idle. */
    private void tick() {
        WriterLease.GroupCommit commit;
        boolean turn = catchUpTurn.tryLock(); // without it a catch-up is under way: it applies the same changes
        try {
            synchronized (lock) {
                if (closed || !lease.held()) return;
                try {
                    if (turn && lease.applyChanges()) refreshFromWriter();
                    commit = lease.claimCommit(lease.idle());
                } catch (IOException | RuntimeException e) {
                    abandon(e);
                    return;
                }
            }
        } finally {
            if (turn) {
                catchUpTurn.unlock();
                signalAdvance();
            }
        }
        if (commit != null) {
            try {
                commit.run(); // the fsync, outside the monitor: searches and catch-ups go on meanwhile
            } catch (IOException | RuntimeException e) {
                synchronized (lock) {
                    if (!closed && lease.held()) abandon(e);
                }
                return;
            }
        }
        compactIfPaused();
        synchronized (lock) {
            if (closed || !lease.held() || !lease.idle()) return;
            try {
                lease.release(); // commits under the monitor only what was applied since the claim: rare
                reopenCommitted();
            } catch (IOException | RuntimeException e) {
                abandon(e);
            }
        }
    }

    /** Merges the index into one segment once writes pause ({@link WriterLease#claimCompaction}); searches go on meanwhile. */
    private void compactIfPaused() {
        IndexWriter writer;
        int segments;
        synchronized (lock) {
            if (closed || !lease.held()) return;
            writer = lease.claimCompaction(reader);
            if (writer == null) return;
            segments = reader.leaves().size();
        }
        long t0 = System.nanoTime();
        try {
            writer.forceMerge(1); // concurrent updates and NRT reopens are allowed; only this thread releases the writer
        } catch (IOException | RuntimeException e) {
            synchronized (lock) {
                // a close or an abandoned writer aborts the merge; nothing is lost, the segments stay as they were
                if (!closed && lease.held() && lease.writer() == writer) log.warn("index {}: merging segments failed: {}", path, e.toString());
            }
            return;
        }
        long took = System.nanoTime() - t0;
        synchronized (lock) {
            if (closed || lease.writer() != writer) return;
            try {
                refreshFromWriter();
                lease.compactionDone(took);
            } catch (IOException | RuntimeException e) {
                abandon(e);
                return;
            }
        }
        log.debug("index {}: merged {} segments into one in {} ms", path, segments, took / 1_000_000);
    }

    /** After a failed apply or commit. Caller holds the lock. */
    private void abandon(Exception e) {
        // the store still has every change; drop the writer and let the next catch-up start over
        log.warn("index {}: background commit failed, releasing the writer: {}", path, e.toString());
        lease.abandon();
        dropReader(); // an NRT reader must not outlive its writer; the next catch-up opens a fresh one
    }

    /** After the writer is gone: search the last commit, which now holds everything that was applied. */
    private void reopenCommitted() throws IOException {
        DirectoryReader committed = DirectoryReader.open(directory);
        swap(committed, WriterLease.seqOf(committed.getIndexCommit().getUserData()));
    }

    private void dropReader() {
        DirectoryReader old = reader;
        reader = null;
        readerSeq = 0;
        if (old != null) release(old);
    }

    @Override
    public List<IndexHit> search(IndexQuery query) {
        return searchCaughtUp("search", (searcher, maxDoc) -> {
            FilterCoverage coverage = coverage(searcher);
            Optional<Query> lucene = queries.translate(query, coverage, searcher.getTopReaderContext());
            if (lucene.isEmpty()) return List.of();
            // Lucene allocates a queue of the requested size up front: never more than there are documents
            int k = Math.max(1, Math.min(query.limit(), maxDoc));
            // nobody reads the total hit count, so the disjunction may skip documents that cannot reach the
            // top k from the first k hits on, instead of counting the first 1,000 matches exactly
            return MemoryDocuments.hits(searcher, postFilter.search(searcher, lucene.get(), k, coverage));
        });
    }

    /** Nearest neighbours by cosine, filters inside the graph search; see {@link VectorSearch} for the over-fetch. */
    @Override
    public List<IndexHit> searchVector(VectorQuery query) {
        return searchCaughtUp("vector search", (searcher, maxDoc) -> {
            Optional<Query> knn = VectorSearch.translate(query, coverage(searcher), signCodes);
            if (knn.isEmpty()) return List.of();
            // the kNN query has already picked its over-fetched neighbours; this keeps the best k of them
            return MemoryDocuments.hits(searcher, searcher.search(knn.get(), Math.max(1, Math.min(query.k(), maxDoc))));
        });
    }

    /**
     * Document frequencies in the content field's standard analysis: the field every memory has and
     * the analyser that keeps an English word whole, so {@code df} is what BM25 sees for that word.
     */
    @Override
    public WordWeights wordWeights(Collection<String> words) {
        String field = MemoryDocuments.Source.CONTENT.field(TextAnalysis.STANDARD);
        WordWeights none = WordWeights.of(Map.of(), 0);
        return searchCaughtUp("word weights", none, (searcher, maxDoc) -> {
            IndexReader r = searcher.getIndexReader();
            Map<String, Long> df = new HashMap<>();
            for (String w : words) {
                List<String> terms = analysis.terms(field, w, 1);
                if (!terms.isEmpty()) df.put(w, (long) r.docFreq(new Term(field, terms.get(0))));
            }
            return WordWeights.of(df, r.getDocCount(field));
        });
    }

    /** The filter coverage of the searcher's reader: the one kept while that reader is current, else a new one. */
    private FilterCoverage coverage(IndexSearcher searcher) {
        FilterCoverage c = coverage;
        if (c == null || c.reader() != searcher.getIndexReader()) coverage = c = new FilterCoverage(searcher.getIndexReader());
        return c;
    }

    @FunctionalInterface
    private interface Search<T> {
        T run(IndexSearcher searcher, int maxDoc) throws IOException;
    }

    private List<IndexHit> searchCaughtUp(String operation, Search<List<IndexHit>> search) {
        return searchCaughtUp(operation, List.of(), search);
    }

    /** Runs a search on the current reader, after catching up with the store if it is ahead; {@code empty} without one. */
    private <T> T searchCaughtUp(String operation, T empty, Search<T> search) {
        long head = store.headSeq();
        if (head > indexedSeq() && !ownWritesInFlight()) catchUpTo(head, SEARCH_WAIT);
        DirectoryReader r = acquireReader();
        if (r == null) return empty;
        try {
            IndexSearcher searcher = new IndexSearcher(r);
            searcher.setSimilarity(SIMILARITY);
            return search.run(searcher, r.maxDoc());
        } catch (IOException e) {
            throw new StoreException(operation + " index " + path + ": " + e.getMessage(), e);
        } finally {
            release(r);
        }
    }

    /** Every memory id in what this process's searches see; for consistency checks. */
    public Set<String> indexedIds() {
        DirectoryReader r = acquireReader();
        Set<String> ids = new HashSet<>();
        if (r == null) return ids;
        try {
            for (LeafReaderContext leaf : r.leaves()) {
                Bits live = leaf.reader().getLiveDocs();
                StoredFields stored = leaf.reader().storedFields();
                for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                    if (live == null || live.get(doc)) {
                        ids.add(stored.document(doc, Set.of(MemoryDocuments.ID)).get(MemoryDocuments.ID));
                    }
                }
            }
            return ids;
        } catch (IOException e) {
            throw new StoreException("list ids of index " + path + ": " + e.getMessage(), e);
        } finally {
            release(r);
        }
    }

    /** A reference on the current reader, without the lock (it may be held by a catch-up). */
    private DirectoryReader acquireReader() {
        lease.touch();
        while (true) {
            DirectoryReader r = reader;
            if (r == null) return null;
            // fails only if a swap released r after we read it: the field then holds its successor
            if (r.tryIncRef()) return r;
        }
    }

    private void release(DirectoryReader r) {
        try {
            r.decRef();
        } catch (IOException e) {
            log.debug("index {}: closing a replaced reader: {}", path, e.toString()); // nothing left to lose
        }
    }

    @Override
    public long indexedSeq() {
        return readerSeq; // volatile: every search asks, and must not wait behind a catch-up
    }

    /** Commits what was applied, releases the write lock and every file handle. */
    @Override
    public void close() {
        // no shutdownNow: interrupting a commit in progress would close Lucene's file channels under it
        timer.shutdown();
        try {
            timer.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close anyway; the tick takes the same monitor
        }
        synchronized (lock) {
            if (closed) return;
            closed = true;
            try {
                if (lease.held()) lease.release();
            } catch (IOException e) {
                throw new StoreException("close index " + path + ": final commit failed: " + e.getMessage(), e);
            } finally {
                closeFiles();
            }
        }
    }

    /** Releases the reader and the directory even when the final commit failed (the store can replay it). */
    private void closeFiles() {
        try {
            DirectoryReader last = reader;
            reader = null; // first, so a lock-free acquireReader never spins on a closed reader
            if (last != null) last.decRef();
            directory.close();
        } catch (IOException e) {
            throw new StoreException("close index " + path + ": " + e.getMessage(), e);
        } finally {
            analysis.close();
        }
    }
}
