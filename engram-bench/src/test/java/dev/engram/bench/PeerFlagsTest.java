package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
    void aModelForTheServerMustBeOneItCarriesAndItsCacheAFolder(@TempDir Path dir) throws Exception {
        assertEquals("peer: --embedder must be one of [minilm, e5-small-v2, bge-small-en-v1.5], got 'bert' (or none)",
                BenchCli.refused("peer", "--embedder", "bert"));
        assertEquals("peer: --embedder bge-small-en-v1.5 is not bundled in Engram's jar; the server loads e5-small-v2 or minilm",
                BenchCli.refused("peer", "--embedder", "bge-small-en-v1.5"));
        assertEquals("peer: --embedding-cache keeps a model's vectors; give --embedder too (e5-small-v2 or minilm)",
                BenchCli.refused("peer", "--embedding-cache", dir.toString()));
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
        assertEquals("peer: --embedding-cache must be a folder, got the file " + file,
                BenchCli.refused("peer", "--embedder", "e5-small-v2", "--embedding-cache", file.toString()));
    }

    @Test
    void anUnknownEmbedderIsNamedBeforeAnyModelLoads() {
        assertEquals("latency: --embedder must be one of [minilm, e5-small-v2, bge-small-en-v1.5], got 'bert' (or none)",
                BenchCli.refused("latency", "--embedder", "bert"));
    }
}
