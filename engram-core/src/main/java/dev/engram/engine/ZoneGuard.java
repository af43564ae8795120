package dev.engram.engine;

import dev.engram.error.NotFoundException;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.MemoryStore;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Rejects reads of zones that were never written: a typo in a zone name should fail loudly, not
 * return an empty, plausible-looking answer. A zone exists once a memory has been remembered in it.
 */
final class ZoneGuard {
    private final MemoryStore store;
    /** Zones seen so far; a miss re-reads the store, so zones created by other processes are found. */
    private final Set<String> known = ConcurrentHashMap.newKeySet();

    /** Null for an unguarded engine; else the caller's rights, checked before existence. */
    private final java.util.function.Supplier<dev.engram.access.Grants> grants;

    ZoneGuard(MemoryStore store, java.util.function.Supplier<dev.engram.access.Grants> grants) {
        this.store = store;
        this.grants = grants;
    }

    void requireKnown(String zone) {
        // rights first: a zone the caller may not read gets the same refusal whether it exists or not
        if (grants != null) grants.get().require(dev.engram.access.Right.READ, zone);
        if (zone.equals(MemoryRules.DEFAULT_ZONE) || known.contains(zone)) {
            return;
        }
        Set<String> zones = store.zones();
        known.addAll(zones);
        // a zone created on purpose (create_zone, a toon project's own zone) is known before its first memory
        if (!zones.contains(zone) && store.zoneInfo(zone).isPresent()) {
            known.add(zone);
            return;
        }
        if (!zones.contains(zone)) {
            throw new NotFoundException("zone '" + zone + "' is unknown; known zones: "
                    + (zones.isEmpty() ? "(none yet)" : String.join(", ", zones))
                    + ". A zone comes into being with the first remember into it.");
        }
    }
}
