package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The peer benchmark's short corpus: seeded, one sentence each, one observation for server-memory. */
class ShortMemoryGeneratorTest {
    @Test
    void sameSeedSameEntitiesEachOneShortSentence() {
        List<SyntheticMemory> a = PeerBench.memories(PeerBench.Corpus.SHORT, 7, 500);
        assertEquals(a, PeerBench.memories(PeerBench.Corpus.SHORT, 7, 500));
        for (SyntheticMemory m : a) {
            String c = m.content();
            assertEquals(c, MemoryRules.content("content", c), "passes the engine's content rule");
            assertEquals(1, c.split("(?<=[.;])\\s+").length, "one observation for server-memory: " + c);
            int words = c.split("\\s+").length;
            assertTrue(words >= 4 && words <= 10, words + " words: " + c);
            assertEquals(MemoryType.FACT, m.type());
            assertTrue(m.tags().isEmpty() && m.file() == null, c);
        }
        assertTrue(a.stream().map(SyntheticMemory::content).distinct().count() > 400, "mostly distinct entities");
    }
}
