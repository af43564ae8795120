package dev.engram.engine;

import dev.engram.analysis.StopWords;
import dev.engram.analysis.Words;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Spreading activation from a recall's {@link ContextPriming} (Memento's {@code SpreadingActivation}): the first
 * {@value #MAX_WORDS} content words of the context find up to {@value #MAX_SEEDS} live memories of the zone (the
 * lexical layer), their links add up to {@value #MAX_NEIGHBOURS} live neighbours one hop away (either direction, any
 * relation), and each of these is recorded as read now. Memento raises their activation (EMA, access count, access
 * time); Engram's stand-in for that activation is the read itself, so a primed memory is hot again, fades more
 * slowly and counts towards auto-anchoring, as a recalled one does. The ranking of the recall that carries the
 * context is not changed (Memento's final order ignores the activation too).
 * <p>Per zone and session, a memory is primed at most once in a {@link #WINDOW} that starts with the session's first
 * priming (Memento's 10-minute cache), so a context repeated with every recall does not inflate its read counts.
 * The windows live in this process only (at most {@value #MAX_SESSIONS}, least recently used dropped first), as
 * Memento's cache lives in its process.
 */
final class ContextActivation {
    static final int MAX_WORDS = 8, MAX_SEEDS = 10, MAX_NEIGHBOURS = 10, MAX_SESSIONS = 10_000;
    static final Duration WINDOW = Duration.ofMinutes(10);

    /** What one priming did: the seeds and neighbours found, and how many of them were recorded as read. */
    record Primed(List<String> seeds, List<String> neighbours, int read) {
        String layer() {
            return "context: primed " + read + " (" + seeds.size() + " seed(s), " + neighbours.size() + " neighbour(s)"
                    + (read < seeds.size() + neighbours.size() ? ", the rest already primed in this session" : "") + ")";
        }
    }

    private record Window(Instant start, Set<String> ids) {
    }

    private final Map<String, Window> windows = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Window> eldest) {
            return size() > MAX_SESSIONS;
        }
    };

    /** Primes the memories around {@code p} in {@code zone}, reading and recording through the caller's store and index. */
    Primed prime(MemoryStore store, SearchIndex index, String zone, ContextPriming p, Instant now) {
        List<String> words = words(p.text());
        if (words.isEmpty()) return new Primed(List.of(), List.of(), 0);
        List<IndexHit> hits = index.search(new IndexQuery(String.join(" ", words), Set.of(zone), null, null,
                Set.of(MemoryStatus.ACTIVE), null, null, MAX_SEEDS));
        List<String> seeds = live(store, hits.stream().map(IndexHit::id).toList(), zone, now, MAX_SEEDS);
        Set<String> seen = new HashSet<>(seeds);
        List<String> near = new ArrayList<>();
        for (String seed : seeds) {
            for (Edge e : store.edges(seed)) {
                String other = e.other(seed);
                if (seen.add(other)) near.add(other);
            }
        }
        List<String> neighbours = live(store, near, zone, now, MAX_NEIGHBOURS);
        List<String> all = new ArrayList<>(seeds);
        all.addAll(neighbours);
        List<String> fresh = claim(zone, p.session(), all, now);
        if (!fresh.isEmpty()) store.recordAccess(fresh, now);
        return new Primed(seeds, neighbours, fresh.size());
    }

    /** The first content words of the context: no function words, no single letters, each once. */
    static List<String> words(String text) {
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (String w : Words.of(text)) {
            if (w.length() < 2 || StopWords.contains(w)) continue;
            out.add(w);
            if (out.size() == MAX_WORDS) break;
        }
        return List.copyOf(out);
    }

    /** Of {@code ids}, in their order, the first {@code max} that are active, unexpired memories of {@code zone}. */
    private static List<String> live(MemoryStore store, List<String> ids, String zone, Instant now, int max) {
        if (ids.isEmpty()) return List.of();
        Map<String, Memory> byId = new LinkedHashMap<>();
        for (Memory m : store.getAll(ids)) byId.put(m.id(), m);
        List<String> out = new ArrayList<>();
        for (String id : ids) {
            Memory m = byId.get(id);
            if (m == null || m.status() != MemoryStatus.ACTIVE || m.expiredAt(now) || !m.zone().equals(zone)) continue;
            out.add(id);
            if (out.size() == max) break;
        }
        return out;
    }

    /** The ids this session has not primed in its current window, which they now join. */
    private synchronized List<String> claim(String zone, String session, List<String> ids, Instant now) {
        String key = zone + '\0' + (session == null ? "" : session);
        Window w = windows.get(key);
        if (w == null || !now.isBefore(w.start().plus(WINDOW))) {
            w = new Window(now, new HashSet<>());
            windows.put(key, w);
        }
        List<String> fresh = new ArrayList<>();
        for (String id : ids) if (w.ids().add(id)) fresh.add(id);
        return fresh;
    }
}
