package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.util.List;

/** The amended memory and every recorded earlier version, oldest first. */
public record AmendResult(Memory memory, List<MemoryVersion> history) {
    public AmendResult {
        history = List.copyOf(history);
    }
}
