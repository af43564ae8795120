package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.MemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One thread catches up at a time; the others wait only for the change they need (docs/benchmarks.md §10). */
@org.junit.jupiter.api.Timeout(120)
class CatchUpTurnTest {
    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    /** The store, with a gate that, once armed, holds the next {@code changesSince} (the catch-up's first read). */
    private static final class GatedStore {
        final SqliteMemoryStore real;
        final MemoryStore store;
        final AtomicBoolean armed = new AtomicBoolean();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);

        GatedStore(Path dir) {
            real = SqliteMemoryStore.open(dir);
            store = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class},
                    (proxy, method, args) -> {
                        // the lease's own tick follows the feed too; only the threads a test starts are held
                        if (method.getName().equals("changesSince") && !Thread.currentThread().getName().startsWith("engram-index")
                                && armed.compareAndSet(true, false)) {
                            held.countDown();
                            open.await();
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }

        void insert(Memory m) {
            real.write(tx -> {
                tx.insert(m);
                return null;
            });
        }
    }

    private Memory memory(long n, String content) {
        return MemoryFixtures.minimal(clock, n, "work", content).build();
    }

    private static List<String> ids(List<IndexHit> hits) {
        return hits.stream().map(IndexHit::id).toList();
    }

    /** A catch-up held at the gate, and the memories inserted until one was held (the last is the one it reads). */
    private record Held<T>(Future<T> catchUp, List<Memory> inserted) {
        List<String> ids() {
            return inserted.stream().map(Memory::id).sorted().toList();
        }
    }

    /**
     * Inserts a memory saying {@code content} and starts {@code catchUp}, which the gate holds at its first read of the
     * feed. The lease's tick (every 100 ms, never held) may apply the insert first; the catch-up then has nothing to
     * read and never reaches the gate, so it is tried again with another memory, after {@code between} (the test's
     * own catch-up to what is there), until one is held.
     */
    private <T> Held<T> insertAndHold(GatedStore gated, long firstNumber, String content, java.util.concurrent.Callable<T> catchUp,
                                      Runnable between) throws Exception {
        List<Memory> inserted = new ArrayList<>();
        for (int attempt = 0; attempt < 20; attempt++) {
            between.run();
            Memory m = memory(firstNumber + attempt, content);
            gated.insert(m);
            inserted.add(m);
            gated.armed.set(true);
            Future<T> f = threads.submit(catchUp);
            if (gated.held.await(2, TimeUnit.SECONDS)) return new Held<>(f, inserted);
            gated.armed.set(false); // the tick applied it: nothing was left for this catch-up to read
            f.get(10, TimeUnit.SECONDS);
        }
        throw new AssertionError("no catch-up reached the gate in 20 tries");
    }

    @Test
    void aSearchNeedingWhatTheReaderHasDoesNotQueueBehindALaterCatchUp() throws Exception {
        GatedStore gated = new GatedStore(dir);
        try (LuceneSearchIndex index = LuceneSearchIndex.open(gated.store, dir.resolve("index")); AutoCloseable opened = gated.open::countDown) {
            Memory first = memory(1, "alpine meadow");
            gated.insert(first);
            long[] reflected = {0};
            // holds the turn, stuck reading the feed
            Held<Long> held = insertAndHold(gated, 2, "harbour crane", () -> index.catchUp(), () -> reflected[0] = index.catchUp());
            Future<Long> stuck = held.catchUp();

            // a search that started before `later` was written needs `reflected` only
            Future<Long> needed = threads.submit(() -> index.catchUpTo(reflected[0], Duration.ofSeconds(60)));
            assertEquals(reflected[0], needed.get(10, TimeUnit.SECONDS),
                    "returned while the other catch-up is still stuck, rather than waiting for it");

            gated.open.countDown();
            assertTrue(stuck.get(10, TimeUnit.SECONDS) > reflected[0]);
            assertEquals(held.ids(), ids(index.search(IndexQuery.text("crane", "work", 50))).stream().sorted().toList());
        } finally {
            gated.open.countDown();
            gated.real.close();
        }
    }

    @Test
    void aSearchDoesNotWaitWhileThisProcesssOwnWriteIsBeingIndexed() throws Exception {
        GatedStore gated = new GatedStore(dir);
        try (LuceneSearchIndex index = LuceneSearchIndex.open(gated.store, dir.resolve("index")); AutoCloseable opened = gated.open::countDown) {
            Memory first = memory(1, "alpine meadow");
            gated.insert(first);
            // the remember, not answered yet
            Held<Object> held = insertAndHold(gated, 2, "harbour crane", () -> {
                index.catchUpAfterWrite();
                return null;
            }, index::catchUp);
            Future<Object> writer = held.catchUp();

            Future<List<IndexHit>> search = threads.submit(() -> index.search(IndexQuery.text("meadow", "work", 5)));
            assertEquals(List.of(first.id()), ids(search.get(10, TimeUnit.SECONDS)), "searched the reader as it is");
            assertFalse(writer.isDone(), "the writer is still waiting for its change to be searchable");

            gated.open.countDown();
            writer.get(10, TimeUnit.SECONDS);
            assertEquals(held.ids(), ids(index.search(IndexQuery.text("crane", "work", 50))).stream().sorted().toList(),
                    "searchable once its writer returned");
        } finally {
            gated.open.countDown();
            gated.real.close();
        }
    }

    @Test
    void aSearchNeedingTheChangeBeingAppliedWaitsForItAndFindsIt() throws Exception {
        GatedStore gated = new GatedStore(dir);
        try (LuceneSearchIndex index = LuceneSearchIndex.open(gated.store, dir.resolve("index")); AutoCloseable opened = gated.open::countDown) {
            Held<Long> held = insertAndHold(gated, 1, "glacier lantern", () -> index.catchUp(), () -> { });
            Future<Long> owner = held.catchUp();

            Future<List<IndexHit>> search = threads.submit(() -> index.search(IndexQuery.text("lantern", "work", 50)));
            gated.open.countDown(); // the search may be waiting for the owner; it must not give up with an empty list
            assertEquals(held.ids(), ids(search.get(10, TimeUnit.SECONDS)).stream().sorted().toList(), "read-your-writes across the turn");
            owner.get(10, TimeUnit.SECONDS);
        } finally {
            gated.open.countDown();
            gated.real.close();
        }
    }

    @Test
    void everyWriterFindsItsOwnMemoryWhileOthersWriteAndSearch() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir);
             LuceneSearchIndex index = LuceneSearchIndex.open(store, dir.resolve("index"))) {
            int writers = 6;
            int each = 15;
            List<Future<List<String>>> misses = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < writers; t++) {
                int thread = t;
                misses.add(threads.submit(() -> {
                    start.await();
                    List<String> missed = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        String word = "mark" + thread + "x" + i;
                        Memory m = memory(1 + thread * 1000L + i, "note " + word);
                        store.write(tx -> {
                            tx.insert(m);
                            return null;
                        });
                        index.catchUpAfterWrite(); // what the engine does after a write; the search below must not miss it
                        List<String> found = ids(index.search(IndexQuery.text(word, "work", 50)));
                        if (!found.contains(m.id())) missed.add(word + " " + m.id() + " not in " + found);
                    }
                    return missed;
                }));
            }
            start.countDown();
            for (Future<List<String>> f : misses) assertEquals(List.of(), f.get(60, TimeUnit.SECONDS));
        }
    }
}
