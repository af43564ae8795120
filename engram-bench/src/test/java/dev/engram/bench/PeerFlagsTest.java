package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `peer` and `latency` refuse bad flag values with exit 2 and a message naming the flag, before any server starts. */
class PeerFlagsTest {
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
    void badValuesAreNamed() {
        assertEquals("peer: --only must be engram or server-memory, got 'engarm'", refused("peer", "--only", "engarm"));
        assertEquals("peer: --warmup must be >= 0, got -5", refused("peer", "--warmup", "-5"));
        assertEquals("peer: --sizes must be whole numbers >= 1, got [1000, 0]", refused("peer", "--sizes", "1000,0"));
        assertEquals("peer: --writes and --searches must be >= 1", refused("peer", "--searches", "0"));
        assertEquals("peer: --block must be >= 1, got 0", refused("peer", "--block", "0"));
        assertEquals("peer: --corpus must be one of [short, current, both], got 'long'", refused("peer", "--corpus", "long"));
        assertTrue(refused("peer", "--warmup", "x").contains("--warmup"), "picocli names a value it cannot convert");
    }

    @Test
    void anUnknownEmbedderIsNamedBeforeAnyModelLoads() {
        assertEquals("latency: --embedder must be one of [minilm, e5-small-v2, bge-small-en-v1.5], got 'bert' (or none)",
                refused("latency", "--embedder", "bert"));
    }
}
