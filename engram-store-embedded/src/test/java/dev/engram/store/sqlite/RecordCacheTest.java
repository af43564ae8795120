package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.MutableClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** When cached rows may be served, and what this process's own access flush does to them. */
class RecordCacheTest {
    private final MutableClock clock = MutableClock.at("2026-11-30T10:00:00Z");
    private final RecordCache cache = new RecordCache();
    private final Memory a = MemoryFixtures.minimal(clock, 1, "work", "a").build();
    private final Instant later = clock.instant().plusSeconds(60);
    private final Map<String, PendingAccess.Bump> bumps = Map.of(a.id(), new PendingAccess.Bump(2, later));

    @Test
    void rowsAreServedOnlyAtTheVersionTheyWereReadUnder() {
        assertFalse(cache.validAt(0), "a new cache holds nothing valid");
        cache.reset(5);
        cache.putMemory(cache.stamp(), a);
        assertTrue(cache.validAt(5));
        assertFalse(cache.validAt(6), "anyone's commit moves the version");
        cache.reset(6);
        assertNull(cache.memory(a.id()), "a reset drops every row");
    }

    @Test
    void ownAccessFlushIsAppliedToCachedRows() {
        cache.reset(5);
        cache.putMemory(cache.stamp(), a);
        cache.putPinned(cache.stamp(), "work", List.of(a));
        cache.accessWritten(bumps);
        assertTrue(cache.validAt(5), "the reader's own commit leaves its version where it was");
        assertEquals(2, cache.memory(a.id()).accessCount());
        assertEquals(later, cache.memory(a.id()).lastAccessedAt());
        assertNull(cache.pinned("work"), "pinned rows are reloaded rather than patched");
    }

    @Test
    void contentBeyondTheBoundEvictsTheLeastRecentlyUsed() {
        cache.reset(1);
        String big = "x".repeat(8_000);
        int n = (int) (RecordCache.MAX_CONTENT_CHARS / big.length()) + 10;
        for (int i = 0; i < n; i++) {
            cache.putMemory(cache.stamp(), MemoryFixtures.minimal(clock, i, "work", big).build());
            if (i > 0) cache.memory(MemoryFixtures.id(0)); // keep the first one in use
        }
        assertTrue(cache.memory(MemoryFixtures.id(0)) != null, "recently used stays");
        assertNull(cache.memory(MemoryFixtures.id(1)), "least recently used went first");
        assertTrue(cache.memory(MemoryFixtures.id(n - 1)) != null);
    }

    @Test
    void aRowReadBeforeAResetOrAnAccessPatchIsNotFiled() {
        long beforeReset = cache.validate(5);
        cache.validate(6); // another reader saw a commit meanwhile
        cache.putMemory(beforeReset, a);
        assertNull(cache.memory(a.id()), "a row from the older snapshot must not outlive the reset");

        long beforeFlush = cache.stamp();
        cache.accessWritten(bumps); // the flush patched the cache while the row was being read
        cache.putMemory(beforeFlush, a);
        assertNull(cache.memory(a.id()), "a row read before the flush would lack its bump");

        cache.putMemory(cache.stamp(), a);
        assertEquals(a, cache.memory(a.id()));
        assertEquals(cache.stamp(), cache.validate(6), "validating at the same version keeps the rows and the stamp");
    }
}
