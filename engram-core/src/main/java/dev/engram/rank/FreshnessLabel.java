package dev.engram.rank;

import java.util.Locale;

/**
 * How far a memory is into its review interval, in words an agent can act on (brain-tools'
 * confidence labels): fresh means trust it, normal means fine, aging means verify before acting,
 * stale means treat it as a lead rather than a fact, archival means history only.
 */
public enum FreshnessLabel {
    FRESH(0.5), NORMAL(0), AGING(-1), STALE(-2), ARCHIVAL(Double.NEGATIVE_INFINITY);

    private final double floor;

    FreshnessLabel(double floor) {
        this.floor = floor;
    }

    /** The lowest freshness that still earns this label. */
    public double floor() {
        return floor;
    }

    /** The label of a freshness value; a NaN (no usable interval) reads as archival. */
    public static FreshnessLabel of(double freshness) {
        for (FreshnessLabel l : values()) {
            if (freshness >= l.floor) return l;
        }
        return ARCHIVAL;
    }

    /** The lower-case word profiles print ("fresh", "aging"...). */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
