package dev.engram.engine;

import dev.engram.memory.Memory;
import java.util.List;

/** The briefing's sections, already cut to the token budget; a memory appears in one section only. */
public record ContextResult(String zone, List<Memory> pinned, List<Memory> warnings, List<Memory> important,
                            List<Memory> recent, List<Memory> relevant, long totalActive, int tokens) {
    public ContextResult {
        pinned = List.copyOf(pinned);
        warnings = List.copyOf(warnings);
        important = List.copyOf(important);
        recent = List.copyOf(recent);
        relevant = List.copyOf(relevant);
    }
}
