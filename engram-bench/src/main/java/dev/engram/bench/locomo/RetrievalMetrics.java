package dev.engram.bench.locomo;

import java.util.List;
import java.util.Set;

/**
 * Per-question retrieval metrics exactly as benchmarks.md §1.3 defines them:
 * <ul>
 *   <li>{@code Recall_frac@k = |gold ∩ top-k| / |gold|} (the LoCoMo paper's "recall accuracy");
 *   <li>{@code NDCG@k} with binary relevance and the ideal DCG over {@code min(k, |gold|)} hits.
 * </ul>
 */
final class RetrievalMetrics {
    private RetrievalMetrics() {
    }

    /** One question's scores. */
    record Scores(double recall5, double recall10, double ndcg10) {
    }

    static Scores score(List<String> ranked, Set<String> gold) {
        if (gold.isEmpty()) throw new IllegalArgumentException("a question without gold evidence cannot be scored");
        return new Scores(recallFrac(ranked, gold, 5), recallFrac(ranked, gold, 10), ndcg(ranked, gold, 10));
    }

    static double recallFrac(List<String> ranked, Set<String> gold, int k) {
        int found = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (gold.contains(ranked.get(i))) found++;
        }
        return (double) found / gold.size();
    }

    static double ndcg(List<String> ranked, Set<String> gold, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (gold.contains(ranked.get(i))) dcg += 1 / log2(i + 2);
        }
        double ideal = 0;
        for (int i = 0; i < Math.min(k, gold.size()); i++) ideal += 1 / log2(i + 2);
        return dcg / ideal;
    }

    private static double log2(int x) {
        return Math.log(x) / Math.log(2);
    }
}
