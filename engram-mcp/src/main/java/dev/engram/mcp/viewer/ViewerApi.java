package dev.engram.mcp.viewer;

import dev.engram.access.Access;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.engine.ExploreQuery;
import dev.engram.engine.ExploreResult;
import dev.engram.engine.view.GraphLink;
import dev.engram.engine.view.GraphNode;
import dev.engram.engine.view.GraphPath;
import dev.engram.engine.view.GraphQuery;
import dev.engram.engine.view.GraphSlice;
import dev.engram.engine.view.GraphView;
import dev.engram.engine.view.NodeOrder;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The viewer's JSON routes over {@link GraphView}: each takes the request's query parameters and returns
 * the answer as maps and lists for the JSON writer. No rule lives here: limits, order, path and search are
 * the engine's. Unknown parameters and bad values are refused with a message naming the parameter.
 */
public final class ViewerApi {
    /** The routes under {@code api/} and the parameters each reads. */
    static final Map<String, Set<String>> ROUTES = Map.of(
            "zones", Set.of(),
            "graph", Set.of("zone", "limit", "order", "types"),
            "neighbours", Set.of("zone", "id", "limit", "types"),
            "search", Set.of("zone", "q", "limit"),
            "memory", Set.of("zone", "id"),
            "path", Set.of("zone", "from", "to", "types"));

    private final Engine engine;
    private final String defaultZone;

    public ViewerApi(Engine engine, String defaultZone) {
        this.engine = engine;
        this.defaultZone = MemoryRules.zone("zone", defaultZone);
    }

    /**
     * Answers one route; throws {@link dev.engram.error.EngramUserException} for bad input (an unknown
     * route is a {@link dev.engram.error.NotFoundException}).
     */
    public Map<String, Object> answer(String route, Map<String, String> params) {
        Set<String> accepted = ROUTES.get(route);
        if (accepted == null) {
            throw new dev.engram.error.NotFoundException("no viewer route " + MemoryRules.shown(route) + "; the routes are "
                    + String.join(", ", new TreeSet<>(ROUTES.keySet())));
        }
        for (String name : params.keySet()) {
            if (!accepted.contains(name)) {
                throw new InvalidArgumentException(name, "is not a parameter of '" + route + "'; send "
                        + (accepted.isEmpty() ? "none" : String.join(", ", new TreeSet<>(accepted))));
            }
        }
        GraphView view = engine.graphView();
        String zone = params.containsKey("zone") ? params.get("zone") : opening(readableZones());
        return switch (route) {
            case "zones" -> zones();
            case "graph" -> slice(view.slice(new GraphQuery(zone, integer(params, "limit"), order(params), types(params))));
            case "neighbours" -> slice(view.neighbours(zone, required(params, "id"), integer(params, "limit"), types(params)));
            case "search" -> search(view.search(zone, required(params, "q"), integer(params, "limit")), required(params, "q"));
            case "memory" -> detail(zone, required(params, "id"));
            case "path" -> path(view.path(zone, required(params, "from"), required(params, "to"), types(params)));
            default -> throw new IllegalStateException(route);
        };
    }

    /** The first slice of the default zone, for a page that carries its data inside (ui://viewer). */
    public Map<String, Object> snapshot(Integer limit) {
        Map<String, Object> out = slice(engine.graphView().slice(new GraphQuery(defaultZone, limit, null, null)));
        out.put("snapshot", true);
        return out;
    }

    /**
     * The zones this caller may read: engine.zones() holds them, and the default zone joins them only when the caller
     * may read it too (a token learns no zone name it has no right on, not even the server's default).
     */
    private TreeSet<String> readableZones() {
        TreeSet<String> zones = new TreeSet<>(engine.zones());
        if (Access.local() || Access.current().can(Right.READ, defaultZone)) zones.add(defaultZone);
        return zones;
    }

    /** The zone a route works in when the request names none: the default zone if readable, else the first that is. */
    private String opening(TreeSet<String> readable) {
        if (readable.contains(defaultZone)) return defaultZone;
        if (readable.isEmpty()) throw new dev.engram.access.AccessDeniedException(Right.READ);
        return readable.first();
    }

    private Map<String, Object> zones() {
        Map<String, Object> out = new LinkedHashMap<>();
        TreeSet<String> zones = readableZones();
        out.put("zones", List.copyOf(zones));
        out.put("default", zones.isEmpty() ? null : opening(zones));
        out.put("edgeTypes", Arrays.stream(EdgeType.values()).map(EdgeType::wireName).toList());
        out.put("orders", Arrays.stream(NodeOrder.values()).map(NodeOrder::wireName).toList());
        out.put("defaultLimit", GraphQuery.DEFAULT_LIMIT);
        out.put("maxLimit", GraphQuery.MAX_LIMIT);
        return out;
    }

    private Map<String, Object> detail(String zone, String ref) {
        ExploreResult explored = engine.explore(new ExploreQuery(ref, zone, 1));
        Memory m = explored.center();
        Map<String, Object> out = new LinkedHashMap<>(node(engine.graphView().node(zone, m.id())));
        out.put("content", m.content());
        out.put("zone", m.zone());
        out.put("file", m.file());
        out.put("createdAt", String.valueOf(m.createdAt()));
        out.put("accessCount", m.accessCount());
        out.put("lastAccessedAt", m.lastAccessedAt() == null ? null : m.lastAccessedAt().toString());
        out.put("expiresAt", m.expiresAt() == null ? null : m.expiresAt().toString());
        out.put("versions", explored.versions().size());
        List<Map<String, Object>> links = new ArrayList<>();
        for (ExploreResult.Neighbour n : explored.neighbours()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("id", n.memory().id());
            l.put("key", n.memory().key());
            l.put("type", n.via().wireName());
            l.put("direction", n.outgoing() ? "out" : "in");
            links.add(l);
        }
        out.put("links", links);
        return out;
    }

    private static Map<String, Object> slice(GraphSlice s) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("zone", s.zone());
        out.put("nodes", s.nodes().stream().map(ViewerApi::node).toList());
        out.put("edges", s.edges().stream().map(ViewerApi::edge).toList());
        out.put("totalNodes", s.totalNodes());
        out.put("limit", s.limit());
        out.put("truncated", s.truncated());
        return out;
    }

    private static Map<String, Object> search(dev.engram.engine.view.GraphSearch s, String query) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("query", query);
        out.put("nodes", s.matches().stream().map(ViewerApi::node).toList());
        out.put("linked", s.linked().stream().map(ViewerApi::node).toList());
        return out;
    }

    private static Map<String, Object> path(GraphPath p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("found", p.found());
        out.put("hops", p.hops());
        out.put("nodes", p.nodes().stream().map(ViewerApi::node).toList());
        out.put("edges", p.edges().stream().map(ViewerApi::edge).toList());
        return out;
    }

    static Map<String, Object> node(GraphNode n) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", n.id());
        out.put("key", n.key());
        out.put("name", n.name());
        out.put("type", n.type().wireName());
        out.put("status", n.status().wireName());
        out.put("importance", n.importance() == null ? null : n.importance().wireName());
        out.put("pinned", n.pinned());
        out.put("degree", n.degree());
        out.put("tier", n.tier().wireName());
        out.put("freshness", n.freshness().name().toLowerCase(java.util.Locale.ROOT));
        out.put("freshnessValue", Double.isFinite(n.freshnessValue()) ? Math.round(n.freshnessValue() * 1000) / 1000.0 : null);
        out.put("tags", n.tags());
        out.put("updatedAt", n.updatedAt().toString());
        out.put("snippet", n.snippet());
        return out;
    }

    private static Map<String, Object> edge(GraphLink e) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", e.from());
        out.put("to", e.to());
        out.put("type", e.type().wireName());
        out.put("label", e.label());
        return out;
    }

    private static String required(Map<String, String> params, String name) {
        String v = params.get(name);
        if (v == null || v.isBlank()) throw new InvalidArgumentException(name, "is required");
        return v;
    }

    private static Integer integer(Map<String, String> params, String name) {
        String v = params.get(name);
        if (v == null || v.isBlank()) return null;
        String t = v.strip();
        if (!t.matches("[+-]?\\d+")) throw new InvalidArgumentException(name, "must be a whole number, got " + MemoryRules.shown(v));
        try {
            return Integer.valueOf(t);
        } catch (NumberFormatException e) {
            // a whole number past what any limit allows: the engine's range check names the range
            return t.startsWith("-") ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        }
    }

    private static NodeOrder order(Map<String, String> params) {
        String v = params.get("order");
        return v == null || v.isBlank() ? null : NodeOrder.parse("order", v);
    }

    private static Set<EdgeType> types(Map<String, String> params) {
        String v = params.get("types");
        if (v == null || v.isBlank()) return null;
        Set<EdgeType> out = new LinkedHashSet<>();
        for (String t : v.split(",")) {
            if (!t.isBlank()) out.add(EdgeType.parse("types", t.strip()));
        }
        return out;
    }
}
