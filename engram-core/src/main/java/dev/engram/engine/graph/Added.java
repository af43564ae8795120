package dev.engram.engine.graph;

import java.util.List;

/**
 * What {@link EntityGraph#addObservations} did to one entity: {@code added} the texts it did not hold yet;
 * {@code rewritten} the texts it held that were sent again and saved again (only where the call rewrites them).
 */
public record Added(String entityName, List<String> added, List<String> rewritten) {
    public Added {
        added = List.copyOf(added);
        rewritten = List.copyOf(rewritten);
    }

    public Added(String entityName, List<String> added) {
        this(entityName, added, List.of());
    }
}
