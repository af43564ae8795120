package dev.engram.engine;

import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.util.Optional;

/** Resolves what callers name a memory by: an id (any zone) or a key (within the zone). */
final class References {
    private References() {
    }

    static Optional<Memory> find(StoreTransaction tx, String ref, String zone) {
        if (MemoryRules.isId(ref)) {
            Optional<Memory> byId = tx.get(ref);
            if (byId.isPresent()) return byId;
        }
        return tx.getByKey(zone, ref);
    }

    static Optional<Memory> find(MemoryStore store, String ref, String zone) {
        if (MemoryRules.isId(ref)) {
            Optional<Memory> byId = store.get(ref);
            if (byId.isPresent()) return byId;
        }
        return store.getByKey(zone, ref);
    }

    static Memory require(StoreTransaction tx, String ref, String zone) {
        return find(tx, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }

    static Memory require(MemoryStore store, String ref, String zone) {
        return find(store, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }
}
