package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.MemoryFixtures;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReaderPoolTest {
    @TempDir
    Path dir;

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    private Connection connect() throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("pool.db"));
    }

    @Test
    void readsOnDifferentThreadsRunSideBySide() throws Exception {
        try (ReaderPool pool = new ReaderPool(List.of(connect(), connect()))) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            Future<Connection> first = threads.submit(() -> pool.read("held", r -> {
                inside.countDown();
                awaitQuietly(leave);
                return r.connection();
            }));
            assertTrue(inside.await(10, TimeUnit.SECONDS));
            // with one lock for every read this would wait for `first` to leave
            Future<Connection> second = threads.submit(() -> pool.read("beside", r -> {
                try (var st = r.connection().createStatement(); var rs = st.executeQuery("SELECT 1")) {
                    rs.next();
                }
                return r.connection();
            }));
            Connection other = second.get(10, TimeUnit.SECONDS);
            assertFalse(first.isDone(), "the first read is still inside");
            leave.countDown();
            assertNotSame(first.get(10, TimeUnit.SECONDS), other, "each read had a connection of its own");
        }
    }

    @Test
    void aReadWaitsForAConnectionWhenAllAreLent() throws Exception {
        try (ReaderPool pool = new ReaderPool(List.of(connect()))) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            Future<Integer> first = threads.submit(() -> pool.read("held", r -> {
                inside.countDown();
                awaitQuietly(leave);
                return 1;
            }));
            assertTrue(inside.await(10, TimeUnit.SECONDS));
            Future<Integer> second = threads.submit(() -> pool.read("queued", r -> 2));
            leave.countDown();
            assertEquals(1, first.get(10, TimeUnit.SECONDS));
            assertEquals(2, second.get(10, TimeUnit.SECONDS), "the connection was given back and lent again");
        }
    }

    @Test
    void theStoreServesConcurrentReadersTheSameRows() throws Exception {
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("store"))) {
            List<Memory> written = new java.util.ArrayList<>();
            for (int i = 1; i <= 50; i++) written.add(MemoryFixtures.minimal(clock, i, "work", "row " + i).build());
            store.write(tx -> {
                written.forEach(tx::insert);
                return null;
            });
            List<String> ids = written.stream().map(Memory::id).toList();
            List<Future<List<String>>> reads = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                reads.add(threads.submit(() -> {
                    List<String> last = null;
                    for (int i = 0; i < 50; i++) last = store.getAll(ids).stream().map(Memory::id).toList();
                    return last;
                }));
            }
            for (Future<List<String>> f : reads) assertEquals(ids, f.get(60, TimeUnit.SECONDS));
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
