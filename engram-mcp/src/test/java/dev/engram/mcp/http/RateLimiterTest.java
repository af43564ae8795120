package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Token buckets on a hand-moved clock: no sleeps. */
class RateLimiterTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final RateLimiter limiter = new RateLimiter(10, 3, now::get);

    @Test
    void aCallerGetsItsBurstThenWaitsForTheNextToken() {
        for (int i = 0; i < 3; i++) assertEquals(0, limiter.acquire("a"), "request " + i);
        long wait = limiter.acquire("a");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(100), wait, "10 per second: one token every 100 ms");
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(100));
        assertEquals(0, limiter.acquire("a"));
        assertTrue(limiter.acquire("a") > 0);
    }

    @Test
    void callersHaveTheirOwnBuckets() {
        for (int i = 0; i < 3; i++) limiter.acquire("a");
        assertTrue(limiter.acquire("a") > 0);
        assertEquals(0, limiter.acquire("b"));
    }

    @Test
    void anIdleCallerRefillsOnlyUpToTheBurst() {
        for (int i = 0; i < 3; i++) limiter.acquire("a");
        now.addAndGet(TimeUnit.SECONDS.toNanos(60));
        for (int i = 0; i < 3; i++) assertEquals(0, limiter.acquire("a"), "request " + i);
        assertTrue(limiter.acquire("a") > 0, "a minute idle buys the burst, not 600 requests");
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        assertEquals(1, RateLimiter.retryAfterSeconds(1));
        assertEquals(1, RateLimiter.retryAfterSeconds(TimeUnit.MILLISECONDS.toNanos(100)));
        assertEquals(1, RateLimiter.retryAfterSeconds(TimeUnit.SECONDS.toNanos(1)));
        assertEquals(2, RateLimiter.retryAfterSeconds(TimeUnit.SECONDS.toNanos(1) + 1));
    }

    @Test
    void idleCallersAreForgottenOnceManyAreTracked() {
        for (int i = 0; i <= RateLimiter.MAX_TRACKED; i++) limiter.acquire("caller " + i);
        now.addAndGet(TimeUnit.SECONDS.toNanos(1)); // every bucket refills to its burst
        limiter.acquire("one more");
        assertEquals(1, limiter.tracked(), "full buckets hold nothing worth keeping");
    }
}
