package dev.engram.engine;

import java.util.List;

/**
 * Recall's answer. {@code layers} says which retrieval layers ran, how many hits each gave and why a
 * layer was skipped. {@code candidates} counts the memories that matched before the limit and the
 * token budget cut the list; {@code tokens} is what {@code results} cost as the
 * caller prints them (the sum of its {@link ResultCost}); {@code notes} carry anything the caller should know
 * (unknown ids, a budget that dropped results). {@code stop} is what the cascade's stop rule read,
 * or null when it did not run (no semantic layer, mode hybrid, nothing to read).
 */
public record RecallResult(RecallMode mode, List<RecalledMemory> results, int candidates, int tokens,
                           boolean budgetLimited, List<String> notes, List<String> layers, StopSignal stop) {
    public RecallResult {
        results = List.copyOf(results);
        notes = List.copyOf(notes);
        layers = List.copyOf(layers);
    }

    /** An answer for which no stop rule ran. */
    public RecallResult(RecallMode mode, List<RecalledMemory> results, int candidates, int tokens,
                        boolean budgetLimited, List<String> notes, List<String> layers) {
        this(mode, results, candidates, tokens, budgetLimited, notes, layers, null);
    }
}
