package dev.engram.rank;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reciprocal-rank fusion as toon-memory's {@code rrf: true} ranks a recall: each candidate scores
 * {@code 3/(k + rank by match) + 1/(k + rank by centrality)}, ranks 0-based, the match counted three times
 * because it is the only real retriever and centrality once as the graph's signal. {@code k} grows with the
 * candidate count ({@code clamp(round(√n), 3, 60)}): the textbook 60 would flatten a few dozen candidates
 * into one narrow band. Rank fusion needs no weights, which is why toon offers it; Engram's default stays
 * the weighted sum ({@link ScoreFusion} explains why).
 */
public final class RankFusion {
    static final int MATCH_VOTES = 3;
    static final int CENTRALITY_VOTES = 1;

    private RankFusion() {
    }

    /** toon-memory's adaptive smoothing constant for {@code n} candidates. */
    public static int k(int n) {
        return (int) Math.max(3, Math.min(60, Math.round(Math.sqrt(n))));
    }

    /**
     * Each id's fused score over its match and its centrality (both higher-is-better; a missing id counts as
     * 0). Ties are ranked by id, so the result does not depend on map order.
     */
    public static Map<String, Double> fuse(Map<String, Double> match, Map<String, Double> centrality) {
        int k = k(match.size());
        Map<String, Integer> byMatch = ranks(match, match);
        Map<String, Integer> byCentrality = ranks(match, centrality);
        Map<String, Double> out = new HashMap<>();
        for (String id : match.keySet()) {
            out.put(id, (double) MATCH_VOTES / (k + byMatch.get(id)) + (double) CENTRALITY_VOTES / (k + byCentrality.get(id)));
        }
        return out;
    }

    /** 0-based ranks of {@code ids}' keys by {@code values}, highest first. */
    static Map<String, Integer> ranks(Map<String, Double> ids, Map<String, Double> values) {
        List<String> order = new ArrayList<>(ids.keySet());
        order.sort(Comparator.comparingDouble((String id) -> values.getOrDefault(id, 0.0)).reversed()
                .thenComparing(Comparator.naturalOrder()));
        Map<String, Integer> out = new HashMap<>();
        for (int i = 0; i < order.size(); i++) out.put(order.get(i), i);
        return out;
    }
}
