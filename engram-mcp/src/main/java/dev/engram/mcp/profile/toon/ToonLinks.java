package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The links of the memories one recall prints, as toon-memory shows them: the deep layout's {@code links:} line
 * (a memory's own links, as data.toon's links field holds them) and the normal layout's {@code · edges: ->2}
 * (which of the printed entries toon's graph joins to this one). Each memory's edges are read once, on first
 * use, with a point lookup; one instance serves one call.
 *
 * <p>toon's graph joins two entries that link to each other (either way, typed or not, a {@code [[key]]}
 * reference included) or that share two tags or more. It also attaches every entry left without an edge to the
 * most similar entry of the whole file, and bridges what stays apart into the largest component: edges nobody
 * stated, found by comparing every entry with every other on each recall. Those are not printed here.
 */
final class ToonLinks {
    /** toon joins two entries sharing at least this many tags. */
    static final int SHARED_TAGS = 2;

    private final Engine engine;
    private final String zone;
    private final boolean edges;
    private final Map<String, List<Edge>> outgoing = new HashMap<>();
    private final Map<String, Optional<String>> keys = new HashMap<>();

    /**
     * @param edges whether the normal layout prints edges: toon's ranked recall does, its fetch by {@code ids}
     *              and its smart recall do not
     */
    ToonLinks(Engine engine, String zone, boolean edges) {
        this.engine = engine;
        this.zone = zone;
        this.edges = edges;
    }

    /** The link word data.toon's links field holds for {@code e}: the target's key, or {@code type:key}. */
    static String word(Edge e, String targetKey) {
        String type = e.label() != null && e.type() == EdgeType.RELATED ? e.label() : e.type().wireName();
        return type.equals("related") ? targetKey : type + ":" + targetKey;
    }

    /** Whether {@code e} is one of toon's links: every edge but the sessions' episodes Engram infers. */
    static boolean toons(Edge e) {
        return e.type() != EdgeType.FOLLOWS;
    }

    /** {@code m}'s own links as toon's deep layout prints them ({@code links: a, depends_on:b}), in the order stored. */
    List<String> words(Memory m) {
        Set<String> out = new LinkedHashSet<>();
        for (Edge e : outgoing(m.id())) {
            if (toons(e)) key(e.toId()).ifPresent(k -> out.add(word(e, k)));
        }
        if (m.supersededBy() != null) key(m.supersededBy()).ifPresent(k -> out.add("superseded_by:" + k));
        return new ArrayList<>(out);
    }

    /** Whether the normal layout prints an edge between {@code a} and {@code b}. */
    boolean joined(Memory a, Memory b) {
        if (!edges || a.id().equals(b.id())) return false;
        if (sharedTags(a, b) >= SHARED_TAGS) return true;
        return links(a, b) || links(b, a);
    }

    /** The 1-based ranks, ascending, of the entries of {@code shown} the normal layout joins to {@code m}. */
    List<Integer> ranks(Memory m, List<Memory> shown) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < shown.size(); i++) {
            if (joined(m, shown.get(i))) out.add(i + 1);
        }
        return out;
    }

    private boolean links(Memory from, Memory to) {
        for (Edge e : outgoing(from.id())) {
            if (toons(e) && e.toId().equals(to.id())) return true;
        }
        return to.id().equals(from.supersededBy());
    }

    private static int sharedTags(Memory a, Memory b) {
        Set<String> mine = new HashSet<>(a.tags());
        int n = 0;
        for (String t : new LinkedHashSet<>(b.tags())) if (mine.contains(t)) n++;
        return n;
    }

    private List<Edge> outgoing(String id) {
        return outgoing.computeIfAbsent(id, k -> engine.record(zone, k).map(ExportRecord::edges).orElse(List.of()));
    }

    private Optional<String> key(String id) {
        return keys.computeIfAbsent(id, k -> engine.record(zone, k).map(r -> r.memory().key()));
    }
}
