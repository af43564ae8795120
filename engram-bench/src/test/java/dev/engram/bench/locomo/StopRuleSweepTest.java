package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.bench.locomo.StopRuleSweep.Rule;
import dev.engram.bench.locomo.StopRuleSweep.Signal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StopRuleSweepTest {

    @Test
    void theSignalIsReadFromTheEnginesLayerLine() {
        Signal s = Signal.parse("L3 semantic: skipped, top lexical hit holds 2/3 query words, 94% of their idf;"
                + " the rest weigh 0.07 of an unseen word").orElseThrow();
        assertEquals(new Signal(2, 3, 0.94, 0.07), s);
        assertEquals(Optional.empty(), Signal.parse("L3 semantic: 12 hits"));
    }

    @Test
    void rulesCompareShareAndMissingWithTheirThresholds() {
        Signal s = new Signal(2, 3, 0.94, 0.9);
        assertTrue(Rule.idf(0, 0.9).stops().test(s), "at most, not below");
        assertFalse(Rule.idf(0, 0.8).stops().test(s));
        assertFalse(Rule.idf(0.95, 99).stops().test(s));
        assertFalse(StopRuleSweep.BY_WORD_COUNT.stops().test(s), "2 of 3 words is under 75%");
        assertTrue(StopRuleSweep.BY_WORD_COUNT.stops().test(new Signal(3, 4, 0.5, 2)));
    }
}
