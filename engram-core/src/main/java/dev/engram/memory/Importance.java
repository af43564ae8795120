package dev.engram.memory;

import java.util.Locale;

/** Explicit importance set by the caller. A memory without one has its importance computed. */
public enum Importance {
    LOW(1, -0.10),
    MEDIUM(2, 0.0),
    HIGH(3, 0.15),
    CRITICAL(4, 0.30);

    private final int rank;
    private final double boost;

    Importance(int rank, double boost) {
        this.rank = rank;
        this.boost = boost;
    }

    /** Order used when two memories merge: the higher rank wins. */
    public int rank() {
        return rank;
    }

    /** Additive ranking boost (toon-memory's explicit importance table). */
    public double boost() {
        return boost;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Importance parse(String field, String value) {
        return MemoryRules.choice(field, value, Importance.class, Importance::wireName, "an importance; send critical, high, medium or low (or omit it for automatic)");
    }

    public static Importance higher(Importance a, Importance b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.rank >= b.rank ? a : b;
    }
}
