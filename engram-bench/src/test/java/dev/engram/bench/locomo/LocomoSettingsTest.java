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
        assertEquals("--depth must be a whole number, got 'x'",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(new String[] {"--depth", "x"})).getMessage());
        assertEquals("--depth must be a whole number, got '40.5'",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(new String[] {"--depth", "40.5"})).getMessage());
        assertEquals("--alpha must be a number, got 'half'",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(new String[] {"--alpha", "half"})).getMessage());
    }

    @Test
    void aNumberOutOfRangeGetsTheSettingsOwnMessage() {
        assertEquals("depth must be >= 10, got 5",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(new String[] {"--depth", "5"})).getMessage());
        assertEquals("lexicalWeight must be 0..1, got 1.5",
                assertThrows(IllegalArgumentException.class, () -> LocomoBench.settings(new String[] {"--alpha", "1.5"})).getMessage());
    }
}
