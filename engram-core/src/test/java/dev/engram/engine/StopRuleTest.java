package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The cascade's stop decision on its three signals; SemanticRecallTest shows it inside a recall. */
class StopRuleTest {
    private final StopRule rule = new StopRule(0.5, 1.0, 1.75, 2.0);

    /** A signal with these three figures; the word counts play no part in the rule. */
    private static StopSignal signal(double share, double missing, double margin) {
        return new StopSignal(1, 2, share, missing, margin);
    }

    @Test
    void theTopHitMayStopTheCascadeByHoldingTheQuery() {
        assertTrue(rule.stops(signal(0.5, 1.0, 1.0)), "both thresholds are inclusive");
        assertFalse(rule.stops(signal(0.49, 0.2, 1.0)), "too small a share");
        assertFalse(rule.stops(signal(0.9, 1.01, 1.0)), "lacks more than one unseen word");
    }

    @Test
    void orByStandingOutFromTheNextHitWithinItsOwnCap() {
        assertTrue(rule.stops(signal(0.2, 2.0, 1.75)), "margin and cap are inclusive");
        assertTrue(rule.stops(signal(0.2, 1.5, Double.POSITIVE_INFINITY)), "a lone hit stands out");
        assertFalse(rule.stops(signal(0.2, 1.5, 1.74)));
        assertFalse(rule.stops(signal(0.2, 2.01, 5.0)), "a paraphrase: more than two unseen words lacking");
        assertFalse(rule.withMargin(Double.POSITIVE_INFINITY).stops(signal(0.2, 0.5, Double.POSITIVE_INFINITY)),
                "an infinite margin turns the second signal off, even for a lone hit");
        assertFalse(rule.stops(signal(0.2, 0.5, Double.NaN)), "no margin recorded: only the idf rule");
    }

    @Test
    void alwaysStopsAndTheDefaultsAreTheDocumentedOnes() {
        assertTrue(StopRule.ALWAYS.stops(signal(0, 1e9, 1.0)));
        assertEquals(new StopRule(0.5, 1.0, 1.75, 2.0), StopRule.DEFAULT);
        assertEquals(StopRule.DEFAULT, RecallSettings.defaults().stop());
    }

    @Test
    void outOfRangeThresholdsAreRefusedWithTheirName() {
        assertEquals("stop coverage must be 0..1, got 1.5",
                assertThrows(IllegalArgumentException.class, () -> new StopRule(1.5, 1, 2, 2)).getMessage());
        assertEquals("stop missing must be >= 0, got -1.0",
                assertThrows(IllegalArgumentException.class, () -> new StopRule(0.5, -1, 2, 2)).getMessage());
        assertEquals("stop margin must be >= 1, got 0.9",
                assertThrows(IllegalArgumentException.class, () -> new StopRule(0.5, 1, 0.9, 2)).getMessage());
        assertEquals("stop margin missing must be >= 0, got NaN",
                assertThrows(IllegalArgumentException.class, () -> new StopRule(0.5, 1, 2, Double.NaN)).getMessage());
    }
}
