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
 * version. Not thread-safe: the store uses it under its read lock.
 */
final class RecordCache {
    /** Content characters kept at most (about 16 MB of heap at two bytes a character); oldest use goes first. */
    static final long MAX_CONTENT_CHARS = 8_000_000;
    /** Edge lists and link counts kept at most; each is a few small objects. */
    static final int MAX_ENTRIES = 50_000;

    /** Longest a cache lives without a reset; see the class comment. */
    static final long MAX_AGE_NANOS = 30_000_000_000L;

    private long version = Long.MIN_VALUE;
    private long resetAt;
    private long contentChars;
    private final LinkedHashMap<String, Memory> memories = new LinkedHashMap<>(1024, 0.75f, true);
    private final Map<String, List<Memory>> pinnedByZone = new HashMap<>();
    private final Map<String, List<Edge>> edges = bounded();
    private final Map<String, Integer> degrees = bounded();

    /** Whether rows read under {@code dataVersion} may still be served. */
    boolean validAt(long dataVersion) {
        return dataVersion == version && System.nanoTime() - resetAt < MAX_AGE_NANOS;
    }

    /** Empties the cache; rows read from now on belong to {@code dataVersion}. */
    void reset(long dataVersion) {
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
    void accessWritten(Map<String, PendingAccess.Bump> bumps) {
        bumps.forEach((id, bump) -> memories.computeIfPresent(id, (k, m) -> bump.applyTo(m)));
        pinnedByZone.clear(); // pinned rows carry counts too; one query per zone reloads them
    }

    Memory memory(String id) {
        return memories.get(id);
    }

    void putMemory(Memory m) {
        Memory old = memories.put(m.id(), m);
        if (old != null) contentChars -= old.content().length();
        contentChars += m.content().length();
        for (Iterator<Memory> eldest = memories.values().iterator(); contentChars > MAX_CONTENT_CHARS && eldest.hasNext(); ) {
            contentChars -= eldest.next().content().length();
            eldest.remove();
        }
    }

    List<Memory> pinned(String zone) {
        return pinnedByZone.get(zone);
    }

    void putPinned(String zone, List<Memory> pinned) {
        pinnedByZone.put(zone, List.copyOf(pinned)); // one entry per zone: no bound needed
    }

    List<Edge> edges(String id) {
        return edges.get(id);
    }

    void putEdges(String id, List<Edge> list) {
        edges.put(id, List.copyOf(list));
    }

    Integer degree(String id) {
        return degrees.get(id);
    }

    void putDegree(String id, int degree) {
        degrees.put(id, degree);
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
