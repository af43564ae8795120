package dev.engram.memory;

import java.time.Instant;
import java.util.List;

/** A past state of a memory, kept when it is amended or its content replaced. */
public record MemoryVersion(String memoryId, int version, String content, List<String> tags,
                            Importance importance, Instant replacedAt) {
    public MemoryVersion {
        tags = List.copyOf(tags);
    }
}
