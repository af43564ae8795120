package dev.engram.store.sqlite;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rows a recall reads again and again (its candidates, the zone's pins, edges and link counts),
 * kept while the database file has not changed. Loading the hundred candidates of a recall took 1.2 ms
 * of its 2.9 ms in the engine at 10k memories (docs/benchmarks.md §0); a cached row takes microseconds.
 *
 * <p>Validity is all or nothing: SQLite's {@code PRAGMA data_version} on the reader connection moves
 * whenever another connection commits (this process's writer, another process), and the store then
 * resets the cache ({@link #validAt}). Finer eviction would need to know what each commit touched.
 * This process's own access flushes are committed on the reader connection itself, which does not
 * move its version; {@link #accessWritten} patches the cached rows instead. Rows are cached as read,
 * before this process's pending access bumps are overlaid, so the overlay still applies once.
 *
 * <p>A row read after {@link #validAt} is at least as new as the version it is filed under (SQLite
 * gives each later statement a later snapshot), so the cache never holds a row older than its
 * version. Thread-safe: several reader connections fill it at once ({@link ReaderPool}). A reader takes a
 * {@link #stamp} after validating and before its statement; every put carries it and is dropped if the
 * cache was reset or patched in between, so a row read from an older snapshot never outlives a reset or
 * misses an access flush that was applied while it was being read.
 */
final class RecordCache {
    /** Content characters kept at most (about 16 MB of heap at two bytes a character); oldest use goes first. */
    static final long MAX_CONTENT_CHARS = 8_000_000;
    /** Edge lists and link counts kept at most; each is a few small objects. */
    static final int MAX_ENTRIES = 50_000;

    /** Longest a cache lives without a reset; see the class comment. */
    static final long MAX_AGE_NANOS = 30_000_000_000L;

    private long version = Long.MIN_VALUE;
    /** Moves on every reset and access patch; puts stamped with an older value are dropped. */
    private long generation;
    private long resetAt;
    private long contentChars;
    private final LinkedHashMap<String, Memory> memories = new LinkedHashMap<>(1024, 0.75f, true);
    private final Map<String, List<Memory>> pinnedByZone = new HashMap<>();
    private final Map<String, List<Edge>> edges = bounded();
    private final Map<String, Integer> degrees = bounded();

    /** Whether rows read under {@code dataVersion} may still be served. */
    synchronized boolean validAt(long dataVersion) {
        return dataVersion == version && System.nanoTime() - resetAt < MAX_AGE_NANOS;
    }

    /** Empties the cache; rows read from now on belong to {@code dataVersion}. */
    synchronized void reset(long dataVersion) {
        generation++;
        memories.clear();
        contentChars = 0;
        pinnedByZone.clear();
        edges.clear();
        degrees.clear();
        version = dataVersion;
        resetAt = System.nanoTime();
    }

    /**
     * This process has written {@code bumps} on the reader connection, whose own commits leave its
     * data version where it was: the cached rows take the bumps and stay valid.
     */
    synchronized void accessWritten(Map<String, PendingAccess.Bump> bumps) {
        generation++; // a row being read now may predate the flush: its put must not land unpatched
        bumps.forEach((id, bump) -> memories.computeIfPresent(id, (k, m) -> bump.applyTo(m)));
        pinnedByZone.clear(); // pinned rows carry counts too; one query per zone reloads them
    }

    /** Resets the cache unless it is valid at {@code dataVersion}; returns the stamp for the puts that follow. */
    synchronized long validate(long dataVersion) {
        if (!validAt(dataVersion)) reset(dataVersion);
        return generation;
    }

    /** The stamp puts must carry: taken before the statement whose rows they file. */
    synchronized long stamp() {
        return generation;
    }

    synchronized Memory memory(String id) {
        return memories.get(id);
    }

    synchronized void putMemory(long stamp, Memory m) {
        if (stamp != generation) return;
        Memory old = memories.put(m.id(), m);
        if (old != null) contentChars -= old.content().length();
        contentChars += m.content().length();
        for (Iterator<Memory> eldest = memories.values().iterator(); contentChars > MAX_CONTENT_CHARS && eldest.hasNext(); ) {
            contentChars -= eldest.next().content().length();
            eldest.remove();
        }
    }

    synchronized List<Memory> pinned(String zone) {
        return pinnedByZone.get(zone);
    }

    synchronized void putPinned(long stamp, String zone, List<Memory> pinned) {
        if (stamp == generation) pinnedByZone.put(zone, List.copyOf(pinned)); // one entry per zone: no bound needed
    }

    synchronized List<Edge> edges(String id) {
        return edges.get(id);
    }

    synchronized void putEdges(long stamp, String id, List<Edge> list) {
        if (stamp == generation) edges.put(id, List.copyOf(list));
    }

    synchronized Integer degree(String id) {
        return degrees.get(id);
    }

    synchronized void putDegree(long stamp, String id, int degree) {
        if (stamp == generation) degrees.put(id, degree);
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
