package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoEvaluation.Scored;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;

/**
 * Paired bootstrap over questions: the mean difference of a metric between two modes on the same
 * questions, with a 95% percentile interval from resampling questions. An interval that spans 0
 * means the data cannot tell the two modes apart. Seeded, so a run is reproducible.
 */
final class PairedBootstrap {
    static final int RESAMPLES = 2_000;

    /** Mean of (a − b) and its 95% interval. */
    record Difference(double mean, double low, double high) {
        boolean spansZero() {
            return low <= 0 && high >= 0;
        }
    }

    private final long seed;

    PairedBootstrap(long seed) {
        this.seed = seed;
    }

    Difference difference(List<Scored> a, List<Scored> b, ToDoubleFunction<RetrievalMetrics.Scores> metric) {
        if (a.size() != b.size() || a.isEmpty()) {
            throw new IllegalArgumentException("paired samples must be non-empty and of equal size, got " + a.size() + " and " + b.size());
        }
        int n = a.size();
        double[] diff = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            diff[i] = metric.applyAsDouble(a.get(i).scores()) - metric.applyAsDouble(b.get(i).scores());
            total += diff[i];
        }
        Random random = new Random(seed);
        double[] means = new double[RESAMPLES];
        for (int r = 0; r < RESAMPLES; r++) {
            double sum = 0;
            for (int i = 0; i < n; i++) sum += diff[random.nextInt(n)];
            means[r] = sum / n;
        }
        Arrays.sort(means);
        return new Difference(total / n, means[(int) (0.025 * RESAMPLES)], means[(int) (0.975 * RESAMPLES) - 1]);
    }
}
