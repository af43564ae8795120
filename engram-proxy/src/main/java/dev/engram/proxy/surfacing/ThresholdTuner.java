package dev.engram.proxy.surfacing;

import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.proxy.stats.ProxyStats;

/**
 * Moves the surfacing score threshold from feedback (memtomem-stm's auto-tuner): once
 * {@code autoTuneMinSamples} ratings have come in since the last move, more than 60% negative
 * (not_relevant, already_known) raises it by one increment, more than 80% helpful lowers it;
 * partially_helpful is neutral. Clamped to the configured bounds and persisted, so a restart keeps
 * what was learned. Thread-safe.
 */
public final class ThresholdTuner {
    public static final String KEY = "surfacing.min_score";
    static final double RAISE_ABOVE_NEGATIVE = 0.60;
    static final double LOWER_ABOVE_HELPFUL = 0.80;

    private final SurfacingSettings settings;
    private final ProxyStats stats;
    // guarded by this: the threshold and the ratings since it last moved
    private double minScore;
    private int helpful;
    private int negative;
    private int total;

    public ThresholdTuner(SurfacingSettings settings, ProxyStats stats) {
        this.settings = settings;
        this.stats = stats;
        this.minScore = clamp(stats.tuned(KEY).orElse(settings.minScore()));
    }

    public synchronized double minScore() {
        return minScore;
    }

    /** Counts one rating; returns the threshold after it (moved or not). */
    public synchronized double record(String rating) {
        total++;
        if (rating.equals("helpful")) helpful++;
        if (rating.equals("not_relevant") || rating.equals("already_known")) negative++;
        if (!settings.autoTune() || total < settings.autoTuneMinSamples()) return minScore;
        double before = minScore;
        if ((double) negative / total > RAISE_ABOVE_NEGATIVE) minScore = clamp(minScore + settings.scoreIncrement());
        else if ((double) helpful / total > LOWER_ABOVE_HELPFUL) minScore = clamp(minScore - settings.scoreIncrement());
        helpful = negative = total = 0;
        if (minScore != before) stats.saveTuned(KEY, minScore);
        return minScore;
    }

    private double clamp(double v) {
        return Math.max(settings.scoreFloor(), Math.min(settings.scoreCeiling(), v));
    }
}
