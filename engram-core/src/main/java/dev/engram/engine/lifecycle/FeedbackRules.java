package dev.engram.engine.lifecycle;

/**
 * Feedback-adaptive importance: a rating of a tool's answer multiplies the importance of the memories it
 * names by {@code 1 + step}: sufficient (relevant and enough) {@code sufficient}, relevant but not enough
 * {@code insufficient}, irrelevant {@code irrelevant}; the result is clamped to [{@code min}, {@code max}].
 * <p>Bounded per session (Memento calibrates from the last 24 hours of a session's feedback, at most 20 fragments):
 * within a {@code window} that opens at a session's first rating, that session's ratings adapt at most
 * {@code perSession} distinct memories, each once; more ratings in the window change nothing more, so an agent that
 * rates in a loop cannot push a memory to the floor or the ceiling. The next window starts afresh.
 */
public record FeedbackRules(double sufficient, double insufficient, double irrelevant, double min, double max,
                            java.time.Duration window, int perSession) {
    public FeedbackRules {
        if (!(min >= 0 && min <= max && max <= 1)) throw new IllegalArgumentException("need 0 <= min <= max <= 1");
        if (window == null || window.isNegative() || window.isZero()) throw new IllegalArgumentException("window must be positive");
        if (perSession < 1) throw new IllegalArgumentException("perSession must be >= 1");
    }

    /** Memento's: +5 %, −2.5 %, −5 %, within [0.05, 1]; a session adapts at most 20 fragments, once each, per 24 hours. */
    public static final FeedbackRules MEMENTO = new FeedbackRules(0.05, -0.025, -0.05, 0.05, 1.0,
            java.time.Duration.ofHours(24), 20);

    public double step(boolean relevant, boolean sufficient) {
        return !relevant ? irrelevant : sufficient ? this.sufficient : insufficient;
    }

    /** {@code importance} after one rating, clamped and rounded to 3 decimals. */
    public double adapt(double importance, boolean relevant, boolean sufficient) {
        double after = Math.max(min, Math.min(max, importance * (1 + step(relevant, sufficient))));
        return Math.round(after * 1000) / 1000.0;
    }
}
