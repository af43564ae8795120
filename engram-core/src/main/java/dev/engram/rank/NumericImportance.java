package dev.engram.rank;

import dev.engram.memory.Importance;
import dev.engram.memory.Memory;

/**
 * Importance as a number in [0, 1] (Memento's {@code importance: 0.7}) on Engram's two existing fields,
 * so no store column is added and every profile ranks the same memory the same way:
 * <ul>
 *   <li>the exact number is kept in {@link Memory#relevance()} as {@code 2 × importance} (so 0.5, Memento's
 *       plain fact, is the neutral weight 1 that every other memory has, and 1.0 doubles the weight);</li>
 *   <li>the level ({@link Importance}) is set from the number too, so native ranking and briefings, which
 *       read the level, see a 0.9 error as critical and a 0.3 note as low.</li>
 * </ul>
 * Read back, a memory whose relevance was never set (1) answers by its level; one a graph profile weighted
 * (brain-tools' ×10) answers capped at 1.
 */
public final class NumericImportance {
    private NumericImportance() {
    }

    /** The relevance that stores {@code importance} (clamped into Memory's bounds). */
    public static double toRelevance(double importance) {
        return Math.max(Memory.MIN_RELEVANCE, Math.min(Memory.MAX_RELEVANCE, 2 * clamp(importance)));
    }

    /** The level a numeric importance stands for: below 0.4 low, below 0.7 medium, below 0.85 high, else critical. */
    public static Importance level(double importance) {
        double v = clamp(importance);
        if (v < 0.4) return Importance.LOW;
        if (v < 0.7) return Importance.MEDIUM;
        if (v < 0.85) return Importance.HIGH;
        return Importance.CRITICAL;
    }

    /** The memory's importance as a number in [0, 1], rounded to 3 decimals. */
    public static double of(Memory m) {
        if (m.relevance() != 1.0) return round(Math.min(1.0, m.relevance() / 2));
        Importance level = m.importance();
        if (level == null) return 0.5;
        return switch (level) {
            case LOW -> 0.3;
            case MEDIUM -> 0.5;
            case HIGH -> 0.75;
            case CRITICAL -> 0.9;
        };
    }

    static double clamp(double v) {
        if (Double.isNaN(v)) throw new IllegalArgumentException("importance must be a number in 0..1");
        return Math.max(0, Math.min(1, v));
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
