package dev.engram.engine.view;

import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.rank.Freshness;
import dev.engram.rank.TierPolicy;
import dev.engram.spi.MemoryStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The graph as a viewer reads it, always in bounded pieces: a zone's top memories by degree,
 * importance or recency, a memory's neighbours (expand on click), search through recall, and the
 * shortest path between two memories. Read-only, except that search is a recall and counts as a read.
 * Only active, unexpired memories are drawn.
 */
public final class GraphView {
    /** Most neighbours one expand returns; a hub with more shows its most linked ones. */
    public static final int MAX_NEIGHBOURS = 500;
    /** Longest path searched for, in hops; the walk also stops after {@link #MAX_VISITED} memories. */
    public static final int MAX_PATH_HOPS = 12;
    static final int MAX_VISITED = 50_000;
    private static final int SNIPPET_CHARS = 160;

    private final MemoryStore store;
    private final Clock clock;
    private final Function<RecallQuery, RecallResult> recall;
    private final BiFunction<String, String, Memory> require;

    /**
     * @param recall  the engine's recall (search ranks exactly as recall does)
     * @param require resolves a reference (id or key) in a zone, or throws the engine's not-found error
     */
    public GraphView(MemoryStore store, Clock clock, Function<RecallQuery, RecallResult> recall,
                     BiFunction<String, String, Memory> require) {
        this.store = store;
        this.clock = clock;
        this.recall = recall;
        this.require = require;
    }

    /** The zone's top {@code limit} memories by the query's order and the edges among them. */
    public GraphSlice slice(GraphQuery q) {
        Instant now = clock.instant();
        List<Memory> all = new ArrayList<>();
        store.forEach(q.zone(), m -> {
            if (drawn(m, now)) all.add(m);
        });
        Map<String, Integer> degrees = store.degrees(all.stream().map(Memory::id).toList());
        all.sort(order(q.order(), degrees, now));
        List<Memory> kept = all.subList(0, Math.min(q.limit(), all.size()));
        return new GraphSlice(q.zone(), nodes(kept, degrees, now), edgesAmong(kept, q), all.size(), q.limit(),
                all.size() > kept.size());
    }

    /**
     * The memory and its direct neighbours (any zone an edge reaches), the most linked first when there
     * are more than {@code limit} (1..{@link #MAX_NEIGHBOURS}, null: all up to that).
     */
    public GraphSlice neighbours(String zone, String ref, Integer limit, java.util.Collection<EdgeType> edgeTypes) {
        GraphQuery q = new GraphQuery(zone, null, NodeOrder.DEGREE, edgeTypes == null ? null : Set.copyOf(edgeTypes));
        int max = GraphQuery.checkedLimit("limit", limit, MAX_NEIGHBOURS, MAX_NEIGHBOURS);
        Instant now = clock.instant();
        Memory center = require.apply(MemoryRules.reference("id", ref), q.zone());
        Set<String> ids = new LinkedHashSet<>();
        for (Edge e : store.edges(center.id())) {
            if (q.keeps(e.type())) ids.add(e.other(center.id()));
        }
        ids.remove(center.id());
        List<Memory> around = new ArrayList<>(store.getAll(List.copyOf(ids)).stream().filter(m -> drawn(m, now)).toList());
        Map<String, Integer> degrees = store.degrees(concat(center.id(), around));
        around.sort(order(NodeOrder.DEGREE, degrees, now));
        int total = around.size();
        List<Memory> kept = new ArrayList<>();
        kept.add(center);
        kept.addAll(around.subList(0, Math.min(max, total)));
        return new GraphSlice(q.zone(), nodes(kept, degrees, now), edgesAmong(kept, q), total + 1, max + 1, total > max);
    }

    /**
     * Recall for {@code query} in the zone (1..100 results, null: 20), split into direct matches and the
     * memories recall brought along through their links, each list best first.
     */
    public GraphSearch search(String zone, String query, Integer limit) {
        int max = GraphQuery.checkedLimit("limit", limit, 20, RecallQuery.MAX_LIMIT);
        RecallQuery q = RecallQuery.builder(query).zone(zone).limit(max).mode(RecallMode.RANKED).build();
        List<RecalledMemory> found = recall.apply(q).results();
        List<Memory> all = found.stream().map(RecalledMemory::memory).toList();
        Map<String, Integer> degrees = store.degrees(all.stream().map(Memory::id).toList());
        Instant now = clock.instant();
        List<Memory> matches = new ArrayList<>(), linked = new ArrayList<>();
        for (RecalledMemory r : found) (matched(r) ? matches : linked).add(r.memory());
        return new GraphSearch(nodes(matches, degrees, now), nodes(linked, degrees, now));
    }

    /** A recall result with a match of its own (the {@code match} signal), not only a link to one. */
    private static boolean matched(RecalledMemory r) {
        return r.contributions().stream().anyMatch(c -> c.name().equals("match") && c.value() > 0);
    }

    /** One memory as a node (for a detail panel's header). */
    public GraphNode node(String zone, String ref) {
        Memory m = require.apply(MemoryRules.reference("id", ref), MemoryRules.zone("zone", zone));
        return nodes(List.of(m), store.degrees(List.of(m.id())), clock.instant()).get(0);
    }

    /**
     * The shortest path from {@code from} to {@code to} over edges in either direction (breadth-first,
     * ties broken by id so the answer is stable), at most {@link #MAX_PATH_HOPS} hops.
     */
    public GraphPath path(String zone, String from, String to, java.util.Collection<EdgeType> edgeTypes) {
        GraphQuery q = new GraphQuery(zone, null, null, edgeTypes == null ? null : Set.copyOf(edgeTypes));
        Memory start = require.apply(MemoryRules.reference("from", from), q.zone());
        Memory end = require.apply(MemoryRules.reference("to", to), q.zone());
        if (start.id().equals(end.id())) {
            throw new InvalidArgumentException("to", "names the same memory as from ('" + start.key()
                    + "'); send two different memories");
        }
        Instant now = clock.instant();
        Map<String, Edge> reachedBy = new HashMap<>();
        reachedBy.put(start.id(), null);
        List<String> frontier = List.of(start.id());
        for (int hop = 0; hop < MAX_PATH_HOPS && !frontier.isEmpty() && !reachedBy.containsKey(end.id())
                && reachedBy.size() < MAX_VISITED; hop++) {
            List<String> next = new ArrayList<>();
            for (String id : frontier) {
                List<Edge> edges = new ArrayList<>(store.edges(id));
                edges.sort(Comparator.comparing((Edge e) -> e.other(id)).thenComparing(e -> e.type().ordinal()));
                for (Edge e : edges) {
                    String other = e.other(id);
                    if (!q.keeps(e.type()) || reachedBy.containsKey(other)) continue;
                    if (!other.equals(end.id()) && store.get(other).filter(m -> drawn(m, now)).isEmpty()) continue;
                    reachedBy.put(other, e);
                    next.add(other);
                }
            }
            frontier = next;
        }
        if (!reachedBy.containsKey(end.id())) return new GraphPath(List.of(), List.of());
        Deque<String> ids = new ArrayDeque<>();
        List<GraphLink> links = new ArrayList<>();
        for (String id = end.id(); id != null; ) {
            ids.addFirst(id);
            Edge e = reachedBy.get(id);
            if (e == null) break;
            links.add(0, link(e));
            id = e.other(id);
        }
        List<Memory> ms = store.getAll(List.copyOf(ids));
        Map<String, Memory> byId = new HashMap<>();
        ms.forEach(m -> byId.put(m.id(), m));
        List<Memory> ordered = ids.stream().map(byId::get).toList();
        return new GraphPath(nodes(ordered, store.degrees(List.copyOf(ids)), now), links);
    }

    private static boolean drawn(Memory m, Instant now) {
        return m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now);
    }

    private static Comparator<Memory> order(NodeOrder order, Map<String, Integer> degrees, Instant now) {
        Comparator<Memory> byDegree = Comparator.comparingInt((Memory m) -> degrees.getOrDefault(m.id(), 0)).reversed();
        Comparator<Memory> byRecency = Comparator.comparing(GraphView::lastTouch).reversed();
        Comparator<Memory> byImportance = Comparator.comparing(Memory::pinned).reversed()
                .thenComparing(Comparator.comparingInt((Memory m) -> m.importance() == null ? 2 : m.importance().rank()).reversed())
                .thenComparing(Comparator.comparingDouble(Memory::relevance).reversed());
        Comparator<Memory> first = switch (order) {
            case DEGREE -> byDegree.thenComparing(byImportance).thenComparing(byRecency);
            case IMPORTANCE -> byImportance.thenComparing(byDegree).thenComparing(byRecency);
            case RECENCY -> byRecency.thenComparing(byDegree);
        };
        return first.thenComparing(Memory::id);
    }

    private static Instant lastTouch(Memory m) {
        return m.lastAccessedAt() != null && m.lastAccessedAt().isAfter(m.updatedAt()) ? m.lastAccessedAt() : m.updatedAt();
    }

    /** Edges with both ends drawn, each once (read from its source), kept by type. */
    private List<GraphLink> edgesAmong(List<Memory> kept, GraphQuery q) {
        Set<String> ids = new LinkedHashSet<>();
        kept.forEach(m -> ids.add(m.id()));
        List<GraphLink> out = new ArrayList<>();
        for (String id : ids) {
            for (Edge e : store.edges(id)) {
                if (e.fromId().equals(id) && ids.contains(e.toId()) && q.keeps(e.type())) out.add(link(e));
            }
        }
        return out;
    }

    private static GraphLink link(Edge e) {
        return new GraphLink(e.fromId(), e.toId(), e.type(), e.label());
    }

    private static List<String> concat(String first, List<Memory> rest) {
        List<String> ids = new ArrayList<>(rest.size() + 1);
        ids.add(first);
        rest.forEach(m -> ids.add(m.id()));
        return ids;
    }

    private static List<GraphNode> nodes(List<Memory> ms, Map<String, Integer> degrees, Instant now) {
        Map<String, GraphNode> out = new LinkedHashMap<>();
        for (Memory m : ms) {
            Freshness f = Freshness.of(m, now);
            out.putIfAbsent(m.id(), new GraphNode(m.id(), m.key(), m.name(), m.type(), m.status(), m.importance(),
                    m.pinned(), degrees.getOrDefault(m.id(), 0), TierPolicy.tierOf(m, now), f.label(), f.value(),
                    m.tags(), m.updatedAt(), snippet(m.content())));
        }
        return List.copyOf(out.values());
    }

    private static String snippet(String content) {
        String flat = content.replaceAll("\\s+", " ").strip();
        return flat.length() <= SNIPPET_CHARS ? flat : flat.substring(0, SNIPPET_CHARS - 1) + "…";
    }
}
