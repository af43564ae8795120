package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.bench.locomo.ScoreFusion.Scored;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScoreFusionTest {
    private static final List<Scored> LEXICAL = List.of(new Scored("a", 9), new Scored("b", 5), new Scored("c", 1));
    private static final List<Scored> SEMANTIC = List.of(new Scored("c", 0.9), new Scored("d", 0.8), new Scored("a", 0.1));

    @Test
    void rrfAddsReciprocalRanksAndWeightsTheLexicalList() {
        // k=1 — a: 1/2 + 1/4 = 0.75; c: 1/4 + 1/2 = 0.75 (tie, lexical first-seen wins); b: 1/3; d: 1/3
        assertEquals(List.of("a", "c", "b", "d"), ScoreFusion.rrf(LEXICAL, SEMANTIC, 1, 1));
        // k=60 — a: 1/61 + 1/63; c: 1/61; b: 1/62; d: 1/62
        assertEquals(List.of("a", "c", "b", "d"),
                ScoreFusion.rrf(List.of(new Scored("a", 9), new Scored("b", 1)), SEMANTIC, 1, 60));
        List<Scored> lexical = List.of(new Scored("x", 2), new Scored("y", 1));
        List<Scored> semantic = List.of(new Scored("z", 0.9), new Scored("w", 0.8));
        assertEquals(List.of("x", "z", "y", "w"), ScoreFusion.rrf(lexical, semantic, 1, 1));
        // counting the lexical list twice lifts its second hit above the semantic first
        assertEquals(List.of("x", "y", "z", "w"), ScoreFusion.rrf(lexical, semantic, 2, 1));
    }

    @Test
    void adaptiveKIsTheClampedRootOfTheCandidateCount() {
        assertEquals(3, ScoreFusion.adaptiveK(LEXICAL, SEMANTIC)); // 4 candidates: √4 = 2, clamped to 3
        List<Scored> many = new ArrayList<>();
        for (int i = 0; i < 600; i++) many.add(new Scored("t" + i, 1.0 / (i + 1)));
        assertEquals(24, ScoreFusion.adaptiveK(many, List.of())); // √600 = 24.5 → 24
        List<Scored> huge = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) huge.add(new Scored("t" + i, 1));
        assertEquals(60, ScoreFusion.adaptiveK(huge, List.of()));
    }

    @Test
    void minMaxScalesEachListAndWeighsThemByAlpha() {
        // lexical scaled: a 1, b 0.5, c 0; semantic scaled: c 1, d 0.875, a 0
        assertEquals(List.of("a", "b", "c", "d"), ScoreFusion.minMax(LEXICAL, SEMANTIC, 1.0));
        assertEquals(List.of("c", "d", "a", "b"), ScoreFusion.minMax(LEXICAL, SEMANTIC, 0.0));
        // α=0.5: a 0.5, b 0.25, c 0.5, d 0.4375 → a, c (tie, first-seen), d, b
        assertEquals(List.of("a", "c", "d", "b"), ScoreFusion.minMax(LEXICAL, SEMANTIC, 0.5));
    }

    @Test
    void aSingleValuedListCountsAsAFullMatchAndEmptyListsAddNothing() {
        List<Scored> flat = List.of(new Scored("x", 2), new Scored("y", 2));
        assertEquals(List.of("x", "y", "c", "d", "a"), ScoreFusion.minMax(flat, SEMANTIC, 0.6));
        assertEquals(List.of("c", "d", "a"), ScoreFusion.minMax(List.of(), SEMANTIC, 0.5));
    }
}
