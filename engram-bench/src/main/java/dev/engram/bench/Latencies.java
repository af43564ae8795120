package dev.engram.bench;

import java.util.Arrays;
import java.util.Locale;

/** Timed samples in nanoseconds, sorted once; percentiles by nearest rank. */
record Latencies(long[] sortedNanos) {
    Latencies {
        if (sortedNanos.length == 0) throw new IllegalArgumentException("sortedNanos must not be empty");
        sortedNanos = sortedNanos.clone();
        Arrays.sort(sortedNanos);
    }

    /** Nearest-rank percentile, {@code p} in (0, 100]. */
    long percentileNanos(double p) {
        int rank = (int) Math.ceil(p / 100.0 * sortedNanos.length);
        return sortedNanos[Math.max(0, Math.min(sortedNanos.length - 1, rank - 1))];
    }

    int count() {
        return sortedNanos.length;
    }

    /** Milliseconds with two decimals, the unit every table uses. */
    String ms(double p) {
        return millis(percentileNanos(p));
    }

    /** "median (min–max)" in whole milliseconds: the start-up tables' cell. */
    String medianAndRange() {
        return String.format(Locale.ROOT, "%.0f (%.0f–%.0f)", percentileNanos(50) / 1e6,
                percentileNanos(0.0001) / 1e6, percentileNanos(100) / 1e6);
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /** A recorder for a known number of samples; not thread-safe. */
    static final class Recorder {
        private final long[] nanos;
        // grows with each sample; the only mutable state, confined to one benchmark loop
        private int size;

        Recorder(int capacity) {
            this.nanos = new long[capacity];
        }

        void add(long sampleNanos) {
            nanos[size++] = sampleNanos;
        }

        Latencies done() {
            return new Latencies(Arrays.copyOf(nanos, size));
        }
    }
}
