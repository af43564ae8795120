package dev.engram.bench.locomo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.engine.RecallSettings;
import org.junit.jupiter.api.Test;

class LocomoSettingsTest {

    @Test
    void flagsOverrideTheDefaults() {
        RecallSettings s = LocomoBench.settings(new String[] {"--depth", "40", "--alpha", "0.5", "--graph-hops", "1"});
        assertEquals(40, s.depth());
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
    }

    private static String rejected(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(args)).getMessage();
    }
}
