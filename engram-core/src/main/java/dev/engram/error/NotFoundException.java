package dev.engram.error;

import dev.engram.memory.MemoryRules;

/** A memory, zone or edge named by the caller does not exist. */
public final class NotFoundException extends EngramUserException {
    public NotFoundException(String message) {
        super(message);
    }

    public static NotFoundException memory(String idOrKey, String zone) {
        return new NotFoundException("no memory with id or key " + MemoryRules.shown(idOrKey) + " in zone " + MemoryRules.shown(zone)
                + "; call recall with mode 'index' to list keys and ids");
    }
}
