package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Importance;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BriefingTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final EngineFixture f = new EngineFixture();

    @Test
    void statsCountByTypeZoneStatusTierAndQuality() {
        f.remember("w", "Never force push main", MemoryType.WARNING, List.of("git"));
        f.remember("d", "Use Postgres for the team server", MemoryType.DECISION, List.of("db"));
        f.remember("d2", "Use Postgres for the team server", MemoryType.DECISION, List.of("db"));
        f.engine.remember(new RememberCommand("Short lived", "t", null, List.of("x"), "scratch", null, "1h", null,
                null, null, null, false, null, null));
        f.engine.forget(new ForgetCommand("d2", null, ForgetAction.SOFT));
        f.engine.pin(new PinCommand("w", null, 1));
        f.engine.recall(EngineFixture.query("force push"), COST);
        f.clock.advance(Duration.ofHours(2));

        StatsResult all = f.engine.stats(null);
        assertEquals(4, all.total());
        assertEquals(2L, all.byType().get("decision"));
        assertEquals(3L, all.byZone().get("default"));
        assertEquals(1L, all.byStatus().get("archived"));
        assertEquals(4L, all.byTier().get("hot"));
        assertEquals(1, all.withTtl());
        assertEquals(1, all.expired());
        assertEquals(1, all.pinned());
        assertEquals(0.25, all.hitRate());
        assertEquals(0.25, all.duplicateRate());
        assertEquals(4, all.qualityBuckets().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(1, f.engine.stats("scratch").total());
    }

    @Test
    void contextPutsPinnedWarningsImportantAndRecentUnderTheBudget() {
        f.remember("pin", "Run tests with mvn verify", MemoryType.PROCEDURE, List.of("test"));
        f.engine.pin(new PinCommand("pin", null, 1));
        f.remember("warn", "Do not edit generated sources", MemoryType.WARNING, List.of("build"));
        f.remember("imp", "The store is SQLite plus Lucene", Importance.CRITICAL);
        List<String> filler = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            f.clock.advance(Duration.ofMinutes(1));
            filler.add(f.remember("note-" + i, "Routine note number " + i + " about nothing in particular at all",
                    MemoryType.FACT, List.of("x")).memory().key());
        }
        ContextResult c = f.engine.context(new ContextQuery(null, 200, null), COST);
        assertEquals(List.of("pin"), c.pinned().stream().map(m -> m.key()).toList());
        assertEquals(List.of("warn"), c.warnings().stream().map(m -> m.key()).toList());
        assertEquals(List.of("imp"), c.important().stream().map(m -> m.key()).toList());
        assertEquals("note-39", c.recent().get(0).key(), "most recent first");
        assertTrue(c.tokens() <= 200, "tokens " + c.tokens());
        assertEquals(43, c.totalActive());

        ContextResult focused = f.engine.context(new ContextQuery(null, 400, "generated sources"), COST);
        assertTrue(focused.relevant().isEmpty() || focused.relevant().stream().noneMatch(m -> m.key().equals("warn")),
                "a memory appears in one section only");
    }

    @Test
    void theBriefingCutsByTheCallersCostAndItsTaskRecallUsesTheSameCost() {
        for (int i = 0; i < 5; i++) {
            f.clock.advance(Duration.ofMinutes(1));
            f.remember("note-" + i, "Routine note number " + i + " about generated sources", MemoryType.FACT, List.of("x"));
        }
        int[] recalledPrices = {0};
        ResultCost thousandEach = new ResultCost() {
            @Override
            public int recalled(RecalledMemory result, RecallMode mode, int rank) {
                recalledPrices[0]++;
                return 1000;
            }

            @Override
            public int briefingLine(dev.engram.memory.Memory memory) {
                return 1000;
            }
        };
        ContextResult none = f.engine.context(new ContextQuery(null, 500, "generated sources"), thousandEach);
        assertEquals(0, none.recent().size() + none.relevant().size(), "no line fits 500 tokens at 1000 each");
        assertEquals(0, none.tokens());
        assertTrue(recalledPrices[0] > 0, "the task's recall is priced by the caller's cost too");

        ContextResult two = f.engine.context(new ContextQuery(null, 2500, null), thousandEach);
        assertEquals(List.of("note-4", "note-3"), two.recent().stream().map(m -> m.key()).toList());
        assertEquals(2000, two.tokens());
    }
}
