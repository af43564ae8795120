package dev.engram.rank;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Memory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Spaced-repetition freshness, computed on read and never stored:
 * {@code 1 - daysSinceVerified / reviewIntervalDays}, where "verified" is the last verification, or
 * the creation time of a memory never verified. 1 is just verified, 0 is due, -1 one interval
 * overdue. The engine owns this rule; profiles only print the {@link Reading}.
 *
 * @param value             the freshness coefficient
 * @param label             its word ({@link FreshnessLabel#of})
 * @param needsReview       whether it is past due (value below 0)
 * @param daysSinceVerified whole days since the verification (or creation) it is counted from
 * @param nextReviewAt      when it falls due: verification + interval
 */
public record Freshness(double value, FreshnessLabel label, boolean needsReview, long daysSinceVerified,
                        Instant nextReviewAt) {
    /** The review interval a new memory gets (brain-tools' default). */
    public static final int DEFAULT_REVIEW_INTERVAL_DAYS = Memory.DEFAULT_REVIEW_INTERVAL_DAYS;
    /** Verification doubles the interval up to this: 7, 14, 28, 56, 112, 224, 365. */
    public static final int MAX_REVIEW_INTERVAL_DAYS = 365;
    /**
     * The passes of a progressive search: keep hits at or above the first threshold; only when none
     * is left, widen to the next. The last pass keeps everything, so a search that matched anything
     * returns something.
     */
    public static final List<Double> PROGRESSIVE_THRESHOLDS = List.of(0.0, -2.0, Double.NEGATIVE_INFINITY);

    private static final double MILLIS_PER_DAY = 86_400_000d;

    public Freshness {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(nextReviewAt, "nextReviewAt");
    }

    /** Freshness of a memory at {@code now}. */
    public static Freshness of(Memory m, Instant now) {
        return of(verifiedAt(m), m.reviewIntervalDays(), now);
    }

    /** Freshness of something verified at {@code verifiedAt} with this interval, at {@code now}. */
    public static Freshness of(Instant verifiedAt, int reviewIntervalDays, Instant now) {
        double value = coefficient(verifiedAt, reviewIntervalDays, now);
        Duration since = Duration.between(verifiedAt, now);
        return new Freshness(value, FreshnessLabel.of(value), value < 0,
                since.isNegative() ? 0 : since.toDays(), verifiedAt.plus(Duration.ofDays(reviewIntervalDays)));
    }

    /** The bare coefficient; fractional days count, so a memory ages smoothly within a day. */
    public static double coefficient(Instant verifiedAt, int reviewIntervalDays, Instant now) {
        Objects.requireNonNull(verifiedAt, "verifiedAt");
        Objects.requireNonNull(now, "now");
        if (reviewIntervalDays < 1) throw new IllegalArgumentException("reviewIntervalDays must be >= 1, got " + reviewIntervalDays);
        double days = (now.toEpochMilli() - verifiedAt.toEpochMilli()) / MILLIS_PER_DAY;
        return 1 - days / reviewIntervalDays;
    }

    /** What freshness counts from: the last verification, else the creation. */
    public static Instant verifiedAt(Memory m) {
        return m.lastVerifiedAt() != null ? m.lastVerifiedAt() : m.createdAt();
    }

    /** The interval after one more verification: double, at most {@link #MAX_REVIEW_INTERVAL_DAYS}. */
    public static int nextInterval(int currentDays) {
        if (currentDays < 1) return DEFAULT_REVIEW_INTERVAL_DAYS;
        return (int) Math.min(2L * currentDays, MAX_REVIEW_INTERVAL_DAYS);
    }

    /** An interval a caller asked for, checked: 1..365 days. */
    public static int checkedInterval(String field, int days) {
        if (days < 1 || days > MAX_REVIEW_INTERVAL_DAYS) {
            throw new InvalidArgumentException(field,
                    "must be 1.." + MAX_REVIEW_INTERVAL_DAYS + " days, got " + days);
        }
        return days;
    }

    /**
     * Progressive freshness widening over a ranked list: the hits at or above the first threshold of
     * {@link #PROGRESSIVE_THRESHOLDS}, in the given order; when that leaves none, the next threshold;
     * the last keeps every hit. An empty list stays empty.
     */
    public static <T> List<T> widen(List<T> ranked, ToDoubleFunction<T> freshness) {
        for (double threshold : PROGRESSIVE_THRESHOLDS) {
            List<T> kept = ranked.stream().filter(t -> freshness.applyAsDouble(t) >= threshold).toList();
            if (!kept.isEmpty()) return kept;
        }
        return List.of();
    }
}
