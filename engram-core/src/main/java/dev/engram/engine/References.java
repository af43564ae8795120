package dev.engram.engine;

import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.util.Optional;
import java.util.function.Function;

/** Resolves what callers name a memory by: an id (any zone) or a key (within the zone). */
final class References {
    private References() {
    }

    /**
     * The one rule, for memories and tombstones alike: an id-shaped reference is tried as an id first.
     * Any other reference is a key, and failing that the id a memory kept from an import (toon-memory's
     * 8-hex ids stay the memories' ids, so an agent's old notes still name them).
     */
    static <T> Optional<T> resolve(String ref, Function<String, Optional<T>> byId, Function<String, Optional<T>> byKey) {
        if (MemoryRules.isId(ref)) {
            Optional<T> found = byId.apply(ref);
            if (found.isPresent()) return found;
            return byKey.apply(ref);
        }
        Optional<T> byName = byKey.apply(ref);
        return byName.isPresent() ? byName : byId.apply(ref);
    }

    static Optional<Memory> find(StoreTransaction tx, String ref, String zone) {
        return resolve(ref, tx::get, key -> tx.getByKey(zone, key));
    }

    static Optional<Memory> find(MemoryStore store, String ref, String zone) {
        return resolve(ref, store::get, key -> store.getByKey(zone, key));
    }

    static Memory require(StoreTransaction tx, String ref, String zone) {
        return find(tx, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }

    static Memory require(MemoryStore store, String ref, String zone) {
        return find(store, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }
}
