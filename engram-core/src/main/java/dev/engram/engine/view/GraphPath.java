package dev.engram.engine.view;

import java.util.List;

/** The shortest path between two memories (edges in either direction), ends included; empty when none was found. */
public record GraphPath(List<GraphNode> nodes, List<GraphLink> edges) {
    public GraphPath {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    public boolean found() {
        return !nodes.isEmpty();
    }

    public int hops() {
        return Math.max(0, nodes.size() - 1);
    }
}
