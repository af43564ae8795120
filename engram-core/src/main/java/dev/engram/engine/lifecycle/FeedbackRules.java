package dev.engram.engine.lifecycle;

/**
 * Feedback-adaptive importance: a rating of a tool's answer multiplies the importance of the memories it
 * names by {@code 1 + step}: sufficient (relevant and enough) {@code sufficient}, relevant but not enough
 * {@code insufficient}, irrelevant {@code irrelevant}; the result is clamped to [{@code min}, {@code max}].
 */
public record FeedbackRules(double sufficient, double insufficient, double irrelevant, double min, double max) {
    public FeedbackRules {
        if (!(min >= 0 && min <= max && max <= 1)) throw new IllegalArgumentException("need 0 <= min <= max <= 1");
    }

    /** Memento's: +5 %, −2.5 %, −5 %, within [0.05, 1]. */
    public static final FeedbackRules MEMENTO = new FeedbackRules(0.05, -0.025, -0.05, 0.05, 1.0);

    public double step(boolean relevant, boolean sufficient) {
        return !relevant ? irrelevant : sufficient ? this.sufficient : insufficient;
    }

    /** {@code importance} after one rating, clamped and rounded to 3 decimals. */
    public double adapt(double importance, boolean relevant, boolean sufficient) {
        double after = Math.max(min, Math.min(max, importance * (1 + step(relevant, sufficient))));
        return Math.round(after * 1000) / 1000.0;
    }
}
