package dev.engram.memory;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/** Who asserted a memory. Human beats agent beats inferred when two versions merge. */
public enum Origin {
    INFERRED, AGENT, HUMAN;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Origin parse(String field, String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not an origin; send human, agent or inferred");
        }
    }

    public static Origin higher(Origin a, Origin b) {
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
