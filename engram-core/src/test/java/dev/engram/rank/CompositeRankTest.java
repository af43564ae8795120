package dev.engram.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CompositeRankTest {
    private final CompositeRank rank = CompositeRank.MEMENTO;

    @Test
    void aFullMatchIsMementosWeightedSum() {
        double importance = 0.7, days = 12;
        double memento = 0.4 * importance + 0.3 * Math.pow(2, -days / 30) + 0.3 * 1.0;
        assertEquals(memento, rank.score(importance, days, 1.0), 1e-12);
        assertEquals(1.0, rank.score(1.0, 0, 1.0), 1e-12);
        assertEquals(0.0, rank.score(1.0, 0, 0.0), 1e-12, "no match, no rank: freshness alone does not bring a memory in");
    }

    @Test
    void decayAndAgeStillOrderHitsThatMatchAlike() {
        for (double match : new double[] {0.3, 0.7, 1.0}) {
            assertTrue(rank.score(0.5, 2, match) > rank.score(0.5, 20, match), "newer first at match " + match);
            assertTrue(rank.score(0.6, 10, match) > rank.score(0.4, 10, match), "more important first at match " + match);
        }
    }

    /**
     * The Memento month's lost question, its numbers as measured (docs/benchmarks.md): the exact match written 26.6 days
     * ago, its importance faded to 0.393 by written-back decay, against another subject's fact from 4.8 days ago that
     * shares the question's other words (match 0.721, importance 0.48). The plain sum put the fresh one first.
     */
    @Test
    void aWeaklyMatchingFreshMemoryNoLongerPassesAStrongOldMatch() {
        double exactPlain = 0.4 * 0.393 + 0.3 * Math.pow(2, -26.6 / 30) + 0.3 * 1.0;
        double otherPlain = 0.4 * 0.48 + 0.3 * Math.pow(2, -4.8 / 30) + 0.3 * 0.721;
        assertTrue(otherPlain > exactPlain, "the ungated sum's failure, kept as the reason for the gate");
        assertTrue(rank.score(0.393, 26.6, 1.0) > rank.score(0.48, 4.8, 0.721));
        // importance still tells: a critical, fresh memory that matches almost as well goes first
        assertTrue(rank.score(0.9, 1, 0.9) > rank.score(0.393, 26.6, 1.0));
    }

    @Test
    void recencyCountsDaysEitherSideOfTheAnchor() {
        assertEquals(0.5, rank.recency(30), 1e-12);
        assertEquals(rank.recency(-30), rank.recency(30), 1e-12);
    }

    @Test
    void weightsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new CompositeRank(0.5, 0.5, 0.5, 30));
        assertThrows(IllegalArgumentException.class, () -> new CompositeRank(-0.1, 0.6, 0.5, 30));
        assertThrows(IllegalArgumentException.class, () -> new CompositeRank(0.4, 0.3, 0.3, 0));
        assertThrows(IllegalArgumentException.class, () -> rank.score(Double.NaN, 1, 1));
    }
}
