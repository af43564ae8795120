package dev.engram.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrincipalsTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Principals principals = new Principals(store, clock, Duration.ofSeconds(2));
    private final Grants writer = new Grants(Map.of("team", Right.WRITE), null);

    @Test
    void aTokenIsShownOnceAndOnlyItsDigestIsStored() {
        Principals.Issued issued = principals.add("ci-bot", writer);
        assertTrue(issued.token().startsWith("engram_") && issued.token().length() > 40, issued.token());
        String mark = store.mark(Principals.MARK).orElseThrow();
        assertFalse(mark.contains(issued.token()), "the mark must not hold the token");
        assertTrue(mark.contains(Principals.sha256Hex(issued.token())));
        assertEquals(writer, principals.authenticate(issued.token()).orElseThrow().grants());
        assertTrue(principals.authenticate(issued.token() + "x").isEmpty());
        assertTrue(principals.authenticate(null).isEmpty());
        assertFalse(issued.principal().toString().contains(issued.principal().tokenSha256()));
    }

    @Test
    void listShowsNamesRightsAndTimesAndSurvivesARoundTrip() {
        principals.add("b-reader", new Grants(Map.of("docs", Right.READ), null));
        principals.add("a-ops", new Grants(Map.of("ops", Right.ADMIN), Right.READ));
        var all = new Principals(store).list();
        assertEquals(2, all.size());
        assertEquals("a-ops", all.get(0).name());
        assertEquals(Right.READ, all.get(0).grants().allZones());
        assertEquals(Right.ADMIN, all.get(0).grants().rightOn("ops"));
        assertEquals(clock.instant(), all.get(1).created());
    }

    @Test
    void namesAreUniqueAndCheckedAndAPrincipalNeedsARight() {
        principals.add("ci-bot", writer);
        assertTrue(assertThrows(InvalidArgumentException.class, () -> principals.add("ci-bot", writer))
                .getMessage().contains("exists already"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> principals.add("CI Bot", writer))
                .getMessage().contains("not a principal name"));
        assertTrue(assertThrows(InvalidArgumentException.class, () -> principals.add("empty", Grants.NONE))
                .getMessage().contains("at least one right"));
        assertThrows(InvalidArgumentException.class, () -> principals.add("bad-zone", new Grants(Map.of("No Zone", Right.READ), null)));
        assertEquals(1, principals.list().size());
    }

    @Test
    void revocationReachesAnotherServerWithinTheCacheTime() {
        Principals.Issued issued = principals.add("ci-bot", writer);
        Principals otherServer = new Principals(store, clock, Duration.ofSeconds(2));
        assertTrue(otherServer.authenticate(issued.token()).isPresent());
        principals.revoke("ci-bot");
        assertTrue(principals.authenticate(issued.token()).isEmpty(), "the revoking process forgets at once");
        clock.advance(Duration.ofSeconds(2));
        assertTrue(otherServer.authenticate(issued.token()).isEmpty(), "another process within the cache time");
        assertThrows(NotFoundException.class, () -> principals.revoke("ci-bot"));
    }

    /** The store going away must not lock out every caller: the principals read last still stand until it is back. */
    @Test
    void whileTheStoreIsUnreachableThePrincipalsReadLastStillStand() {
        Principals.Issued issued = principals.add("ci-bot", writer);
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        dev.engram.spi.MemoryStore flaky = (dev.engram.spi.MemoryStore) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {dev.engram.spi.MemoryStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("mark")) {
                        reads.incrementAndGet();
                        if (down.get()) throw new dev.engram.error.StoreUnavailableException("mark", "connection refused", null);
                    }
                    try {
                        return method.invoke(store, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        Principals server = new Principals(flaky, clock, Duration.ofSeconds(2));
        assertTrue(server.authenticate(issued.token()).isPresent());
        down.set(true);
        clock.advance(Duration.ofSeconds(3));
        assertTrue(server.authenticate(issued.token()).isPresent(), "the last read stands");
        int before = reads.get();
        assertTrue(server.authenticate(issued.token()).isPresent());
        assertEquals(before, reads.get(), "and the store is not asked again before the cache time has passed");
        assertTrue(server.authenticate("engram_unknown").isEmpty());
        // a server that never read them has nothing to stand on: the caller learns the store is away
        Principals fresh = new Principals(flaky, clock, Duration.ofSeconds(2));
        assertThrows(dev.engram.error.StoreUnavailableException.class, () -> fresh.authenticate(issued.token()));
    }

    @Test
    void twoTokensDiffer() {
        assertNotEquals(principals.add("one", writer).token(), principals.add("two", writer).token());
    }
}
