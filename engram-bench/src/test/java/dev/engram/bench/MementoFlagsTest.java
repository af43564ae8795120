package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** `memento` refuses bad flag values with exit 2 and a message naming the flag, before any model loads. */
class MementoFlagsTest {
    @Test
    void aThresholdOutsideZeroToOneIsRefused() {
        for (String bad : new String[] {"0", "1.5", "-0.2", "0.3,2"}) {
            String message = BenchCli.refused("memento", "--part", "month", "--threshold", bad);
            assertTrue(message.contains("--threshold values must be in (0, 1]"), bad + ": " + message);
        }
    }

    @Test
    void aThresholdThatIsNotANumberIsRefusedByTheParser() {
        String message = BenchCli.refused("memento", "--part", "month", "--threshold", "high");
        assertTrue(message.contains("--threshold") && message.contains("high"), message);
    }

    @Test
    void anUnknownPartIsRefused() {
        assertTrue(BenchCli.refused("memento", "--part", "week").contains("--part must be locomo, month or both"));
    }
}
