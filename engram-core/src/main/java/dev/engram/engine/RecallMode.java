package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/**
 * Progressive disclosure: ranked full results (the cascade decides how deep to search), one index
 * line per memory, or fetch by ids. Hybrid is ranked with every layer forced: BM25, semantic and a
 * two-hop graph expansion.
 */
public enum RecallMode {
    RANKED, INDEX, IDS, HYBRID;

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static RecallMode parse(String field, String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException(field, "'" + value + "' is not a mode; send ranked, hybrid (all search layers), index or ids");
        }
    }
}
