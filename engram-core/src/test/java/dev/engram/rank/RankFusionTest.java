package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RankFusionTest {

    @Test
    void kGrowsWithTheSquareRootOfTheCandidatesBetween3And60() {
        assertEquals(3, RankFusion.k(1));
        assertEquals(3, RankFusion.k(12));
        assertEquals(4, RankFusion.k(13)); // √13 = 3.6
        assertEquals(10, RankFusion.k(100));
        assertEquals(60, RankFusion.k(10_000));
    }

    @Test
    void theMatchVotesThriceAndCentralityOnce() {
        Map<String, Double> match = new HashMap<>();
        Map<String, Double> degree = new HashMap<>();
        for (int i = 0; i < 100; i++) {
            match.put(String.format("m%03d", i), 0.5 - i / 1000.0);
            degree.put(String.format("m%03d", i), 1.0);
        }
        match.put("best", 1.0);
        match.put("runner", 0.99);
        degree.put("runner", 9.0);
        degree.put("best", 0.0);
        Map<String, Double> fused = RankFusion.fuse(match, degree);
        int k = RankFusion.k(102);
        assertEquals(3.0 / k + 1.0 / (k + 101), fused.get("best"), 1e-12, "best by match, last by centrality");
        assertEquals(3.0 / (k + 1) + 1.0 / k, fused.get("runner"), 1e-12);
        assertTrue(fused.get("runner") > fused.get("best"), "a hub one match rank down wins under fusion");
    }
}
