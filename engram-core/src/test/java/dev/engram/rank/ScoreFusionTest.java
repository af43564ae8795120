package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.spi.IndexHit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ScoreFusionTest {

    @Test
    void minMaxScalesEachListToZeroOne() {
        Map<String, Double> s = ScoreFusion.scaled(List.of(new IndexHit("a", 9), new IndexHit("b", 5), new IndexHit("c", 1)));
        assertEquals(1.0, s.get("a"));
        assertEquals(0.5, s.get("b"));
        assertEquals(0.0, s.get("c"));
        assertEquals(Map.of("x", 1.0), ScoreFusion.scaled(List.of(new IndexHit("x", 3))), "a single hit is the best hit");
        assertTrue(ScoreFusion.scaled(List.of()).isEmpty());
    }

    @Test
    void fusionWeighsTheListsAndUnitesTheirIds() {
        Map<String, Double> lexical = Map.of("a", 1.0, "b", 0.0);
        Map<String, Double> semantic = Map.of("b", 1.0, "c", 0.5);
        Map<String, Double> fused = ScoreFusion.fuse(lexical, semantic, 0.6);
        assertEquals(0.6, fused.get("a"), 1e-12);
        assertEquals(0.4, fused.get("b"), 1e-12);
        assertEquals(0.2, fused.get("c"), 1e-12);
        assertEquals(3, fused.size());
    }

    @Test
    void fusionIsOrderIndependentAndDuplicateFree() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            List<IndexHit> lexical = hits(random), semantic = hits(random);
            Map<String, Double> expected = ScoreFusion.fuse(ScoreFusion.scaled(lexical), ScoreFusion.scaled(semantic), 0.6);
            List<IndexHit> l2 = new ArrayList<>(lexical), s2 = new ArrayList<>(semantic);
            Collections.shuffle(l2, random);
            Collections.shuffle(s2, random);
            Map<String, Double> shuffled = ScoreFusion.fuse(ScoreFusion.scaled(l2), ScoreFusion.scaled(s2), 0.6);
            assertEquals(expected, shuffled, "reproduce with -Dengram.seed=" + seed);
            shuffled.values().forEach(v -> assertTrue(v >= 0 && v <= 1 + 1e-12, "fused in 0..1, seed " + seed));
        }
    }

    private static List<IndexHit> hits(Random random) {
        List<IndexHit> out = new ArrayList<>();
        int n = 1 + random.nextInt(20);
        for (int i = 0; i < n; i++) out.add(new IndexHit("m" + random.nextInt(30), random.nextDouble() * 10));
        return out;
    }
}
