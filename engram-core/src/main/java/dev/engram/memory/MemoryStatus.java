package dev.engram.memory;

import java.util.Locale;

/** Lifecycle state. Only {@code ACTIVE} memories are recalled by default. */
public enum MemoryStatus {
    DRAFT, ACTIVE, SUPERSEDED, ARCHIVED;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MemoryStatus parse(String field, String value) {
        return MemoryRules.choice(field, value, MemoryStatus.class, MemoryStatus::wireName, "a status; send draft, active, superseded or archived");
    }
}
