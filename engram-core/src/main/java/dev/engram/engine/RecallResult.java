package dev.engram.engine;

import java.util.List;

/**
 * Recall's answer. {@code layers} says which retrieval layers ran, how many hits each gave and why a
 * layer was skipped. {@code candidates} counts the memories that matched before the limit and the
 * token budget cut the list; {@code tokens} estimates what {@code results} cost
 * ({@link dev.engram.render.TokenEstimate}); {@code notes} carry anything the caller should know
 * (unknown ids, a budget that dropped results).
 */
public record RecallResult(RecallMode mode, List<RecalledMemory> results, int candidates, int tokens,
                           boolean budgetLimited, List<String> notes, List<String> layers) {
    public RecallResult {
        results = List.copyOf(results);
        notes = List.copyOf(notes);
        layers = List.copyOf(layers);
    }
}
