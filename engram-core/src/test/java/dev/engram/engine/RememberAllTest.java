package dev.engram.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.StoreException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
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
        MemoryStore failing = failingOnInsert(real, 3, inserts);
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

    /** The store, except that the {@code nth} insert of a transaction (counted across the test) fails as a full disk would. */
    private static MemoryStore failingOnInsert(MemoryStore store, int nth, AtomicInteger inserts) {
        return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[]{MemoryStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("write")) {
                        @SuppressWarnings("unchecked")
                        Function<StoreTransaction, Object> work = (Function<StoreTransaction, Object>) args[0];
                        return store.write(tx -> work.apply(failingTx(tx, nth, inserts)));
                    }
                    return invoke(method, store, args);
                });
    }

    private static StoreTransaction failingTx(StoreTransaction tx, int nth, AtomicInteger inserts) {
        return (StoreTransaction) Proxy.newProxyInstance(StoreTransaction.class.getClassLoader(),
                new Class<?>[]{StoreTransaction.class}, (proxy, method, args) -> {
                    if (method.getName().equals("insert") && inserts.incrementAndGet() == nth) {
                        throw new StoreException("insert memory " + ((Memory) args[0]).key() + ": disk full");
                    }
                    return invoke(method, tx, args);
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
