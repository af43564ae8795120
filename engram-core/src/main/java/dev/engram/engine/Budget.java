package dev.engram.engine;

import dev.engram.memory.MemoryRules;
import java.util.Locale;

/** Result-count tiers for recall (toon-memory's budgets). */
public enum Budget {
    TINY(3), NORMAL(10), DEEP(20);

    private final int results;

    Budget(int results) {
        this.results = results;
    }

    public int results() {
        return results;
    }

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Budget parse(String field, String value) {
        return MemoryRules.choice(field, value, Budget.class, Budget::wireName, "a budget; send tiny (3 results), normal (10) or deep (20)");
    }
}
