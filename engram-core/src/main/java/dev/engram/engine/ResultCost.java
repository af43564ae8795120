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

    /**
     * Tokens that keeping {@code result} adds to the output when {@code kept} are kept before it (it gets rank
     * {@code kept.size() + 1}): by default its own price. A layout whose entries refer to one another (toon's
     * {@code · edges: ->2}) adds what the earlier entries grow by, so the greedy cut still never exceeds the budget.
     */
    default int added(RecalledMemory result, RecallMode mode, java.util.List<RecalledMemory> kept) {
        return recalled(result, mode, kept.size() + 1);
    }

    /**
     * Whether the budget cut may pass over a result that does not fit and keep a later, shorter one (the
     * default), or stops at the first result that does not fit, so what is kept is always the top of the
     * ranking (toon-memory's cut).
     */
    default boolean skipsWhatDoesNotFit() {
        return true;
    }

    /** Tokens of one memory's line in the session briefing, as printed. */
    int briefingLine(Memory memory);
}
