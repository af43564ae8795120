package dev.engram.engine;

import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.util.Optional;

/** Resolves what callers name a memory by: an id (any zone) or a key (within the zone), by {@link MemoryStore#resolve}. */
final class References {
    private References() {
    }

    static Optional<Memory> find(StoreTransaction tx, String ref, String zone) {
        return MemoryStore.resolve(ref, tx::get, key -> tx.getByKey(zone, key));
    }

    static Optional<Memory> find(MemoryStore store, String ref, String zone) {
        return store.find(zone, ref);
    }

    static Memory require(StoreTransaction tx, String ref, String zone) {
        return find(tx, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }

    static Memory require(MemoryStore store, String ref, String zone) {
        return find(store, ref, zone).orElseThrow(() -> NotFoundException.memory(ref, zone));
    }
}
