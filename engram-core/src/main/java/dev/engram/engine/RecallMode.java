package dev.engram.engine;

import dev.engram.memory.MemoryRules;
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
        return MemoryRules.choice(field, value, RecallMode.class, RecallMode::wireName, "a mode; send ranked, hybrid (all search layers), index or ids");
    }
}
