package dev.engram.store;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.spi.PendingAccess;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Rows a recall reads again and again (its candidates, the zone's pins, edges and link counts),
 * kept while the store has not changed. Loading the hundred candidates of a recall took 1.2 ms
 * of its 2.9 ms in the engine at 10k memories (docs/benchmarks.md §0); a cached row takes microseconds.
 * Both stores keep one: the embedded store per process, the PostgreSQL store per replica.
 *
 * <p>Validity: the store gives a version that moves whenever anyone else may have changed what is kept (SQLite's
 * {@code PRAGMA data_version} on the flush connection; on PostgreSQL the sum of the change feed's head, the edge
 * feed's head and the access epoch). When it moved, the cache reads the store's change feed since the change it
 * reflects ({@link #validate}) and evicts just the memories those changes name, and the edge feed (written by triggers
 * on the edges table) and drops just the edge lists and link counts of the memories it names; a zone's pins are dropped
 * when a changed memory is pinned now or the list holds one ({@link ChangeFeed#pinnedAmong}).
 * With writes streaming in, a reset per write made every
 * recall reload its hundred candidates (docs/benchmarks.md §10), and dropping every link count per write
 * made it count their links again (issue 18). A long feed (more than {@link #MAX_EVICTIONS}), a feed that went backwards (the file was
 * replaced) and {@link #MAX_AGE_NANOS} still reset everything. What the change feed does not carry: access counts
 * written by another process or replica, which move the access epoch ({@link ChangeFeed#accessEpoch}); the embedded
 * store's cache then resets at the next validation, and PostgreSQL's, whose access feed names the memories behind each
 * move and what it added to each ({@link ChangeFeed#accessSince}, {@link #followingAccessFeed}), adds those counts to the
 * cached rows: a row read again for each of another replica's flushes cost the second replica a statement a recall
 * (docs/benchmarks.md, issue 18). This process's own access flushes are announced
 * ({@link #accessWriting}) and reported ({@link #accessWritten}), which patches the cached rows instead, and the
 * bumps a write commits are evicted ({@link #evict}). Rows are cached as read,
 * before this process's pending access bumps are overlaid, so the overlay still applies once.
 *
 * <p>A row read after {@link #validate} is at least as new as the version it is filed under (each later statement
 * sees a later snapshot), so the cache never holds a row older than its
 * version. Thread-safe: several reader connections fill it at once. A reader takes a
 * {@link #stamp} after validating and before its statement; every put carries it and is dropped if the
 * cache was reset in between, or what it files was evicted or patched in between ({@link Ledger}), so a row
 * read from an older snapshot never outlives a change to it or misses an access flush that was applied while
 * it was being read.
 */
public final class RecordCache {
    /**
     * Heap the cached rows may take, as {@link #rowBytes} estimates it: a sixteenth of the JVM's heap, between 16 and
     * 192 MB; least recently used rows go first. Until 2026-12-05 the bound was 8 million content characters, which
     * held about half of a 100k-memory store: every recall then replaced about fifty of its hundred candidates' rows,
     * each survived a young collection or two before its promotion, and every collection copied them (young pauses of
     * 50-73 ms instead of 12-21, recall p99 with the model 47-64 ms instead of 27-37; docs/benchmarks.md,
     * "The record cache at 100k"). 100k rows take about 120 MB.
     */
    static final long DEFAULT_MAX_BYTES = Math.max(16L << 20, Math.min(192L << 20, Runtime.getRuntime().maxMemory() / 16));
    /**
     * What a cached row takes beyond its content: the record and its parts, its other strings, times and lists, the
     * map's entry. Measured with a class histogram of 47,802 cached rows: 1.17 KB each for 160 characters of content
     * on average.
     */
    static final int ROW_OVERHEAD_BYTES = 1_000;
    /** Edge lists and link counts kept at most; each is a few small objects. */
    static final int MAX_ENTRIES = 50_000;

    /**
     * Longest a cache lives without a reset. Every write of Engram's is in the change feed or moves the access epoch,
     * so this only bounds how long an edit made outside Engram (a hand-run SQL statement) can go unseen. It was 30 s:
     * then an agent whose recalls come minutes apart found the cache reset at almost every recall and read its
     * hundred candidates, pins and link counts from SQLite again, 1.0-1.8 ms of CPU more per recall at 10k
     * memories (docs/benchmarks.md, "Scan instead of a walk that would give up").
     */
    static final long MAX_AGE_NANOS = 600_000_000_000L;

    /** More changes than this since the cached state: reset rather than evict one by one. */
    public static final int MAX_EVICTIONS = 512;

    /** Recent per-memory invalidations remembered for stamped puts; past this, the oldest count as a whole reset. */
    static final int LEDGER_IDS = 4096;

    /** The store's change feed, as the validating connection reads it. */
    public interface ChangeFeed {
        /** The changes after {@code seq}, oldest first, at most {@code max}. */
        List<dev.engram.spi.Change> since(long seq, int max);

        /** The newest change's seq (0 when there is none). */
        long head();

        /** The edge changes after {@code seq} (each names a memory whose links changed), oldest first, at most {@code max}. */
        List<dev.engram.spi.Change> edgesSince(long seq, int max);

        /** The newest edge change's seq (0 when there is none). */
        long edgeHead();

        /** How many commits have written access counts ({@code SqliteStatements#ACCESS_EPOCH}). */
        long accessEpoch();

        /**
         * The access feed's entries after {@code epoch}, oldest first, at most {@code max}: the epoch each commit that
         * wrote access counts moved to, and the memories it wrote them for. Null for a store that keeps no such feed (the
         * embedded one): another writer's counts then reset the cache.
         */
        default List<AccessChange> accessSince(long epoch, int max) {
            return null;
        }

        /**
         * Which memories of {@code changes} (entries this feed returned) are pinned as of this reading; null when the
         * feed cannot tell, and every zone's pinned list is then dropped. A memory pinned now may have joined a zone's
         * pins; one that is not can only have left them, which the cached lists themselves show.
         */
        default java.util.Set<String> pinnedAmong(List<dev.engram.spi.Change> changes) {
            return null;
        }

        /** The memories of {@code changes} that are in {@code pinned}: what a feed that read each entry's pin answers. */
        static java.util.Set<String> among(List<dev.engram.spi.Change> changes, java.util.Set<String> pinned) {
            java.util.Set<String> out = new java.util.HashSet<>();
            for (dev.engram.spi.Change c : changes) {
                if (pinned.contains(c.memoryId())) out.add(c.memoryId());
            }
            return out;
        }
    }

    /**
     * One commit's access counts, as the access feed names them: the epoch it moved to, the memories, and what it added
     * to each ({@code bumps}, in the order of {@code ids}; null when the entry does not say, and the rows are then read
     * again).
     */
    public record AccessChange(long epoch, List<String> ids, List<PendingAccess.Bump> bumps) {
        public AccessChange {
            ids = List.copyOf(ids);
            if (bumps != null && bumps.size() != ids.size()) {
                throw new IllegalArgumentException(ids.size() + " ids but " + bumps.size() + " bumps");
            }
            bumps = bumps == null ? null : List.copyOf(bumps);
        }

        /** An entry that names its memories only: they are read again. */
        public AccessChange(long epoch, List<String> ids) {
            this(epoch, ids, null);
        }
    }

    /** More access-feed entries than this since the cached state: reset rather than evict their memories. */
    public static final int MAX_ACCESS_CHANGES = 64;

    private long version = Long.MIN_VALUE;
    /** The last change the cached rows reflect; -1 when unknown (the cache then resets). */
    private long seq = -1;
    /** The last edge change the cached edge lists and link counts reflect; -1 when unknown. */
    private long edgeSeq = -1;
    /** The access epoch the cached rows reflect: this process's flushes are patched in, anyone else's reset or evict. */
    private long accessEpoch = Long.MIN_VALUE;
    /** Epoch moves of this process's writes under way, before to after ({@link #ownEpochMoveStarting}). */
    private final Map<Long, Long> ownEpochMoves = new HashMap<>();
    /**
     * The epochs this process's own writes moved to, not yet behind {@link #accessEpoch}: a validation passes over their
     * entries, because the write itself patches ({@link #accessWritten}) or evicts ({@link #evict}) what it counted.
     */
    private final java.util.TreeSet<Long> ownEpochs = new java.util.TreeSet<>();
    /** Moves on every reset, eviction and access patch; a put stamped before a change to what it files is dropped. */
    private long generation;
    /** When each memory's row last changed under a reader's feet: its puts stamped before that are dropped. */
    private final Ledger rowsChanged = new Ledger(LEDGER_IDS);
    /** When edge lists and link counts were last dropped. */
    private final Ledger graphChanged = new Ledger(LEDGER_IDS);
    /** When the pinned lists were last dropped (one list per zone, reloaded by one query). */
    private long pinsChangedAt;
    private long resetAt;
    private final long maxBytes;
    private long heldBytes;
    private final LinkedHashMap<String, Row> memories = new LinkedHashMap<>(1024, 0.75f, true);
    private final Map<String, List<Memory>> pinnedByZone = new HashMap<>();
    private final Map<String, List<Edge>> edges = bounded();
    /** Link counts of memories without a cached row; those with one keep it in their {@link Row}. */
    private final Map<String, Integer> degrees = bounded();
    /** Memories whose access counts this process is committing ({@link #accessWriting}), with how many such writes. */
    private final Map<String, Integer> accessInFlight = new HashMap<>();
    private final LongSupplier nanoTime;
    /** Whether the store's feed names what each access-epoch move wrote ({@link #followingAccessFeed}). */
    private final boolean accessFeed;

    public RecordCache() {
        this(DEFAULT_MAX_BYTES, System::nanoTime);
    }

    /**
     * A cache for a store whose feed names the memories behind every move of the access epoch
     * ({@link ChangeFeed#accessSince}): someone else's counts evict just those rows.
     */
    public static RecordCache followingAccessFeed() {
        return new RecordCache(DEFAULT_MAX_BYTES, System::nanoTime, true);
    }

    /** A cache of rows up to {@code maxBytes} ({@link #rowBytes}) whose age is read from {@code nanoTime} (tests). */
    public RecordCache(long maxBytes, LongSupplier nanoTime) {
        this(maxBytes, nanoTime, false);
    }

    private RecordCache(long maxBytes, LongSupplier nanoTime, boolean accessFeed) {
        this.maxBytes = maxBytes;
        this.nanoTime = nanoTime;
        this.accessFeed = accessFeed;
    }

    /** A row's heap, estimated: its content (a byte a character, as Java stores Latin-1 text) and {@link #ROW_OVERHEAD_BYTES}. */
    public static long rowBytes(Memory m) {
        return m.content().length() + ROW_OVERHEAD_BYTES;
    }

    /** Whether rows read under {@code dataVersion} may still be served. */
    public synchronized boolean validAt(long dataVersion) {
        return dataVersion == version && nanoTime.getAsLong() - resetAt < MAX_AGE_NANOS;
    }

    /** Empties the cache; rows read from now on belong to {@code dataVersion}. */
    public synchronized void reset(long dataVersion) {
        generation++;
        rowsChanged.all(generation);
        graphChanged.all(generation);
        pinsChangedAt = generation;
        memories.clear();
        heldBytes = 0;
        pinnedByZone.clear();
        edges.clear();
        degrees.clear();
        version = dataVersion;
        resetAt = nanoTime.getAsLong();
    }

    /**
     * This process is about to commit access counts of {@code ids} ({@link #accessWritten} follows, or
     * {@link #accessWriteAbandoned}): until then their rows are not filed. A row read after the commit and filed before
     * the report would otherwise take the bump a second time when the report patches it.
     */
    public synchronized void accessWriting(Collection<String> ids) {
        generation++;
        for (String id : ids) {
            rowsChanged.id(id, generation);
            accessInFlight.merge(id, 1, Integer::sum);
        }
    }

    /** The counts announced by {@link #accessWriting} were not committed. */
    public synchronized void accessWriteAbandoned(Collection<String> ids) {
        for (String id : ids) landed(id);
    }

    private void landed(String id) {
        accessInFlight.computeIfPresent(id, (k, n) -> n == 1 ? null : n - 1);
    }

    /**
     * This process has committed {@code bumps} (announced by {@link #accessWriting}) where the cache's validation does
     * not see them as someone else's change: the cached rows take the bumps and stay valid.
     */
    public synchronized void accessWritten(Map<String, PendingAccess.Bump> bumps) {
        for (String id : bumps.keySet()) landed(id);
        generation++;
        bumps.forEach(this::patchRow);
        dropPinsHolding(bumps.keySet()); // pinned rows carry counts too; one query per zone reloads them
    }

    /**
     * Brings the cache to {@code dataVersion}: nothing to do when it is there already; else evicts the memories the
     * changes since {@link #seq} name, or resets when that cannot be told ({@link #MAX_EVICTIONS}, the feed went
     * backwards, the cache is old). Returns the stamp for the puts that follow. Called before the read's statements.
     */
    public synchronized long validate(long dataVersion, ChangeFeed feed) {
        if (validAt(dataVersion)) return generation;
        boolean young = nanoTime.getAsLong() - resetAt < MAX_AGE_NANOS;
        List<AccessChange> accessed = young && seq >= 0 && edgeSeq >= 0 ? accessedSince(feed) : null;
        if (accessed != null) {
            List<dev.engram.spi.Change> changes = feed.since(seq, MAX_EVICTIONS + 1);
            List<dev.engram.spi.Change> edgeChanges = feed.edgesSince(edgeSeq, MAX_EVICTIONS + 1);
            if (changes.size() <= MAX_EVICTIONS && edgeChanges.size() <= MAX_EVICTIONS
                    && (!changes.isEmpty() || feed.head() >= seq) && (!edgeChanges.isEmpty() || feed.edgeHead() >= edgeSeq)) {
                generation++;
                for (dev.engram.spi.Change c : changes) evictRow(c.memoryId());
                for (AccessChange a : accessed) {
                    if (ownEpochs.contains(a.epoch())) continue; // the write that made it patches or evicts its rows
                    for (int i = 0; i < a.ids().size(); i++) {
                        // someone else's counts: added to the cached row where the entry says what they were
                        if (a.bumps() == null) evictRow(a.ids().get(i));
                        else patchRow(a.ids().get(i), a.bumps().get(i));
                    }
                }
                if (!accessed.isEmpty()) advanceAccessEpoch(accessed.get(accessed.size() - 1).epoch());
                // links are in the edge feed only, a deleted memory's cascaded edges too (the edges table's triggers)
                for (dev.engram.spi.Change c : edgeChanges) dropLinks(c.memoryId());
                dropPinsAfter(changes, accessed, feed);
                version = dataVersion;
                if (!changes.isEmpty()) seq = changes.get(changes.size() - 1).seq();
                if (!edgeChanges.isEmpty()) edgeSeq = edgeChanges.get(edgeChanges.size() - 1).seq();
                return generation;
            }
        }
        reset(dataVersion);
        seq = feed.head();
        edgeSeq = feed.edgeHead();
        advanceAccessEpoch(feed.accessEpoch());
        return generation;
    }

    /**
     * {@link #validate} for a store whose checks run at once on several connections, each reading the version and the
     * feeds in one snapshot of a database whose later snapshots see every commit an earlier one saw (PostgreSQL): any
     * two checks are then ordered, and so are their versions, which only grow. A check older than the one the cache last
     * took in proves nothing new, and the cache already reflects at least what it saw: the reader may use it as it is.
     * Without this, an older check that lost the race to the monitor would find an access epoch it could not explain,
     * and reset everything.
     */
    public synchronized long validateSnapshot(long dataVersion, ChangeFeed feed) {
        if (seq >= 0 && dataVersion < version && nanoTime.getAsLong() - resetAt < MAX_AGE_NANOS) return generation;
        return validate(dataVersion, feed);
    }

    /**
     * Adds {@code bump} to a memory's cached row, changed at the current generation: a row being read now may predate
     * the counts, so its put must not land unpatched.
     */
    private void patchRow(String id, PendingAccess.Bump bump) {
        rowsChanged.id(id, generation);
        Row row = memories.get(id);
        if (row != null) row.memory = bump.applyTo(row.memory);
    }

    /** The cache now reflects the access feed up to {@code epoch}: entries up to it are not read again. */
    private void advanceAccessEpoch(long epoch) {
        accessEpoch = epoch;
        ownEpochs.headSet(epoch, true).clear();
    }

    /**
     * Drops the pinned lists what a validation took in may have changed: every list when a changed memory is pinned now
     * or the feed cannot say (it may have joined a list not cached yet, or moved zones); else just the lists that hold
     * a changed memory (edited, unpinned or deleted) or one whose counts moved. Until 2026-12-08 every change dropped every
     * list, and a recall after each remember read the zone's pins again (issue 18: half a statement a call).
     */
    private void dropPinsAfter(List<dev.engram.spi.Change> changes, List<AccessChange> accessed, ChangeFeed feed) {
        java.util.Set<String> pinnedNow = feed.pinnedAmong(changes);
        if (pinnedNow == null || !pinnedNow.isEmpty()) {
            pinnedByZone.clear();
            pinsChangedAt = generation;
            return;
        }
        java.util.Set<String> touched = new java.util.HashSet<>();
        for (dev.engram.spi.Change c : changes) touched.add(c.memoryId());
        for (AccessChange a : accessed) touched.addAll(a.ids());
        dropPinsHolding(touched);
    }

    /** Drops the pinned lists that hold any of {@code ids}, at the current generation. */
    private void dropPinsHolding(java.util.Collection<String> ids) {
        if (ids.isEmpty() || pinnedByZone.isEmpty()) return;
        java.util.Set<String> named = ids instanceof java.util.Set<String> set ? set : new java.util.HashSet<>(ids);
        if (pinnedByZone.values().removeIf(list -> list.stream().anyMatch(m -> named.contains(m.id())))) {
            pinsChangedAt = generation;
        }
    }

    /** Drops a memory's row, changed at the current generation: a row being read now may predate the change. */
    private void evictRow(String id) {
        rowsChanged.id(id, generation);
        Row gone = memories.remove(id);
        if (gone != null) heldBytes -= rowBytes(gone.memory);
    }

    /**
     * The access-feed entries to evict: none when the epoch the feed shows is the cache's or follows from it by this
     * process's own moves ({@link #followOwnEpochMoves}); else, with an access feed, the entries from the cache's epoch
     * to the feed's, when they are all there and not too many; null when the cache must reset.
     */
    private List<AccessChange> accessedSince(ChangeFeed feed) {
        long feedEpoch = feed.accessEpoch();
        if (followOwnEpochMoves(feedEpoch)) return List.of();
        if (!accessFeed || accessEpoch == Long.MIN_VALUE || feedEpoch < accessEpoch) return null;
        List<AccessChange> entries = feed.accessSince(accessEpoch, MAX_ACCESS_CHANGES + 1);
        if (entries == null || entries.isEmpty() || entries.size() > MAX_ACCESS_CHANGES) return null;
        long e = accessEpoch;
        for (AccessChange a : entries) {
            if (a.epoch() != e + 1) return null; // numbered without gaps: one missing means it cannot be told
            e = a.epoch();
        }
        return e >= feedEpoch ? entries : null;
    }

    /** The access epoch the cache reflects, for a store that reads the access feed after it; MIN_VALUE when unknown. */
    public synchronized long accessEpoch() {
        return accessEpoch;
    }

    /**
     * Whether the access epoch the feed shows is the cache's, or follows from it by moves of this process's writes that
     * have committed but not reported yet ({@link #ownEpochMoveStarting}); then the cache takes it. A write that settles
     * access counts commits on the writer connection and reports afterwards, and a recall validating in between found
     * an epoch it could not explain and reset the whole cache: at 50 clients with a remember in five calls, fifteen
     * times in ten seconds (issue 18's load). The write evicts the rows it settled once it reports.
     */
    private boolean followOwnEpochMoves(long feedEpoch) {
        long e = accessEpoch;
        for (int steps = 0; e != feedEpoch && steps <= ownEpochMoves.size(); steps++) {
            Long next = ownEpochMoves.get(e);
            if (next == null) return false;
            e = next;
        }
        if (e != feedEpoch) return false;
        advanceAccessEpoch(feedEpoch);
        return true;
    }

    /**
     * A write of this process is about to commit access counts, moving the epoch from {@code before} to {@code after}:
     * until it reports ({@link #accessEpochMoved}) or rolls back ({@link #ownEpochMoveAbandoned}) a validation that
     * finds the epoch moved this way knows it is this process's.
     */
    public synchronized void ownEpochMoveStarting(long before, long after) {
        ownEpochMoves.put(before, after);
        ownEpochs.add(after);
    }

    /** The write announced by {@link #ownEpochMoveStarting} did not commit. */
    public synchronized void ownEpochMoveAbandoned(long before, long after) {
        ownEpochMoves.remove(before, after);
        ownEpochs.remove(after); // not committed: another writer's entry may take this number
    }

    /** Drops {@code id}'s edge list and link count, changed at the current generation. */
    private void dropLinks(String id) {
        graphChanged.id(id, generation);
        edges.remove(id);
        degrees.remove(id);
        Row row = memories.get(id);
        if (row != null) row.degree = -1;
    }

    /**
     * This process moved the access epoch from {@code before} to {@code after} (written with the counts it patched in
     * or evicted). When the cache was not at {@code before}, someone else wrote counts meanwhile: the next validation
     * resets.
     */
    public synchronized void accessEpochMoved(long before, long after) {
        ownEpochMoves.remove(before, after);
        if (accessEpoch >= after) return; // a validation took it already (epochs only grow)
        if (accessEpoch == before) advanceAccessEpoch(after);
        else if (!accessFeed) forget(); // with an access feed the next validation takes in what came between, passing over this move
    }

    /** The last change the cache reflects, as of its last {@link #validate(long, ChangeFeed)}; -1 when unknown. */
    public synchronized long seq() {
        return seq;
    }

    /** The last edge change the cache reflects, as of its last {@link #validate(long, ChangeFeed)}; -1 when unknown. */
    public synchronized long edgeSeq() {
        return edgeSeq;
    }

    /** The next validation resets whatever the feed says (every row was rewritten without entries in it: a reseal). */
    public synchronized void forget() {
        generation++;
        rowsChanged.all(generation);
        graphChanged.all(generation);
        pinsChangedAt = generation;
        version = Long.MIN_VALUE;
        seq = -1;
        edgeSeq = -1;
        accessEpoch = Long.MIN_VALUE;
    }

    /** Drops these memories' rows (their access counts were written by a write of this process). */
    public synchronized void evict(java.util.Collection<String> ids) {
        if (ids.isEmpty()) return;
        generation++;
        for (String id : ids) {
            rowsChanged.id(id, generation);
            Row gone = memories.remove(id);
            if (gone != null) heldBytes -= rowBytes(gone.memory);
        }
        dropPinsHolding(ids);
    }

    /** The stamp puts must carry: taken before the statement whose rows they file. */
    public synchronized long stamp() {
        return generation;
    }

    public synchronized Memory memory(String id) {
        Row row = memories.get(id);
        return row == null ? null : row.memory;
    }

    /**
     * The cached rows of {@code ids} into {@code found}, the others into {@code missing}, under one lock: a recall asks
     * for a hundred candidates at once, and fifty threads taking the lock once per id queued on it (issue 18's load).
     */
    public synchronized void memories(Collection<String> ids, Map<String, Memory> found, List<String> missing) {
        for (String id : ids) {
            Row cached = memories.get(id);
            if (cached != null) found.put(id, cached.memory);
            else missing.add(id);
        }
    }

    /**
     * Files a row read in a snapshot whose access feed ended at {@code accessHead} (a store that follows the feed): one
     * from a snapshot past the entries this cache has taken in is not filed, because when the validation that takes in
     * those entries comes, it would add their counts to the row a second time. Every filed row thus lacks exactly the
     * entries after {@link #accessEpoch}, which is what lets a validation add them ({@link #patchRow}).
     */
    public synchronized void putMemory(long stamp, Memory m, long accessHead) {
        if (accessHead <= accessEpoch) file(stamp, m);
    }

    /** Files a row; a cache that follows an access feed needs to know the feed's head it was read at (above). */
    public synchronized void putMemory(long stamp, Memory m) {
        if (accessFeed) throw new IllegalStateException("a cache following an access feed files rows with the head they were read at");
        file(stamp, m);
    }

    private void file(long stamp, Memory m) {
        if (rowsChanged.since(m.id(), stamp) || accessInFlight.containsKey(m.id())) return;
        Row row = memories.get(m.id());
        if (row == null) {
            memories.put(m.id(), new Row(m));
        } else { // a newer read of the row: its link count, which the row does not hold, stays as valid as it was
            heldBytes -= rowBytes(row.memory);
            row.memory = m;
        }
        heldBytes += rowBytes(m);
        for (Iterator<Row> eldest = memories.values().iterator(); heldBytes > maxBytes && eldest.hasNext(); ) {
            heldBytes -= rowBytes(eldest.next().memory);
            eldest.remove();
        }
    }

    public synchronized List<Memory> pinned(String zone) {
        return pinnedByZone.get(zone);
    }

    public synchronized void putPinned(long stamp, String zone, List<Memory> pinned) {
        if (pinsChangedAt > stamp) return;
        for (Memory m : pinned) {
            if (rowsChanged.since(m.id(), stamp)) return; // a member changed (or was unpinned) while the list was read
        }
        pinnedByZone.put(zone, List.copyOf(pinned)); // one entry per zone: no bound needed
    }

    public synchronized List<Edge> edges(String id) {
        return edges.get(id);
    }

    public synchronized void putEdges(long stamp, String id, List<Edge> list) {
        if (!graphChanged.since(id, stamp)) edges.put(id, List.copyOf(list));
    }

    public synchronized Integer degree(String id) {
        return knownDegree(id);
    }

    /** The cached degrees of {@code ids} (those above zero into {@code found}), the unknown ones into {@code missing}, under one lock. */
    public synchronized void degrees(Collection<String> ids, Map<String, Integer> found, List<String> missing) {
        for (String id : ids) {
            Integer cached = knownDegree(id);
            if (cached == null) missing.add(id);
            else if (cached > 0) found.put(id, cached); // memories without edges are absent
        }
    }

    /** The link count kept in the memory's row when known, else the one kept on its own, else null. */
    private Integer knownDegree(String id) {
        Row row = memories.get(id);
        if (row != null && row.degree >= 0) return row.degree;
        return degrees.get(id);
    }

    public synchronized void putDegree(long stamp, String id, int degree) {
        if (graphChanged.since(id, stamp)) return;
        Row row = memories.get(id);
        if (row == null) {
            degrees.put(id, degree);
        } else {
            row.degree = degree;
        }
    }

    /**
     * A cached row and its link count, in one map entry: a recall asks for the link counts of its hundred candidates and
     * then for their rows, and under C1 the hash lookups (the ids' map nodes, key strings and bytes, scattered over the
     * heap) were a third of a lexical recall's samples at 10k memories when the two lived in maps of their own
     * (docs/benchmarks.md, "Link counts beside the cached rows"). -1 while unknown: a new row, or an edge change of the
     * memory ({@link #dropLinks}); a reset drops the rows themselves.
     */
    private static final class Row {
        Memory memory;
        int degree = -1;

        Row(Memory memory) {
            this.memory = memory;
        }
    }

    /**
     * When entries last changed, by {@link #generation}: per memory for the last {@code max} changes, and a generation
     * before which everything counts as changed (a reset, or changes too old to be kept one by one). Under a stream of
     * writes a reader's put used to be dropped whenever any change came between its stamp and its put: at 50 clients with
     * a remember in five calls that was most puts, and the hundred candidates of most recalls were read from SQLite again
     * (issue 18's load). Now only a change to the row it files drops it. Guarded by the cache's monitor.
     */
    static final class Ledger {
        private final int max;
        private long wholeAt;
        /** In the order of their generations (an id changed again moves to the end). */
        private final LinkedHashMap<String, Long> byId = new LinkedHashMap<>();

        Ledger(int max) {
            this.max = max;
        }

        /** Everything changed at {@code generation}. */
        void all(long generation) {
            wholeAt = generation;
            byId.clear();
        }

        /** {@code id} changed at {@code generation}, the newest generation so far. */
        void id(String id, long generation) {
            byId.remove(id);
            byId.put(id, generation);
            if (byId.size() > max) {
                Iterator<Map.Entry<String, Long>> eldest = byId.entrySet().iterator();
                wholeAt = Math.max(wholeAt, eldest.next().getValue()); // forgotten one by one: treated as changed
                eldest.remove();
            }
        }

        /** Whether {@code id} may have changed after a read stamped {@code stamp} began. */
        boolean since(String id, long stamp) {
            if (wholeAt > stamp) return true;
            Long at = byId.get(id);
            return at != null && at > stamp;
        }
    }

    private static <V> Map<String, V> bounded() {
        return new LinkedHashMap<>(1024, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > MAX_ENTRIES;
            }
        };
    }
}
