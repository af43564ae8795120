package dev.engram.engine.view;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryRules;
import java.util.Set;

/**
 * What part of a zone's graph to draw. {@code limit} is 1..{@link #MAX_LIMIT} (null: {@link #DEFAULT_LIMIT}),
 * {@code order} picks which memories survive the limit (null: degree), {@code edgeTypes} keeps only those
 * edges (empty: all).
 */
public record GraphQuery(String zone, Integer limit, NodeOrder order, Set<EdgeType> edgeTypes) {
    /**
     * A browser lays out a few hundred nodes at once fluidly; force layouts grow about n² per tick
     * without a spatial index, and loading a whole large graph at once is how graph viewers freeze.
     */
    public static final int DEFAULT_LIMIT = 300;
    /** The most one answer carries, whatever is asked: a 10,000-memory zone is never sent whole. */
    public static final int MAX_LIMIT = 2000;

    public GraphQuery {
        zone = MemoryRules.zone("zone", zone);
        limit = checkedLimit("limit", limit, DEFAULT_LIMIT, MAX_LIMIT);
        order = order == null ? NodeOrder.DEGREE : order;
        edgeTypes = edgeTypes == null ? Set.of() : Set.copyOf(edgeTypes);
    }

    public static GraphQuery of(String zone) {
        return new GraphQuery(zone, null, null, null);
    }

    static int checkedLimit(String field, Integer limit, int fallback, int max) {
        if (limit == null) return fallback;
        if (limit < 1 || limit > max) {
            throw new InvalidArgumentException(field, "must be 1.." + max + ", got " + limit
                    + "; the viewer draws a bounded part of a zone and expands it on click");
        }
        return limit;
    }

    boolean keeps(EdgeType type) {
        return edgeTypes.isEmpty() || edgeTypes.contains(type);
    }
}
