package dev.engram.mcp.http;

import dev.engram.error.EngramUserException;
import java.time.Duration;
import java.util.Objects;

/**
 * The operational limits of the HTTP server: requests per second per caller (a token bucket refilled at
 * {@code ratePerSecond} holding at most {@code burst}; a rate of 0 turns the limit off), the largest request
 * body, and how long a stopping server waits for the requests in flight. The defaults are far above what one
 * agent sends (a busy agent makes a few calls a second) and low enough that one runaway client cannot take
 * the server from the others.
 */
public record ServerLimits(double ratePerSecond, int burst, int maxBodyBytes, Duration shutdownGrace) {
    public static final double DEFAULT_RATE = 50;
    public static final int DEFAULT_BURST = 100;
    /** A memory is at most 8,000 characters, so this leaves room for any batch. */
    public static final int DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(10);
    /** Below this a request of the protocol's own (initialize with client details) could not get through. */
    public static final int MIN_BODY_BYTES = 1024;
    public static final ServerLimits DEFAULT = new ServerLimits(DEFAULT_RATE, DEFAULT_BURST, DEFAULT_MAX_BODY_BYTES,
            DEFAULT_SHUTDOWN_GRACE);

    public ServerLimits {
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (!(ratePerSecond >= 0) || Double.isInfinite(ratePerSecond)) {
            throw new EngramUserException("the rate limit must be a number of requests per second >= 0 (0: no limit),"
                    + " got " + ratePerSecond);
        }
        if (ratePerSecond > 0 && burst < 1) {
            throw new EngramUserException("the rate limit's burst must be at least 1 request, got " + burst);
        }
        if (maxBodyBytes < MIN_BODY_BYTES) {
            throw new EngramUserException("the request size limit must be at least " + MIN_BODY_BYTES + " bytes, got " + maxBodyBytes);
        }
        if (shutdownGrace.isNegative()) {
            throw new EngramUserException("the shutdown grace period must not be negative, got " + shutdownGrace);
        }
    }

    public boolean rateLimited() {
        return ratePerSecond > 0;
    }

    public ServerLimits withRate(double rate, int newBurst) {
        return new ServerLimits(rate, newBurst, maxBodyBytes, shutdownGrace);
    }

    public ServerLimits withMaxBodyBytes(int bytes) {
        return new ServerLimits(ratePerSecond, burst, bytes, shutdownGrace);
    }

    public ServerLimits withShutdownGrace(Duration grace) {
        return new ServerLimits(ratePerSecond, burst, maxBodyBytes, grace);
    }
}
