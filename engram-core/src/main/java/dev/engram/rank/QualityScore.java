package dev.engram.rank;

/**
 * How useful a memory is likely to be, 0..1, with its parts kept so callers can see why.
 * Sum of the parts, clamped to 0..1.
 */
public record QualityScore(double tags, double links, double detail, double specificity, double recency,
                           double usage, double origin) {

    public double total() {
        double sum = tags + links + detail + specificity + recency + usage + origin;
        return Math.max(0, Math.min(1, Math.round(sum * 1000) / 1000.0));
    }
}
