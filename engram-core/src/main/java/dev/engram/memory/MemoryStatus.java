package dev.engram.memory;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/** Lifecycle state. Only {@code ACTIVE} memories are recalled by default. */
public enum MemoryStatus {
    DRAFT, ACTIVE, SUPERSEDED, ARCHIVED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MemoryStatus parse(String field, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not a status; send draft, active, superseded or archived");
        }
    }
}
