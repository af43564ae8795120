package dev.engram.mcp.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Token buckets, one per caller: each holds at most {@code burst} requests and refills at {@code ratePerSecond};
 * a request takes one or is refused with the time until the next one is there. In memory, per process: with
 * several replicas behind a balancer each replica limits on its own (a caller gets at most replicas × the rate),
 * unless they share Redis ({@link SharedRateLimiter}, which falls back to this one while Redis is away). The clock
 * is injectable so tests need no sleeps.
 */
final class RateLimiter implements CallerLimiter {
    /** Above this many callers, buckets that have refilled (idle callers) are dropped: no-auth mode keys by address. */
    static final int MAX_TRACKED = 10_000;

    private final double perNano;
    private final double burst;
    private final LongSupplier nanoTime;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    RateLimiter(double ratePerSecond, int burst, LongSupplier nanoTime) {
        if (!(ratePerSecond > 0) || burst < 1) throw new IllegalArgumentException("rate > 0 and burst >= 1");
        this.perNano = ratePerSecond / TimeUnit.SECONDS.toNanos(1);
        this.burst = burst;
        this.nanoTime = nanoTime;
    }

    /** 0 when {@code caller} may send this request now, else how many nanoseconds until it may. */
    @Override
    public long acquire(String caller) {
        long now = nanoTime.getAsLong();
        if (buckets.size() > MAX_TRACKED) evictIdle(now);
        return buckets.computeIfAbsent(caller, k -> new Bucket(burst, now)).take(now, perNano, burst);
    }

    /** Whole seconds a refused caller should wait: rounded up, at least 1, as Retry-After wants. */
    static long retryAfterSeconds(long waitNanos) {
        return Math.max(1, (waitNanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1));
    }

    int tracked() {
        return buckets.size();
    }

    private void evictIdle(long now) {
        buckets.entrySet().removeIf(e -> e.getValue().fullAt(now, perNano, burst));
    }

    private static final class Bucket {
        private double tokens;
        private long updated;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.updated = now;
        }

        synchronized long take(long now, double perNano, double burst) {
            refill(now, perNano, burst);
            if (tokens >= 1) {
                tokens -= 1;
                return 0;
            }
            return Math.max(1, (long) Math.ceil((1 - tokens) / perNano));
        }

        synchronized boolean fullAt(long now, double perNano, double burst) {
            refill(now, perNano, burst);
            return tokens >= burst;
        }

        private void refill(long now, double perNano, double burst) {
            long elapsed = Math.max(0, now - updated);
            tokens = Math.min(burst, tokens + elapsed * perNano);
            updated = Math.max(updated, now);
        }
    }
}
