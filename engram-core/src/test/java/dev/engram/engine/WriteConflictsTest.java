package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Importance;
import dev.engram.memory.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contradiction-on-write: remember says which existing memories the new content may contradict, and still writes. */
class WriteConflictsTest {
    private final EngineFixture f = new EngineFixture();

    private RememberResult remember(String key, String content, MemoryType type, Importance importance) {
        return f.engine.remember(RememberCommand.builder(content).key(key).type(type).importance(importance).build());
    }

    @Test
    void disagreeingValuesAreReportedAndTheWriteGoesThrough() {
        RememberResult first = remember("pool-a", "The connection pool allows max 20 connections", MemoryType.FACT, null);
        assertEquals(List.of(), first.conflicts(), "nothing to contradict yet");
        RememberResult second = remember("pool-b", "The connection pool allows max 50 connections", MemoryType.FACT, null);
        assertEquals(RememberResult.Outcome.CREATED, second.outcome());
        assertEquals(1, second.conflicts().size(), second.conflicts().toString());
        RememberResult.Conflict c = second.conflicts().get(0);
        assertEquals(first.memory().id(), c.id());
        assertEquals("values", c.basis());
        assertEquals("max: 20 vs 50", c.detail());
        assertEquals("The connection pool allows max 20 connections", c.content());
        assertTrue(f.store.edges(second.memory().id()).isEmpty(), "remember reports; it links nothing");
    }

    @Test
    void negationAndToonsOverlapWithWarningsAndStrongMemories() {
        remember("redis-sessions", "The api uses Redis for sessions", MemoryType.DECISION, null);
        RememberResult neg = remember("no-redis", "The api does not use Redis for sessions", MemoryType.FACT, null);
        assertEquals("negation", neg.conflicts().get(0).basis());

        remember("friday-deploys", "Deploying the billing service on Friday evenings broke invoices", MemoryType.WARNING, null);
        RememberResult overlap = remember("deploy-plan", "Deploying the billing service every Friday", MemoryType.FACT, null);
        assertEquals(1, overlap.conflicts().size(), overlap.conflicts().toString());
        assertEquals("overlap", overlap.conflicts().get(0).basis());
        assertTrue(overlap.conflicts().get(0).detail().contains("warning"));

        remember("auth-jwt", "Authentication uses signed JWT tokens in cookies", MemoryType.DECISION, Importance.CRITICAL);
        RememberResult strong = remember("auth-note", "Authentication tokens in cookies expire hourly", MemoryType.FACT, null);
        assertTrue(strong.conflicts().stream().anyMatch(c -> c.key().equals("auth-jwt") && c.basis().equals("overlap")),
                strong.conflicts().toString());
    }

    @Test
    void unrelatedOrOrdinaryMemoriesAreNoConflict() {
        remember("lint", "The linter runs on every commit", MemoryType.FACT, null);
        remember("db", "Postgres holds the billing data", MemoryType.FACT, Importance.LOW);
        assertEquals(List.of(), remember("ci", "The linter config lives in the repo root", MemoryType.FACT, null).conflicts());
        RememberResult same = remember("lint", "The linter runs on every commit", MemoryType.FACT, null);
        assertEquals(List.of(), same.conflicts(), "a memory never conflicts with itself");
    }
}
