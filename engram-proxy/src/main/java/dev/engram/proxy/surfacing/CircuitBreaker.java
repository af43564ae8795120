package dev.engram.proxy.surfacing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Closed → open after {@code maxFailures} consecutive failures → half-open after {@code reset}
 * (one probe) → a success closes it, a failure opens it again. Keeps a broken memory search from
 * adding its timeout to every proxied call. Thread-safe.
 */
public final class CircuitBreaker {
    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final Clock clock;
    private final int maxFailures;
    private final Duration reset;
    // guarded by this
    private int failures;
    private Instant openedAt;
    private boolean probing;

    public CircuitBreaker(Clock clock, int maxFailures, Duration reset) {
        this.clock = clock;
        this.maxFailures = maxFailures;
        this.reset = reset;
    }

    /** Whether a call may go ahead now (in half-open state, only one probe at a time). */
    public synchronized boolean allow() {
        State s = state();
        if (s == State.CLOSED) return true;
        if (s == State.HALF_OPEN && !probing) {
            probing = true;
            return true;
        }
        return false;
    }

    public synchronized void success() {
        failures = 0;
        openedAt = null;
        probing = false;
    }

    public synchronized void failure() {
        probing = false;
        failures++;
        if (failures >= maxFailures || openedAt != null) openedAt = clock.instant();
    }

    /** What a breaker knows, for a process that lives one call (a hook) to hand to the next. */
    public record Snapshot(int failures, Long openedAtMillis) {
    }

    public synchronized Snapshot snapshot() {
        return new Snapshot(failures, openedAt == null ? null : openedAt.toEpochMilli());
    }

    /** Takes over a saved state; a probe in flight when it was saved is not (that process is gone). */
    public synchronized void restore(Snapshot s) {
        failures = Math.max(0, s.failures());
        openedAt = s.openedAtMillis() == null ? null : Instant.ofEpochMilli(s.openedAtMillis());
        probing = false;
    }

    public synchronized State state() {
        if (openedAt == null) return State.CLOSED;
        return clock.instant().isBefore(openedAt.plus(reset)) ? State.OPEN : State.HALF_OPEN;
    }
}
