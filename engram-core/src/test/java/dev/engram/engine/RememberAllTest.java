package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.StoreException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.FailingStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Engine.rememberAll: one transaction for a batch, each item answered as remember would answer it. */
class RememberAllTest {
    private static RememberCommand fact(String content) {
        return RememberCommand.builder(content).type(MemoryType.FACT).build();
    }

    @Test
    void aBatchIsWrittenWithEachItemsOutcomeAndConflicts() {
        EngineFixture f = new EngineFixture();
        String stored = f.engine.remember(fact("The connection pool allows max 20 connections")).memory().id();
        List<RememberResult> results = f.engine.rememberAll(List.of(
                fact("The connection pool allows max 50 connections"),
                fact("Deploys happen on Tuesdays"),
                fact("Deploys do not happen on Tuesdays"),
                fact("Deploys happen on Tuesdays")));
        assertEquals(4, results.size());
        assertEquals(List.of(RememberResult.Outcome.CREATED, RememberResult.Outcome.CREATED, RememberResult.Outcome.CREATED,
                RememberResult.Outcome.MERGED), results.stream().map(RememberResult::outcome).toList());
        // against a stored memory, as single remember reports it
        assertEquals(stored, results.get(0).conflicts().get(0).id());
        assertEquals("max: 20 vs 50", results.get(0).conflicts().get(0).detail());
        // against an earlier item of the same batch (not in the index yet)
        assertEquals(results.get(1).memory().id(), results.get(2).conflicts().get(0).id());
        assertEquals("negation", results.get(2).conflicts().get(0).basis());
        assertEquals(results.get(1).memory().id(), results.get(3).memory().id(), "identical content merges into the earlier item");
        assertEquals(4, f.store.count());
    }

    @Test
    void theEpisodeChainRunsThroughTheBatchInOrder() {
        EngineFixture f = new EngineFixture();
        List<RememberResult> r = f.engine.rememberAll(List.of(
                RememberCommand.builder("First step of the task").session("s1").build(),
                RememberCommand.builder("Second step of the task").session("s1").build()));
        assertTrue(f.store.edges(r.get(1).memory().id()).stream().anyMatch(e -> e.type() == EdgeType.FOLLOWS
                && e.fromId().equals(r.get(1).memory().id()) && e.toId().equals(r.get(0).memory().id())));
        RememberResult next = f.engine.remember(RememberCommand.builder("Third step of the task").session("s1").build());
        assertTrue(f.store.edges(next.memory().id()).stream().anyMatch(e -> e.type() == EdgeType.FOLLOWS
                && e.toId().equals(r.get(1).memory().id())), "the tracker learnt the batch's last memory");
    }

    @Test
    void aBadItemRefusesTheBatchBeforeAnythingIsWritten() {
        EngineFixture f = new EngineFixture();
        RememberCommand bad = RememberCommand.builder("Links to nothing")
                .links(List.of(new LinkSpec(EdgeType.RELATED, "no-such-memory"))).build();
        assertThrows(dev.engram.error.NotFoundException.class,
                () -> f.engine.rememberAll(List.of(fact("A fine fact"), bad)));
        assertEquals(0, f.store.count(), "the first item is not kept either");
        assertThrows(InvalidArgumentException.class, () -> f.engine.rememberAll(List.of(fact("ok"),
                RememberCommand.builder("bad ttl").ttl("soon").build())));
        assertEquals(0, f.store.count());
    }

    @Test
    void aStorageFailurePartWayLeavesNothing() {
        MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
        InMemoryMemoryStore real = new InMemoryMemoryStore();
        AtomicInteger inserts = new AtomicInteger();
        MemoryStore failing = FailingStore.onInsert(real, 3, inserts);
        Engine engine = new Engine(failing, new InMemorySearchIndex(real), clock);
        engine.remember(fact("Stored before the batch"));
        inserts.set(0);
        StoreException e = assertThrows(StoreException.class, () -> engine.rememberAll(List.of(
                fact("Batch item one"), fact("Batch item two"), fact("Batch item three"), fact("Batch item four"))));
        assertTrue(e.getMessage().contains("disk full"), e.getMessage());
        assertEquals(1, real.count(), "neither the two items written before the failure nor any other is kept");
        List<String> contents = new java.util.ArrayList<>();
        real.forEach(null, m -> contents.add(m.content()));
        assertEquals(List.of("Stored before the batch"), contents);
    }
}
