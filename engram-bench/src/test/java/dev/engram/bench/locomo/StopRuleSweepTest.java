package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.bench.locomo.StopRuleSweep.Rule;
import dev.engram.engine.StopSignal;
import org.junit.jupiter.api.Test;

class StopRuleSweepTest {

    @Test
    void rulesCompareShareAndMissingWithTheirThresholds() {
        StopSignal s = new StopSignal(2, 3, 0.94, 0.9, 1.2);
        assertTrue(Rule.idf(0, 0.9).stops().test(s), "at most, not below");
        assertFalse(Rule.idf(0, 0.8).stops().test(s));
        assertFalse(Rule.idf(0.95, 99).stops().test(s));
        assertFalse(StopRuleSweep.BY_WORD_COUNT.stops().test(s), "2 of 3 words is under 75%");
        assertTrue(StopRuleSweep.BY_WORD_COUNT.stops().test(new StopSignal(3, 4, 0.5, 2, 1.0)));
    }

    @Test
    void aMarginRuleStopsOnADecisiveTopHitAloneOrWithTheIdfRule() {
        StopSignal decisive = new StopSignal(1, 3, 0.2, 2.0, 1.5);
        assertTrue(Rule.margin(1.5).stops().test(decisive), "at least, not above");
        assertFalse(Rule.margin(1.6).stops().test(decisive));
        assertTrue(Rule.idfOrMargin(0.5, 0.9, 1.5, 99).stops().test(decisive), "the margin alone is enough");
        assertTrue(Rule.idfOrMargin(0.5, 0.9, 3.0, 99).stops().test(new StopSignal(2, 3, 0.94, 0.9, 1.0)), "so is the idf rule");
        assertFalse(Rule.idfOrMargin(0.5, 0.9, 3.0, 99).stops().test(decisive));
        assertTrue(Rule.idfOrMargin(0.5, 0.9, 1.5, 2.0).stops().test(decisive), "lacks 2.0: at most, not below");
        assertFalse(Rule.idfOrMargin(0.5, 0.9, 1.5, 1.5).stops().test(decisive), "lacks more than the margin's cap");
    }
}
