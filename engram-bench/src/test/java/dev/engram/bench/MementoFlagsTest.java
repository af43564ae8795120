package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `memento` refuses bad flag values with exit 2 and a message naming the flag, before any model loads. */
class MementoFlagsTest {
    private static String refused(String... args) {
        PrintStream before = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(2, new CommandLine(new Main()).execute(args), String.join(" ", args));
        } finally {
            System.setErr(before);
        }
        return err.toString(StandardCharsets.UTF_8).strip();
    }

    @Test
    void aThresholdOutsideZeroToOneIsRefused() {
        for (String bad : new String[] {"0", "1.5", "-0.2", "0.3,2"}) {
            String message = refused("memento", "--part", "month", "--threshold", bad);
            assertTrue(message.contains("--threshold values must be in (0, 1]"), bad + ": " + message);
        }
    }

    @Test
    void aThresholdThatIsNotANumberIsRefusedByTheParser() {
        String message = refused("memento", "--part", "month", "--threshold", "high");
        assertTrue(message.contains("--threshold") && message.contains("high"), message);
    }

    @Test
    void anUnknownPartIsRefused() {
        assertTrue(refused("memento", "--part", "week").contains("--part must be locomo, month or both"));
    }
}
