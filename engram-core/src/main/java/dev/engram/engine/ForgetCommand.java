package dev.engram.engine;

import dev.engram.memory.MemoryRules;

/** Archive, delete or restore the memory named by id or key. */
public record ForgetCommand(String ref, String zone, ForgetAction action) {
    public ForgetCommand {
        ref = MemoryRules.reference("key", ref);
        zone = MemoryRules.zone("zone", zone);
        action = action == null ? ForgetAction.SOFT : action;
    }
}
