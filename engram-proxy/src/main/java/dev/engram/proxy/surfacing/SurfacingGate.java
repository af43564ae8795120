package dev.engram.proxy.surfacing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stateful checks before and after a memory search: a rate limit over a sliding minute (a slot
 * is claimed before searching, so concurrent calls cannot overshoot), a cooldown that skips a query
 * nearly identical (Jaccard &gt; 0.95) to one seen within {@code cooldown}, and a dedup window that
 * keeps a memory from being surfaced twice. Thread-safe.
 */
public final class SurfacingGate {
    static final double SAME_QUERY_JACCARD = 0.95;
    private static final int RECENT_QUERIES = 50;

    private final Clock clock;
    private final int maxPerMinute;
    private final Duration cooldown;
    private final Duration dedupWindow;
    // guarded by this
    private final Deque<Instant> slots = new ArrayDeque<>();
    private final Deque<Recent> recent = new ArrayDeque<>();
    private final LinkedHashMap<String, Instant> surfaced = new LinkedHashMap<>();

    public SurfacingGate(Clock clock, int maxPerMinute, Duration cooldown, Duration dedupWindow) {
        this.clock = clock;
        this.maxPerMinute = maxPerMinute;
        this.cooldown = cooldown;
        this.dedupWindow = dedupWindow;
    }

    /** Null when the query may search now (and its slot is taken), else the reason it may not. */
    public synchronized String claim(List<String> tokens) {
        Instant now = clock.instant();
        while (!slots.isEmpty() && !slots.peekFirst().isAfter(now.minus(Duration.ofMinutes(1)))) slots.removeFirst();
        Set<String> set = new HashSet<>(tokens);
        for (Recent r : recent) {
            if (r.at.isAfter(now.minus(cooldown)) && jaccard(r.tokens, set) > SAME_QUERY_JACCARD) return "cooldown";
        }
        if (slots.size() >= maxPerMinute) return "rate_limit";
        slots.addLast(now);
        recent.addFirst(new Recent(set, now));
        while (recent.size() > RECENT_QUERIES) recent.removeLast();
        return null;
    }

    /** Whether {@code memoryId} was surfaced within the dedup window. */
    public synchronized boolean seen(String memoryId) {
        Instant at = surfaced.get(memoryId);
        return at != null && at.isAfter(clock.instant().minus(dedupWindow));
    }

    public synchronized void markSurfaced(List<String> memoryIds) {
        markSurfaced(memoryIds, clock.instant());
    }

    /** Records memories surfaced at {@code at} (also earlier sessions' events, loaded at start). */
    public synchronized void markSurfaced(List<String> memoryIds, Instant at) {
        for (String id : memoryIds) {
            surfaced.remove(id);
            surfaced.put(id, at);
        }
        // bounded: oldest first out (memtomem-stm prunes at 10k)
        for (Iterator<Map.Entry<String, Instant>> it = surfaced.entrySet().iterator(); it.hasNext() && surfaced.size() > 10_000; ) {
            it.next();
            it.remove();
        }
    }

    /**
     * The rate and cooldown state (slots taken in the last minute, recent queries), for a process that
     * lives one call (a hook) to hand to the next. The dedup window is not in it: surfaced memories are
     * recorded in {@code ProxyStats} and loaded from there.
     */
    public record Snapshot(List<Long> slotsMillis, List<RecentQuery> recent) {
        public Snapshot {
            slotsMillis = List.copyOf(slotsMillis);
            recent = List.copyOf(recent);
        }
    }

    public record RecentQuery(List<String> tokens, long atMillis) {
        public RecentQuery {
            tokens = List.copyOf(tokens);
        }
    }

    public synchronized Snapshot snapshot() {
        Instant now = clock.instant();
        List<Long> s = slots.stream().filter(t -> t.isAfter(now.minus(Duration.ofMinutes(1)))).map(Instant::toEpochMilli).toList();
        List<RecentQuery> r = recent.stream().filter(q -> q.at.isAfter(now.minus(cooldown)))
                .map(q -> new RecentQuery(List.copyOf(q.tokens), q.at.toEpochMilli())).toList();
        return new Snapshot(s, r);
    }

    /** Takes over a saved state (oldest first as saved); entries outside their windows drop out as they would have. */
    public synchronized void restore(Snapshot s) {
        slots.clear();
        s.slotsMillis().stream().sorted().map(Instant::ofEpochMilli).forEach(slots::addLast);
        recent.clear();
        for (RecentQuery q : s.recent()) {
            if (recent.size() >= RECENT_QUERIES) break;
            recent.addLast(new Recent(new HashSet<>(q.tokens()), Instant.ofEpochMilli(q.atMillis())));
        }
    }

    static double jaccard(Set<String> a, Set<String> b) {
        if (a.isEmpty() && b.isEmpty()) return 1.0;
        Set<String> inter = new HashSet<>(a);
        inter.retainAll(b);
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        return (double) inter.size() / union.size();
    }

    private record Recent(Set<String> tokens, Instant at) {
    }
}
