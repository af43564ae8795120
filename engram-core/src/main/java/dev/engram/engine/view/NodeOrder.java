package dev.engram.engine.view;

import dev.engram.memory.MemoryRules;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Which memories a graph slice keeps when a zone has more than its limit. */
public enum NodeOrder {
    /** Most linked first: the hubs that hold the graph together. */
    DEGREE,
    /** Pinned, then explicit importance (critical first), then relevance weight. */
    IMPORTANCE,
    /** Most recently changed or read first. */
    RECENCY;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static NodeOrder parse(String field, String value) {
        return MemoryRules.choice(field, value, NodeOrder.class, NodeOrder::wireName,
                "an order; send one of " + Arrays.stream(values()).map(NodeOrder::wireName).collect(Collectors.joining(", ")));
    }
}
