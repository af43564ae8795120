package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** `peer` and `latency` refuse bad flag values with exit 2 and a message naming the flag, before any server starts. */
class PeerFlagsTest {
    @Test
    void badValuesAreNamed() {
        assertEquals("peer: --only must be engram or server-memory, got 'engarm'", BenchCli.refused("peer", "--only", "engarm"));
        assertEquals("peer: --warmup must be >= 0, got -5", BenchCli.refused("peer", "--warmup", "-5"));
        assertEquals("peer: --sizes must be whole numbers >= 1, got [1000, 0]", BenchCli.refused("peer", "--sizes", "1000,0"));
        assertEquals("peer: --writes and --searches must be >= 1", BenchCli.refused("peer", "--searches", "0"));
        assertEquals("peer: --block must be >= 1, got 0", BenchCli.refused("peer", "--block", "0"));
        assertEquals("peer: --corpus must be one of [short, current, both], got 'long'", BenchCli.refused("peer", "--corpus", "long"));
        assertTrue(BenchCli.refused("peer", "--warmup", "x").contains("--warmup"), "picocli names a value it cannot convert");
    }

    @Test
    void anUnknownEmbedderIsNamedBeforeAnyModelLoads() {
        assertEquals("latency: --embedder must be one of [minilm, e5-small-v2, bge-small-en-v1.5], got 'bert' (or none)",
                BenchCli.refused("latency", "--embedder", "bert"));
    }
}
