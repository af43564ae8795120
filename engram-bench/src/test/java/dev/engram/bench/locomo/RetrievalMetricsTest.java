package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetrievalMetricsTest {
    private static final List<String> RANKED = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");

    @Test
    void recallFracIsTheShareOfGoldInTheTopK() {
        Set<String> gold = Set.of("b", "g", "z");
        assertEquals(1 / 3.0, RetrievalMetrics.recallFrac(RANKED, gold, 5), 1e-9);
        assertEquals(2 / 3.0, RetrievalMetrics.recallFrac(RANKED, gold, 10), 1e-9);
        assertEquals(0.0, RetrievalMetrics.recallFrac(List.of(), gold, 10), 1e-9);
    }

    @Test
    void ndcgUsesBinaryGainsAndAnIdealOverMinOfKAndGold() {
        // one gold item at rank 1 of one: perfect
        assertEquals(1.0, RetrievalMetrics.ndcg(RANKED, Set.of("a"), 10), 1e-9);
        // one gold item at rank 3: 1/log2(4) = 0.5
        assertEquals(0.5, RetrievalMetrics.ndcg(RANKED, Set.of("c"), 10), 1e-9);
        // two gold at ranks 1 and 3 against an ideal of ranks 1 and 2
        double expected = (1 + 0.5) / (1 + 1 / (Math.log(3) / Math.log(2)));
        assertEquals(expected, RetrievalMetrics.ndcg(RANKED, Set.of("a", "c"), 10), 1e-9);
        // gold beyond the cut-off counts nothing
        assertEquals(0.0, RetrievalMetrics.ndcg(RANKED, Set.of("k"), 10), 1e-9);
    }

    @Test
    void scoresBundleTheThreeMetricsAndRefuseEmptyGold() {
        RetrievalMetrics.Scores s = RetrievalMetrics.score(RANKED, Set.of("f"));
        assertEquals(0.0, s.recall5());
        assertEquals(1.0, s.recall10());
        assertEquals(1 / (Math.log(7) / Math.log(2)), s.ndcg10(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> RetrievalMetrics.score(RANKED, Set.of()));
    }
}
