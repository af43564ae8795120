package dev.engram.memory;

import dev.engram.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Typed relation from one memory to another. */
public enum EdgeType {
    RELATED, CAUSED_BY, RESOLVED_BY, DEPENDS_ON, SUPERSEDES, CONTRADICTS, OBSERVATION_OF,
    IMPLEMENTS, BLOCKS, REFERENCES, APPLIES_TO, MENTIONS;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static EdgeType parse(String field, String value) {
        String v = value.trim().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return valueOf(v);
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not an edge type; send one of " + names());
        }
    }

    public static String names() {
        return Arrays.stream(values()).map(EdgeType::wireName).collect(Collectors.joining(", "));
    }
}
