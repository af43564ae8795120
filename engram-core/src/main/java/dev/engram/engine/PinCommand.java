package dev.engram.engine;

import dev.engram.memory.MemoryRules;

/** Pin with priority 1..5 (pinned memories lead every recall), or unpin with priority 0. */
public record PinCommand(String ref, String zone, int priority) {
    public PinCommand {
        ref = MemoryRules.reference("key", ref);
        zone = MemoryRules.zone("zone", zone);
        MemoryRules.importanceOrPriority("priority", priority, 0, 5);
    }
}
