package dev.engram.engine.view;

import java.util.List;

/**
 * A bounded part of a zone's graph: at most {@code limit} nodes and the edges among them.
 * {@code totalNodes} is how many memories the zone would offer; {@code truncated} says the limit cut it.
 */
public record GraphSlice(String zone, List<GraphNode> nodes, List<GraphLink> edges, int totalNodes, int limit,
                         boolean truncated) {
    public GraphSlice {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }
}
