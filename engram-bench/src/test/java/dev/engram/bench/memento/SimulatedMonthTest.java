package dev.engram.bench.memento;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The simulated month: deterministic, in order, and both arms run to the end through the memento tools (lexical). */
class SimulatedMonthTest {
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");

    @Test
    void theSameSeedGivesTheSameMonthInTimeOrder() {
        AgentMonth.Month a = AgentMonth.generate(7, START, 30), b = AgentMonth.generate(7, START, 30);
        assertEquals(a, b);
        assertNotEquals(a, AgentMonth.generate(8, START, 30));
        for (int i = 1; i < a.writes().size(); i++) assertTrue(!a.writes().get(i).at().isBefore(a.writes().get(i - 1).at()));
        assertTrue(a.writes().stream().allMatch(w -> w.content().length() <= 300 && !w.at().isAfter(a.end())));
        assertEquals(80, a.probes().size());
        assertEquals(10, a.probes().stream().filter(p -> p.stale() != null).count(), "two facts changed in half the topics");
        assertTrue(a.writes().stream().anyMatch(w -> w.kind().equals("repeat")));
    }

    @Test
    void bothArmsAnswerEveryQuestionAndOnlyTheMaintainedOneRunsCycles(@TempDir Path dir) throws Exception {
        AgentMonth.Month month = AgentMonth.generate(3, START, 15, 2);
        SimulatedMonth.Arm never = SimulatedMonth.arm("never", false, month, null, dir, System.err);
        SimulatedMonth.Arm maintained = SimulatedMonth.arm("maintained", true, month, null, dir, System.err);
        assertEquals(0, never.cycles());
        assertEquals(15 * 4 + 1, maintained.cycles(), "every 6 hours of the month and its last hour");
        assertEquals(month.probes().size(), never.probes());
        assertTrue(maintained.changedByStep().getOrDefault("decay", 0) > 0, maintained.toString());
        assertTrue(never.hits() > month.probes().size() / 2, never.toString());
        assertTrue(maintained.memories() <= never.memories(), maintained + " vs " + never);
        String table = SimulatedMonth.table(month, List.of(never, maintained), 3, 15, "none");
        assertTrue(table.contains("| never |") && table.contains("| maintained |"), table);
    }

    @Test
    void aThresholdOnlyLeavesFragmentsOutOfTheAnswer(@TempDir Path dir) throws Exception {
        AgentMonth.Month month = AgentMonth.generate(3, START, 15, 2);
        SimulatedMonth.Arm all = SimulatedMonth.arm("never", false, month, null, dir, System.err, null);
        SimulatedMonth.Arm strict = SimulatedMonth.arm("never, threshold 0.9", false, month, null, dir, System.err, 0.9);
        assertEquals(all.memories(), strict.memories(), "the same store");
        assertTrue(strict.tokens() < all.tokens(), strict + " vs " + all);
    }

    @Test
    void aValueCountsAsAWordAndARepresentativeStatesItsKeepersFact() {
        assertEquals(1, SimulatedMonth.firstWith(List.of("max 400 connections", "max 40 connections"), "40"));
        assertEquals(-1, SimulatedMonth.firstWith(List.of("Go is fine"), "Goal"));
        assertEquals("b/1", SimulatedMonth.factOf(Map.of("A fact.", "a/0", "The billing note.", "b/1"),
                "The billing note. Also: another detail."));
    }
}
