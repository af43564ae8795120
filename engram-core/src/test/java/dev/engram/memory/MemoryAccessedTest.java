package dev.engram.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.MutableClock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link Memory#accessed}: the access counters move and nothing else does. */
class MemoryAccessedTest {
    private final MutableClock clock = MutableClock.at("2026-12-06T01:00:00Z");

    @Test
    void onlyTheCountAndTheLastAccessChange() {
        Memory full = MemoryFixtures.full(clock, 7, "work").toBuilder().accessCount(4).build();
        Instant last = clock.instant().plusSeconds(90);
        Memory bumped = full.accessed(3, last);
        assertEquals(full.toBuilder().accessCount(7).lastAccessedAt(last).build(), bumped,
                "the same memory as the builder would make: every other field kept");
        assertEquals(full.lastDecayAt(), bumped.lastDecayAt(), "decay is not an access");
    }
}
