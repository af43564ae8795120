package dev.engram.bench;

import dev.engram.memory.MemoryType;
import java.util.List;
import java.util.Objects;

/** One generated memory: what an agent would pass to {@code remember}. {@code file} may be null. */
record SyntheticMemory(String content, MemoryType type, List<String> tags, String zone, String file) {
    SyntheticMemory {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(type, "type");
        tags = List.copyOf(tags);
        Objects.requireNonNull(zone, "zone");
    }
}
