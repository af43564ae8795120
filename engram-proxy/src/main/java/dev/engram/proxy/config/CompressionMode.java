package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.Arrays;
import java.util.Locale;

/** The compression an upstream asks for; {@code AUTO} picks one per result from its shape and size. */
public enum CompressionMode {
    AUTO, NONE, TRUNCATE, SELECTIVE, PROGRESSIVE, HYBRID, SCHEMA_PRUNING, EXTRACT_FIELDS, SKELETON,
    /** A model's summary; only when a chat endpoint is configured, never chosen by AUTO. */
    LLM_SUMMARY;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static CompressionMode parse(String field, String value) {
        for (CompressionMode m : values()) {
            if (m.id().equalsIgnoreCase(value.strip())) return m;
        }
        throw new InvalidArgumentException(field, "must be one of " + Arrays.stream(values()).map(CompressionMode::id)
                .toList() + ", got '" + value + "'");
    }
}
