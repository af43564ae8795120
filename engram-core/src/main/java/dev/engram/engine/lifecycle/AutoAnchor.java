package dev.engram.engine.lifecycle;

/**
 * The {@code anchor} step: a memory read at least {@code minReads} times whose importance is at least
 * {@code minImportance} becomes an anchor (pinned at {@code priority}), exempt from decay and collection
 * from then on. {@code minReads} 0 turns the step off.
 */
public record AutoAnchor(long minReads, double minImportance, int priority) {
    public AutoAnchor {
        if (minReads < 0) throw new IllegalArgumentException("minReads must be >= 0");
        if (priority < 1 || priority > 5) throw new IllegalArgumentException("priority must be 1..5");
    }

    /** Memento's: 10 reads and importance 0.8. */
    public static final AutoAnchor MEMENTO = new AutoAnchor(10, 0.8, 1);
    public static final AutoAnchor OFF = new AutoAnchor(0, 1, 1);

    public boolean enabled() {
        return minReads > 0;
    }
}
