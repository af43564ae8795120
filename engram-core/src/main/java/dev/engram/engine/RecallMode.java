package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/** Progressive disclosure: ranked full results, one index line per memory, or fetch by ids. */
public enum RecallMode {
    RANKED, INDEX, IDS;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RecallMode parse(String field, String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not a mode; send ranked, index or ids");
        }
    }
}
