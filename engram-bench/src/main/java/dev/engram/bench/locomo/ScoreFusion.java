package dev.engram.bench.locomo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fusions measured to choose the engine's: reciprocal-rank fusion (fixed k, or toon-memory's
 * adaptive {@code k = clamp(3, 60, round(√n))} over the n fused candidates) and weighted min-max
 * score fusion {@code α·bm25' + (1−α)·cosine'}, each list min-max scaled to 0..1 over its own
 * candidates and a candidate missing from a list scoring 0 there. Ties keep first-seen order
 * (lexical list first), so results are deterministic.
 */
final class ScoreFusion {
    private ScoreFusion() {
    }

    /** A candidate with its score in one ranked list, best first. */
    record Scored(String id, double score) {
    }

    static List<String> rrf(List<Scored> lexical, List<Scored> semantic, double lexicalWeight, int k) {
        Map<String, Double> fused = new LinkedHashMap<>();
        addRanks(fused, lexical, lexicalWeight, k);
        addRanks(fused, semantic, 1.0, k);
        return sorted(fused);
    }

    static int adaptiveK(List<Scored> lexical, List<Scored> semantic) {
        Map<String, Boolean> union = new LinkedHashMap<>();
        lexical.forEach(s -> union.put(s.id(), true));
        semantic.forEach(s -> union.put(s.id(), true));
        return (int) Math.max(3, Math.min(60, Math.round(Math.sqrt(union.size()))));
    }

    static List<String> minMax(List<Scored> lexical, List<Scored> semantic, double alpha) {
        Map<String, Double> fused = new LinkedHashMap<>();
        addScaled(fused, lexical, alpha);
        addScaled(fused, semantic, 1 - alpha);
        return sorted(fused);
    }

    private static void addRanks(Map<String, Double> fused, List<Scored> list, double weight, int k) {
        for (int rank = 1; rank <= list.size(); rank++) {
            fused.merge(list.get(rank - 1).id(), weight / (k + rank), Double::sum);
        }
    }

    private static void addScaled(Map<String, Double> fused, List<Scored> list, double weight) {
        if (list.isEmpty()) return;
        double max = list.stream().mapToDouble(Scored::score).max().orElseThrow();
        double min = list.stream().mapToDouble(Scored::score).min().orElseThrow();
        for (Scored s : list) {
            // a single-valued list carries no ordering information beyond "matched": everyone gets 1
            double scaled = max > min ? (s.score() - min) / (max - min) : 1.0;
            fused.merge(s.id(), weight * scaled, Double::sum);
        }
    }

    private static List<String> sorted(Map<String, Double> fused) {
        List<Map.Entry<String, Double>> entries = new ArrayList<>(fused.entrySet());
        entries.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())); // stable: ties keep insertion order
        return entries.stream().map(Map.Entry::getKey).toList();
    }
}
