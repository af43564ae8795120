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

    @Test
    void aSearchNeedingWhatTheReaderHasDoesNotQueueBehindALaterCatchUp() throws Exception {
        GatedStore gated = new GatedStore(dir);
        try (LuceneSearchIndex index = LuceneSearchIndex.open(gated.store, dir.resolve("index")); AutoCloseable opened = gated.open::countDown) {
            Memory first = memory(1, "alpine meadow");
            gated.insert(first);
            long reflected = index.catchUp();
            Memory later = memory(2, "harbour crane");
            gated.insert(later);

            gated.armed.set(true);
            Future<Long> stuck = threads.submit(() -> index.catchUp()); // holds the turn, stuck reading the feed
            assertTrue(gated.held.await(10, TimeUnit.SECONDS), "the catch-up reached the gate");

            // a search that started before `later` was written needs `reflected` only
            Future<Long> needed = threads.submit(() -> index.catchUpTo(reflected, Duration.ofSeconds(60)));
            assertEquals(reflected, needed.get(10, TimeUnit.SECONDS),
                    "returned while the other catch-up is still stuck, rather than waiting for it");

            gated.open.countDown();
            assertTrue(stuck.get(10, TimeUnit.SECONDS) > reflected);
            assertEquals(List.of(later.id()), ids(index.search(IndexQuery.text("crane", "work", 5))));
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
            index.catchUp();
            Memory later = memory(2, "harbour crane");
            gated.insert(later);

            gated.armed.set(true);
            Future<?> writer = threads.submit(index::catchUpAfterWrite); // the remember, not answered yet
            assertTrue(gated.held.await(10, TimeUnit.SECONDS), "the writer's catch-up reached the gate");

            Future<List<IndexHit>> search = threads.submit(() -> index.search(IndexQuery.text("meadow", "work", 5)));
            assertEquals(List.of(first.id()), ids(search.get(10, TimeUnit.SECONDS)), "searched the reader as it is");
            assertFalse(writer.isDone(), "the writer is still waiting for its change to be searchable");

            gated.open.countDown();
            writer.get(10, TimeUnit.SECONDS);
            assertEquals(List.of(later.id()), ids(index.search(IndexQuery.text("crane", "work", 5))),
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
            Memory fresh = memory(1, "glacier lantern");
            gated.insert(fresh);
            gated.armed.set(true);
            Future<Long> owner = threads.submit(() -> index.catchUp());
            assertTrue(gated.held.await(10, TimeUnit.SECONDS));

            Future<List<IndexHit>> search = threads.submit(() -> index.search(IndexQuery.text("lantern", "work", 5)));
            gated.open.countDown(); // the search may be waiting for the owner; it must not give up with an empty list
            assertEquals(List.of(fresh.id()), ids(search.get(10, TimeUnit.SECONDS)), "read-your-writes across the turn");
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
