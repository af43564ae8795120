package dev.engram.memory;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Typed relation from one memory to another. {@code FOLLOWS} is written by the engine: a memory
 * follows the one its client session wrote just before it (an inferred episode).
 */
public enum EdgeType {
    RELATED, CAUSED_BY, RESOLVED_BY, DEPENDS_ON, SUPERSEDES, CONTRADICTS, OBSERVATION_OF,
    IMPLEMENTS, BLOCKS, REFERENCES, APPLIES_TO, MENTIONS, FOLLOWS;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EdgeType parse(String field, String value) {
        return MemoryRules.choice(field, value, EdgeType.class, EdgeType::wireName, "an edge type; send one of " + names());
    }

    public static String names() {
        return Arrays.stream(values()).map(EdgeType::wireName).collect(Collectors.joining(", "));
    }
}
