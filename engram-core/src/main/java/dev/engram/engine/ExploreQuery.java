package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;

/** The graph neighbourhood of one memory, {@code hops} 1 or 2 deep. */
public record ExploreQuery(String ref, String zone, int hops) {
    public ExploreQuery {
        ref = MemoryRules.reference("key", ref);
        zone = MemoryRules.zone("zone", zone);
        if (hops < 1 || hops > 2) {
            throw new InvalidArgumentException("hops", "must be 1 or 2, got " + hops);
        }
    }
}
