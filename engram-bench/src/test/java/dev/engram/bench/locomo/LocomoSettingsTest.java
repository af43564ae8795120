package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.engine.RecallSettings;
import org.junit.jupiter.api.Test;

class LocomoSettingsTest {

    @Test
    void flagsOverrideTheDefaults() {
        RecallSettings s = LocomoBench.settings(new String[] {"--depth", "40", "--alpha", "0.5", "--graph-hops", "1",
                "--stop-margin", "Infinity"});
        assertEquals(40, s.depth());
        assertEquals(Double.POSITIVE_INFINITY, s.stop().margin(), "the margin part of the stop rule can be turned off");
        assertEquals(0.5, s.lexicalWeight());
        assertEquals(1, s.graphHops());
        assertEquals(RecallSettings.defaults(), LocomoBench.settings(new String[] {"--conversations", "0,1"}));
    }

    @Test
    void aValueThatIsNotANumberIsNamedWithItsFlag() {
        assertEquals("--depth must be a whole number, got 'x'", rejected("--depth", "x"));
        assertEquals("--depth must be a whole number, got '40.5'", rejected("--depth", "40.5"));
        assertEquals("--alpha must be a number, got 'half'", rejected("--alpha", "half"));
    }

    @Test
    void aNumberOutOfRangeGetsTheSettingsOwnMessage() {
        assertEquals("depth must be >= 10, got 5", rejected("--depth", "5"));
        assertEquals("lexicalWeight must be 0..1, got 1.5", rejected("--alpha", "1.5"));
        assertEquals("stop margin must be >= 1, got 0.5", rejected("--stop-margin", "0.5"));
        assertEquals("stop margin must be >= 1, got NaN", rejected("--stop-margin", "NaN"));
    }

    private static String rejected(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(args)).getMessage();
    }
}
