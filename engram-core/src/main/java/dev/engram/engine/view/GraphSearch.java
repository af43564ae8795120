package dev.engram.engine.view;

import java.util.List;

/**
 * What a viewer search found, best first: {@code matches} are the memories recall matched on their own
 * text, key or id; {@code linked} are the ones recall added only for their links to a match (or a pin).
 */
public record GraphSearch(List<GraphNode> matches, List<GraphNode> linked) {
    public GraphSearch {
        matches = List.copyOf(matches);
        linked = List.copyOf(linked);
    }
}
