package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.testing.PlainCost;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class LifecycleTest {
    private static final PlainCost COST = PlainCost.INSTANCE;

    private final EngineFixture f = new EngineFixture();

    private int hits(String q) {
        return f.engine.recall(EngineFixture.query(q), COST).results().size();
    }

    @Test
    void softForgetArchivesRestoreBringsBackHardDeletes() {
        RememberResult r = f.remember("flaky", "The checkout test is flaky on CI", MemoryType.ERROR, List.of("test"));
        ForgetResult soft = f.engine.forget(new ForgetCommand("flaky", null, ForgetAction.SOFT));
        assertEquals(MemoryStatus.ARCHIVED, soft.memory().status());
        assertEquals(0, hits("checkout flaky"));
        var again = assertThrows(ConflictException.class, () -> f.engine.forget(new ForgetCommand("flaky", null, ForgetAction.SOFT)));
        assertTrue(again.getMessage().contains("already archived"), again.getMessage());

        f.engine.forget(new ForgetCommand(r.memory().id(), null, ForgetAction.RESTORE));
        assertEquals(1, hits("checkout flaky"));
        var active = assertThrows(ConflictException.class, () -> f.engine.forget(new ForgetCommand("flaky", null, ForgetAction.RESTORE)));
        assertTrue(active.getMessage().contains("is active"), active.getMessage());

        f.engine.forget(new ForgetCommand("flaky", null, ForgetAction.HARD));
        assertEquals(0, hits("checkout flaky"));
        assertTrue(f.store.get(r.memory().id()).isEmpty());
        var gone = assertThrows(NotFoundException.class, () -> f.engine.forget(new ForgetCommand("flaky", null, ForgetAction.HARD)));
        assertTrue(gone.getMessage().startsWith("no memory with id or key 'flaky' in zone 'default'"), gone.getMessage());
    }

    @Test
    void amendKeepsIdAndEdgesAndRecordsEveryPreviousVersion() {
        RememberResult a = f.remember("cause", "Timeouts came from DNS", MemoryType.ERROR, List.of("network"));
        RememberResult b = f.remember("fix", "Cache DNS lookups", MemoryType.DECISION, List.of("network"));
        f.engine.link(new LinkCommand("cause", "fix", EdgeType.RESOLVED_BY, null, false));
        f.clock.advance(Duration.ofHours(1));
        AmendResult first = f.engine.amend(new AmendCommand("cause", null, "Timeouts came from slow DNS", null, null));
        f.clock.advance(Duration.ofHours(1));
        AmendResult second = f.engine.amend(new AmendCommand(a.memory().id(), null, null, List.of("network", "dns"), Importance.HIGH));
        assertEquals(a.memory().id(), second.memory().id());
        assertEquals("Timeouts came from slow DNS", second.memory().content());
        assertEquals(List.of("network", "dns"), second.memory().tags());
        assertEquals(Importance.HIGH, second.memory().importance());
        assertEquals(2, second.history().size());
        assertEquals("Timeouts came from DNS", second.history().get(0).content());
        assertEquals(1, second.history().get(0).version());
        assertEquals(List.of("network"), second.history().get(1).tags());
        assertEquals(1, first.history().size());
        assertEquals(b.memory().id(), f.store.edges(a.memory().id()).get(0).toId(), "edges survive amend");
        var nothing = assertThrows(InvalidArgumentException.class, () -> new AmendCommand("cause", null, null, null, null));
        assertTrue(nothing.getMessage().contains("send at least one"), nothing.getMessage());
    }

    @Test
    void linkNeedsBothEndsAndUnlinkRemoves() {
        f.remember("a", "Memory A about builds", MemoryType.FACT, List.of("build"));
        f.remember("b", "Memory B about builds", MemoryType.FACT, List.of("build"));
        LinkResult link = f.engine.link(new LinkCommand("a", "b", EdgeType.DEPENDS_ON, null, false));
        assertTrue(link.changed());
        assertFalse(f.engine.link(new LinkCommand("a", "b", EdgeType.DEPENDS_ON, null, false)).changed(), "idempotent");
        var missing = assertThrows(NotFoundException.class, () -> f.engine.link(new LinkCommand("a", "zzz", null, null, false)));
        assertTrue(missing.getMessage().contains("'zzz'"), missing.getMessage());
        var self = assertThrows(InvalidArgumentException.class, () -> f.engine.link(new LinkCommand("a", "a", null, null, false)));
        assertTrue(self.getMessage().startsWith("to names the same memory as from"), self.getMessage());
        assertTrue(f.engine.link(new LinkCommand("a", "b", EdgeType.DEPENDS_ON, null, true)).changed());
        assertTrue(f.store.edges(link.from().id()).isEmpty());
    }

    @Test
    void supersedesRetiresTheTargetAndUnlinkRevivesIt() {
        f.remember("old", "Use library X", MemoryType.DECISION, List.of("build"));
        f.remember("new", "Use library Y instead of X", MemoryType.DECISION, List.of("build"));
        LinkResult r = f.engine.link(new LinkCommand("new", "old", EdgeType.SUPERSEDES, null, false));
        assertEquals(MemoryStatus.SUPERSEDED, r.to().status());
        assertEquals(r.from().id(), r.to().supersededBy());
        LinkResult undo = f.engine.link(new LinkCommand("new", "old", EdgeType.SUPERSEDES, null, true));
        assertEquals(MemoryStatus.ACTIVE, undo.to().status());
    }

    @Test
    void exploreWalksOneOrTwoHopsWithHalvingWeights() {
        f.remember("center", "Center node", MemoryType.FACT, List.of("x"));
        f.remember("near", "Near node", MemoryType.FACT, List.of("x"));
        f.remember("far", "Far node", MemoryType.FACT, List.of("x"));
        f.remember("farther", "Farther node", MemoryType.FACT, List.of("x"));
        f.engine.link(new LinkCommand("center", "near", EdgeType.CAUSED_BY, null, false));
        f.engine.link(new LinkCommand("far", "near", EdgeType.RELATED, null, false));
        f.engine.link(new LinkCommand("far", "farther", EdgeType.RELATED, null, false));
        ExploreResult one = f.engine.explore(new ExploreQuery("center", null, 1));
        assertEquals(List.of("near"), one.neighbours().stream().map(n -> n.memory().key()).toList());
        assertEquals(0.5, one.neighbours().get(0).weight());
        assertTrue(one.neighbours().get(0).outgoing());
        ExploreResult two = f.engine.explore(new ExploreQuery("center", null, 2));
        assertEquals(List.of("near", "far"), two.neighbours().stream().map(n -> n.memory().key()).toList());
        assertEquals(0.25, two.neighbours().get(1).weight());
        var hops = assertThrows(InvalidArgumentException.class, () -> new ExploreQuery("center", null, 3));
        assertEquals("hops must be 1 or 2, got 3", hops.getMessage());
    }

    @Test
    void pinAndUnpin() {
        f.remember("p", "Pinned fact", MemoryType.FACT, List.of("x"));
        assertEquals(2, f.engine.pin(new PinCommand("p", null, 2)).pinPriority());
        assertEquals(1, f.store.pinned("default").size());
        assertEquals(0, f.engine.pin(new PinCommand("p", null, 0)).pinPriority());
        assertTrue(f.store.pinned("default").isEmpty());
        var bad = assertThrows(InvalidArgumentException.class, () -> new PinCommand("p", null, 9));
        assertEquals("priority must be 0..5, got 9", bad.getMessage());
    }
}
