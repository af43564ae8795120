package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rate limits shared by replicas through Redis, and what happens when Redis goes away and comes back. */
class SharedRateLimiterTest {
    /** One token per 100 s: within a test, a bucket only empties. */
    private static final double RATE = 0.01;
    private static final int BURST = 3;
    private PrivateRedis redis;
    private RedisLink link;

    @BeforeEach
    void start() throws Exception {
        assumeTrue(PrivateRedis.available(), "redis-server is not installed here");
        redis = PrivateRedis.start();
        link = RedisLink.connect(redis.url(), "engram-test:");
    }

    @AfterEach
    void stop() throws Exception {
        if (link != null) link.close();
        if (redis != null) redis.close();
    }

    private static RateLimiter local() {
        return new RateLimiter(RATE, BURST, System::nanoTime);
    }

    private static int granted(CallerLimiter a, CallerLimiter b, String caller, int requests) {
        int granted = 0;
        for (int i = 0; i < requests; i++) if ((i % 2 == 0 ? a : b).acquire(caller) == 0) granted++;
        return granted;
    }

    @Test
    void twoReplicasShareOneBucketPerCallerWhereAloneEachWouldGrantItsOwn() {
        SharedRateLimiter a = new SharedRateLimiter(link, RATE, BURST, local());
        SharedRateLimiter b = new SharedRateLimiter(link, RATE, BURST, local());
        assertEquals(BURST, granted(a, b, "principal alice", 10), "one burst for the whole cluster");
        assertEquals(java.util.List.of(true), link.call(r -> r.scriptExists(java.util.List.of(SharedRateLimiter.TAKE_SHA))).orElseThrow(),
                "the script is cached under the SHA the limiter sends, so later calls send 40 characters, not the script");
        assertEquals(BURST, granted(a, b, "principal bob", 10), "each caller has its own bucket");
        long wait = a.acquire("principal alice");
        assertTrue(wait > 90_000_000_000L && wait <= 100_000_000_000L, "the next token is about 100 s away: " + wait + " ns");
        assertEquals(2 * BURST, granted(local(), local(), "principal alice", 10), "without Redis each replica grants a burst");
    }

    @Test
    void whenRedisGoesAwayEachReplicaLimitsOnItsOwnAndTheSharedLimitReturnsWithIt() throws Exception {
        SharedRateLimiter a = new SharedRateLimiter(link, RATE, BURST, local());
        SharedRateLimiter b = new SharedRateLimiter(link, RATE, BURST, local());
        assertEquals(BURST, granted(a, b, "principal carol", 4));
        assertNull(link.probe());
        redis.kill();
        long t0 = System.nanoTime();
        assertEquals(2 * BURST, granted(a, b, "principal carol", 10), "no error: each replica's own bucket decides");
        assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "a Redis that is away does not stall requests");
        assertNotNull(link.problem());
        assertTrue(link.failures() >= 1);
        redis.resume(); // empty: a restarted Redis keeps nothing
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (link.probe() != null && System.nanoTime() < deadline) Thread.sleep(100);
        assertNull(link.probe(), "answering again after its restart");
        assertEquals(BURST, granted(a, b, "principal dave", 10), "shared again");
    }

    @Test
    void badRedisUrlsAreRefusedWithWhatToSend() {
        for (String bad : new String[] {"http://127.0.0.1:6379", "127.0.0.1:6379", "redis://", "redis://host/x", "redis://h o st"}) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(dev.engram.error.EngramUserException.class,
                    () -> RedisLink.parse(bad), bad);
            assertTrue(e.getMessage().contains("redis://"), e.getMessage());
        }
        assertEquals("redis://ops:***@cache.internal:6380/2",
                RedisLink.masked(RedisLink.parse("redis://ops:s3cret@cache.internal:6380/2")), "no password in logs");
    }
}
