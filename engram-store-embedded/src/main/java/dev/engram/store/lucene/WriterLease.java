package dev.engram.store.lucene;

import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This process's hold on the index's single IndexWriter, and the change feed applied through it.
 * Not thread-safe: {@link LuceneSearchIndex} calls it under its monitor, except {@link #touch()}
 * (any thread) and {@link GroupCommit#run()} (the lease's tick thread, outside the monitor).
 */
final class WriterLease {
    private static final Logger log = LoggerFactory.getLogger(WriterLease.class);

    static final String SEQ = "seq";
    /**
     * What the documents hold, in every commit's user data. An index of another layout is rebuilt
     * from the store on open. 1 (no key): ids stored only; 2: ids also as doc values; 3: keys, tags
     * and paths in the standard analyser's field only ({@link MemoryDocuments.Source}); 4: a key the engine
     * derived from the content is not indexed as a key; 5: the standard analyser folds accents
     * ({@link TextAnalysis.FoldingStandardAnalyzer}) and a key of a fixed word and a hash is not indexed.
     */
    static final String LAYOUT = "layout";
    static final int CURRENT_LAYOUT = 5;
    /** Heartbeat of the lease: how often the holder follows the store and checks the timers below. */
    static final Duration TICK = Duration.ofMillis(100);
    /** Group commit: at most one fsync'ing commit per interval while changes arrive. */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(250);
    /** Local idleness after which the writer is closed so other processes can take the lock. */
    static final Duration IDLE = Duration.ofSeconds(1);
    /**
     * A pause in applied changes after which the index is merged into one segment (see {@link #claimCompaction}).
     * A recall seeks each of its terms once per segment; at 10k memories the default merge policy leaves 3-10.
     */
    static final Duration COMPACT_AFTER = Duration.ofSeconds(1);
    /**
     * Most estimated work for one such merge ({@link #mergeMicros}); a costlier index is left to Lucene's own
     * merge policy. About 33k memories (vectors are stored flat, {@link FlatVectors}: a merge copies them). The
     * lease's thread waits for the merge, so other processes' writes reach the commit that much later: kept
     * well under the second within which every process must see them.
     */
    static final long COMPACT_BUDGET_MICROS = 500_000;
    /** Rewriting one document's postings, stored fields and doc values: 10k memories merged in 150 ms here. */
    private static final long MERGE_DOC_MICROS = 15;
    /**
     * Merges are spaced by this many times the last one's duration: at most 5% of the time goes to them even
     * when writes trickle in with a pause after each (a 10k-memory index merged in 150 ms waits 3 s for the next).
     */
    static final int COMPACT_SPACING = 20;
    private static final int BATCH = 500;
    /** Feed entries read per query when a rebuild collects every memory id. */
    private static final int FEED_PAGE = 10_000;

    private final Directory directory;
    /** The index's sign codes, built for each merged segment before searches see it. */
    private final SignCodes.Cache signCodes;
    private final TextAnalysis analysis;
    private final MemoryStore store;
    private final Path path;
    // mutable lease state, changed only under LuceneSearchIndex's monitor
    private IndexWriter writer;
    private long seq;
    private boolean dirty;
    private boolean recreate;
    /** The commit generation that was seen when {@link #recreate} was set; -1 if none could be read. */
    private long staleGeneration = -1;
    private long lastCommitNanos;
    private long lastChangeNanos;
    /** When the last merge ended and how long it took; none yet at first. */
    private long lastCompactionEndNanos;
    private long lastCompactionNanos;
    /** Whether the segments of the writer have been merged, or judged not worth merging, since the last change. */
    private boolean compacted;
    // written by every search without the monitor (LuceneSearchIndex#acquireReader)
    private volatile long lastUseNanos;

    WriterLease(Directory directory, TextAnalysis analysis, MemoryStore store, Path path, SignCodes.Cache signCodes) {
        this.directory = directory;
        this.signCodes = signCodes;
        this.analysis = analysis;
        this.store = store;
        this.path = path;
    }

    boolean held() {
        return writer != null;
    }

    IndexWriter writer() {
        return writer;
    }

    /** The last store change applied to the writer, committed or not. */
    long seq() {
        return seq;
    }

    void touch() {
        lastUseNanos = System.nanoTime();
    }

    boolean idle() {
        return System.nanoTime() - lastUseNanos >= IDLE.toNanos();
    }

    /** The next writer starts from an empty index and fills it from the store, unless another process rebuilds it first. */
    void recreateOnNextOpen() {
        recreate = true;
        staleGeneration = lastGeneration();
    }

    boolean mustRecreate() {
        return recreate;
    }

    /**
     * Takes over a rebuild another process finished: true (and no rebuild pending any more) when the
     * index marked for one has since been committed anew, at the current layout and not ahead of the
     * store. Two processes that open an index of an older layout both mark it; the first to get the
     * write lock rebuilds it, and the second must then follow that index, not keep searching its old
     * reader while the first holds the lock, nor wipe the rebuilt index once it gets the lock.
     */
    boolean adoptRebuild() {
        if (!recreate) return false;
        try {
            long generation = lastGeneration();
            // an unreadable index stays marked until a new commit replaces it
            if (generation < 0 || generation == staleGeneration) return false;
            Map<String, String> data = SegmentInfos.readLatestCommit(directory).getUserData();
            if (layoutOf(data) != CURRENT_LAYOUT || seqOf(data) > store.headSeq()) return false;
        } catch (IOException | RuntimeException e) {
            return false; // a commit being replaced under us, or still unreadable: rebuild as planned
        }
        log.info("index {}: rebuilt by another process; following it", path);
        recreate = false;
        return true;
    }

    private long lastGeneration() {
        try {
            return SegmentInfos.getLastCommitGeneration(directory);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Takes Lucene's write lock if no other writer (in any process) has it; never waits. */
    boolean tryAcquire() throws IOException {
        if (recreate && !wipe()) return false; // wipe() first checks, under the lock, for another process's rebuild
        boolean existed = DirectoryReader.indexExists(directory);
        IndexWriterConfig config = new IndexWriterConfig(analysis.indexAnalyzer())
                .setOpenMode(recreate ? IndexWriterConfig.OpenMode.CREATE : IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                .setSimilarity(LuceneSearchIndex.SIMILARITY) // the norms it writes are lengths either way; kept as searched
                .setCodec(new VectorCodec()) // vectors flat, and wider than Lucene's default 1024 dimensions
                .setMergedSegmentWarmer(signCodes::warm)
                .setCommitOnClose(false); // every commit carries the seq, so commits happen only in commit()
        try {
            writer = new IndexWriter(directory, config);
        } catch (LockObtainFailedException e) {
            return false;
        } catch (CorruptIndexException | IndexFormatTooOldException | IndexFormatTooNewException e) {
            if (recreate) throw e;
            log.warn("index {}: unreadable ({}); rebuilding it from the store", path, e.toString());
            recreate = true;
            return tryAcquire();
        }
        seq = recreate || !existed ? 0 : seqOf(SegmentInfos.readLatestCommit(directory).getUserData());
        dirty = recreate || !existed; // commit even an empty index, so readers in any process can open it
        if (seq > store.headSeq()) {
            log.warn("index {}: reflects change {} but the store ends at {} (store replaced?); rebuilding",
                    path, seq, store.headSeq());
            writer.deleteAll();
            seq = 0;
            dirty = true;
        }
        recreate = false;
        lastCommitNanos = System.nanoTime();
        touch();
        return true;
    }

    /**
     * Deletes every index file under Lucene's write lock, unless another process has rebuilt the index
     * since it was marked (then nothing is deleted and {@link #recreate} is cleared). Needed because IndexWriter reads the old
     * commit even in CREATE mode, and fails on the very corruption we are recovering from.
     */
    private boolean wipe() throws IOException {
        try (Lock held = directory.obtainLock(IndexWriter.WRITE_LOCK_NAME)) {
            if (adoptRebuild()) return true; // finished by another process since this one marked it
            for (String file : directory.listAll()) {
                if (!file.equals(IndexWriter.WRITE_LOCK_NAME)) directory.deleteFile(file);
            }
            return true;
        } catch (LockObtainFailedException e) {
            return false;
        }
    }

    /** Applies every store change after {@link #seq()}; returns whether there were any. */
    boolean applyChanges() throws IOException {
        // seq 0: nothing applied yet, so the index is empty (new, recreated, or emptied for being ahead of the store)
        boolean applied = seq == 0 && rebuild();
        while (true) {
            List<Change> batch = store.changesSince(seq, BATCH);
            if (batch.isEmpty()) return applied;
            Set<String> ids = new LinkedHashSet<>();
            batch.forEach(c -> ids.add(c.memoryId()));
            // the memory as it is now: a later change to the same id re-applies the same state, harmlessly
            for (Memory m : store.getAll(List.copyOf(ids))) {
                // a vector written between these two reads belongs to a later change, which re-applies this id
                writer.updateDocument(MemoryDocuments.idTerm(m.id()), MemoryDocuments.of(m, store.embedding(m.id())));
                ids.remove(m.id());
            }
            for (String gone : ids) writer.deleteDocuments(MemoryDocuments.idTerm(gone));
            seq = batch.get(batch.size() - 1).seq();
            changed();
            applied = true;
        }
    }

    private void changed() {
        dirty = true;
        compacted = false;
        lastChangeNanos = System.nanoTime();
    }

    /**
     * The writer to merge into one segment now, or null. Once changes have paused for {@link #COMPACT_AFTER},
     * an index in more than one segment ({@code reader} is the writer's NRT reader) is merged whole if that
     * costs at most {@link #COMPACT_BUDGET_MICROS}: a background rewrite of a few MB, after which each recall seeks
     * its terms in one segment instead of several. A stream of writes with no pause is never held up by it,
     * and merges are spaced by {@link #COMPACT_SPACING} times the last one's duration.
     * The caller runs {@link IndexWriter#forceMerge} outside the monitor and then {@link #compactionDone(long)}.
     */
    IndexWriter claimCompaction(DirectoryReader reader) {
        long now = System.nanoTime();
        if (writer == null || compacted || now - lastChangeNanos < COMPACT_AFTER.toNanos()
                || (lastCompactionNanos > 0 && now - lastCompactionEndNanos < COMPACT_SPACING * lastCompactionNanos)) return null;
        compacted = true; // claimed, or not worth it until the next change
        if (reader == null || reader.leaves().size() < 2 || mergeMicros(reader) > COMPACT_BUDGET_MICROS) return null;
        return writer;
    }

    /**
     * What merging every segment of {@code reader} into one would cost, roughly: every document is rewritten. Vectors
     * are copied with them, into the flat format, with no graph to build (a segment an earlier version wrote with one
     * included).
     */
    static long mergeMicros(DirectoryReader reader) {
        long micros = 0;
        for (LeafReaderContext leaf : reader.leaves()) micros += leaf.reader().maxDoc() * MERGE_DOC_MICROS;
        return micros;
    }

    /** The merged segments go into the next group commit, so other processes and the next open read them too. */
    void compactionDone(long tookNanos) {
        dirty = true;
        lastCompactionNanos = Math.max(1, tookNanos);
        lastCompactionEndNanos = System.nanoTime();
    }

    /**
     * Fills an empty index with every memory once, in the order the feed first names them (the order
     * they were written), and moves {@link #seq()} past the changes read. Replaying the feed instead
     * indexes a memory again in every batch of changes that names it (written, embedded, amended); a copy
     * replaced after a flush stays in Lucene's term statistics until a merge drops it, so BM25 would
     * depend on when merges ran. A change after the ones read is applied by the next
     * {@link #applyChanges()} as usual.
     */
    private boolean rebuild() throws IOException {
        // seq 0 says nothing was applied; a rebuild that failed partway (or a group commit taken during
        // one) may still have left documents, and addDocument would add them twice
        writer.deleteAll();
        Set<String> ids = new LinkedHashSet<>();
        long last = seq;
        for (List<Change> batch; !(batch = store.changesSince(last, FEED_PAGE)).isEmpty(); ) {
            batch.forEach(c -> ids.add(c.memoryId()));
            last = batch.get(batch.size() - 1).seq();
        }
        List<String> order = List.copyOf(ids);
        for (int from = 0; from < order.size(); from += BATCH) {
            List<String> chunk = order.subList(from, Math.min(order.size(), from + BATCH));
            Map<String, Memory> byId = new HashMap<>();
            for (Memory m : store.getAll(chunk)) byId.put(m.id(), m);
            for (String id : chunk) {
                Memory m = byId.get(id); // absent: deleted since
                if (m != null) writer.addDocument(MemoryDocuments.of(m, store.embedding(id)));
            }
        }
        if (last == seq) return false;
        seq = last;
        changed();
        return true;
    }

    /**
     * A commit claimed under the monitor and run outside it. IndexWriter allows a commit alongside
     * updateDocument and NRT reopens, and everything applied up to {@code seq} is in the writer
     * before the commit starts, so the commit holds at least what its seq says (applying more is
     * harmless: catch-up re-applies changes). Only the tick thread runs these, and it is also the
     * only thread that releases the writer while the index is open, so the writer outlives the commit.
     */
    record GroupCommit(IndexWriter writer, long seq) {
        void run() throws IOException {
            writer.setLiveCommitData(commitData(seq).entrySet());
            writer.commit();
        }
    }

    /**
     * The group commit to run now, or null: when changes were applied and the interval has passed,
     * or {@code now} (the lease is about to be released). Marks them committed; if the commit then
     * fails the caller {@link #abandon()}s the writer, so the next holder replays from the last commit.
     */
    GroupCommit claimCommit(boolean now) {
        if (!dirty || (!now && System.nanoTime() - lastCommitNanos < COMMIT_INTERVAL.toNanos())) return null;
        dirty = false;
        lastCommitNanos = System.nanoTime();
        return new GroupCommit(writer, seq);
    }

    private void commit() throws IOException {
        writer.setLiveCommitData(commitData(seq).entrySet());
        writer.commit();
        dirty = false;
        lastCommitNanos = System.nanoTime();
    }

    /** Commits what was applied and gives the write lock back. */
    void release() throws IOException {
        try {
            if (dirty) commit();
        } finally {
            IndexWriter w = writer;
            writer = null;
            w.close();
        }
    }

    /** Drops the writer and its uncommitted changes after a failure; the next holder replays them. */
    void abandon() {
        IndexWriter w = writer;
        writer = null;
        dirty = false;
        if (w == null) return;
        try {
            w.rollback();
        } catch (IOException e) {
            log.debug("index {}: rollback of an abandoned writer: {}", path, e.toString()); // lock goes with it
        }
    }

    private static Map<String, String> commitData(long seq) {
        return Map.of(SEQ, Long.toString(seq), LAYOUT, Integer.toString(CURRENT_LAYOUT));
    }

    static int layoutOf(Map<String, String> commitData) {
        String s = commitData.get(LAYOUT);
        return s == null ? 1 : Integer.parseInt(s);
    }

    static long seqOf(Map<String, String> commitData) {
        String s = commitData.get(SEQ);
        return s == null ? 0 : Long.parseLong(s);
    }
}
