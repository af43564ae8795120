package dev.engram.engine.graph;

import java.util.List;

/** What {@link EntityGraph#addObservations} added to one entity: only the texts it did not hold yet. */
public record Added(String entityName, List<String> added) {
    public Added {
        added = List.copyOf(added);
    }
}
