package dev.engram.memory;

import java.util.Locale;

/** Who asserted a memory. Human beats agent beats inferred when two versions merge. */
public enum Origin {
    INFERRED, AGENT, HUMAN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Origin parse(String field, String value) {
        return MemoryRules.choice(field, value, Origin.class, Origin::wireName, "an origin; send human, agent or inferred");
    }

    public static Origin higher(Origin a, Origin b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
