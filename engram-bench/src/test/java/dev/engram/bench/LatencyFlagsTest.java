package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `latency` refuses an --embedding-cache it cannot use with exit 2 and a message naming the flag, before any model loads. */
class LatencyFlagsTest {
    @Test
    void aVectorCacheNeedsAModelAndAFolder(@TempDir Path dir) throws Exception {
        assertEquals("latency: --embedding-cache keeps a model's vectors; give --embedder too (e5-small-v2, minilm"
                + " or bge-small-en-v1.5)", BenchCli.refused("latency", "--sizes", "10", "--embedding-cache", dir.toString()));
        Path file = Files.writeString(dir.resolve("not-a-folder"), "x");
        assertEquals("latency: --embedding-cache must be a folder, got the file " + file,
                BenchCli.refused("latency", "--sizes", "10", "--embedder", "e5-small-v2", "--embedding-cache", file.toString()));
    }
}
