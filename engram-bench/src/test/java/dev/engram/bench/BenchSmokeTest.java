package dev.engram.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.testing.InMemoryMemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Benchmarks are not tests; this only checks that the generator, loader and table printer work at N=200. */
class BenchSmokeTest {

    @Test
    void sameSeedGivesSameMemoriesAndQueries() {
        MemoryGenerator a = new MemoryGenerator(7);
        MemoryGenerator b = new MemoryGenerator(7);
        for (int i = 0; i < 200; i++) {
            assertEquals(a.next(), b.next());
            assertEquals(a.query(), b.query());
        }
    }

    @Test
    void generatedMemoriesPassTheEngineRules() {
        MemoryGenerator g = new MemoryGenerator(1);
        BulkLoader loader = new BulkLoader(1);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            SyntheticMemory s = g.next();
            assertEquals(s.content(), MemoryRules.content("content", s.content()));
            assertEquals(s.tags(), MemoryRules.tags("tags", s.tags()));
            Memory m = loader.toMemory(s, i, Instant.parse("2026-11-29T00:00:00Z"));
            assertTrue(MemoryRules.isId(m.id()), m.id());
            assertTrue(MemoryRules.isKey(m.key()), m.key());
            assertTrue(ids.add(m.id()), "duplicate id " + m.id());
            String q = g.query();
            int words = q.split(" ").length;
            assertTrue(words >= 2 && words <= 4, q);
        }
    }

    @Test
    void latencyBenchPrintsOneRowPerSize(@TempDir Path dir) throws Exception {
        OpenedStore.Opener fake = (d, clock) -> {
            InMemoryMemoryStore store = new InMemoryMemoryStore();
            return new OpenedStore(store, new dev.engram.testing.InMemorySearchIndex(store), store);
        };
        var log = new PrintStream(new ByteArrayOutputStream());
        var rows = new LatencyBench(fake, log).run(new LatencyBench.Settings(List.of(200), 20, 20, 5, 3, dir));
        String table = LatencyBench.table(rows);
        assertEquals(1, rows.size());
        assertTrue(rows.get(0).meanResults() > 0, "queries should hit generated memories");
        assertTrue(table.lines().anyMatch(l -> l.startsWith("| 200 ")), table);
    }

    @Test
    void markdownTableRejectsRaggedRowsAndEscapesPipes() {
        MarkdownTable t = new MarkdownTable("a", "b").row("x|y", 1);
        assertTrue(t.render().contains("x\\|y"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> t.row("only one"));
    }
}
