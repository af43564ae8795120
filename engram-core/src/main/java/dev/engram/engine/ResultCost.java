package dev.engram.engine;

import dev.engram.memory.Memory;

/**
 * What one result costs in tokens, in the form the caller will print it. The token budgets
 * ({@code budget_tokens} of recall and of the briefing) cut greedily by these prices, and the results'
 * {@code tokens} are their sum, so a profile passes the cost of its own renderer: the engine knows no
 * output format. Implementations are stateless and thread-safe.
 */
public interface ResultCost {
    /**
     * Tokens of one recall entry as printed: {@code rank} is its 1-based position among the results kept
     * so far (the one it gets if kept), in the given mode. Separators between entries and the summary
     * line are not priced.
     */
    int recalled(RecalledMemory result, RecallMode mode, int rank);

    /** Tokens of one memory's line in the session briefing, as printed. */
    int briefingLine(Memory memory);
}
