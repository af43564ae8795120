package dev.engram.engine;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;

/** Session-start briefing for a zone within {@code budgetTokens}; {@code task} focuses it (optional). */
public record ContextQuery(String zone, int budgetTokens, String task) {
    public static final int DEFAULT_BUDGET_TOKENS = 800;

    public ContextQuery {
        zone = MemoryRules.zone("zone", zone);
        if (budgetTokens < 50 || budgetTokens > 20_000) {
            throw new InvalidArgumentException("budget_tokens", "must be 50..20000, got " + budgetTokens);
        }
        task = task == null || task.isBlank() ? null : task.strip();
    }
}
