package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Lock contention on one database file: writers wait and retry instead of failing. */
class SqliteLockingTest {
    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private final AtomicLong next = new AtomicLong(1);

    private Memory memory() {
        return MemoryFixtures.minimal(clock, next.getAndIncrement(), "work", "x").build();
    }

    private static void insert(SqliteMemoryStore store, Memory m) {
        store.write(tx -> {
            tx.insert(m);
            return null;
        });
    }

    /** Holds SQLite's write lock from a foreign connection, as another process would, for {@code ms}. */
    private Thread holdWriteLock(long ms) throws Exception {
        Connection foreign = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
        try (Statement st = foreign.createStatement()) {
            st.execute("BEGIN IMMEDIATE");
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(ms);
                try (Statement st = foreign.createStatement()) {
                    st.execute("COMMIT");
                }
                foreign.close();
            } catch (InterruptedException | SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        return t;
    }

    @Test
    @Timeout(30)
    void aWriteWaitsPastTheBusyTimeoutForALongForeignTransaction() throws Exception {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            Thread holder = holdWriteLock(3_000); // longer than busy_timeout, so the retry loop must act
            long start = System.nanoTime();
            Memory m = memory();
            insert(store, m);
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMs >= 2_500, "write returned after " + waitedMs + " ms, while the lock was held");
            assertTrue(store.get(m.id()).isPresent());
            holder.join();
        }
    }

    @Test
    @Timeout(30)
    void aLockHeldBeyondTheWaitFailsWithAStoreExceptionNamingTheOperation() throws Exception {
        SqliteMemoryStore.open(dir).close();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir, new SchemaMigrations(SchemaMigrations.STEPS),
                Duration.ofMillis(300))) {
            Thread holder = holdWriteLock(4_000);
            StoreException e = assertThrows(StoreException.class, () -> insert(store, memory()));
            assertTrue(e.getMessage().startsWith("write "), e.getMessage());
            assertTrue(e.getMessage().contains("locked by another process after 300 ms"), e.getMessage());
            holder.join();
            Memory m = memory();
            insert(store, m);
            assertTrue(store.get(m.id()).isPresent(), "the store works again once the lock is free");
        }
    }

    @Test
    void aWriteInsideAWriteIsRefusedAndTheOuterWorkRolledBack() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            Memory outer = memory();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.write(tx -> {
                tx.insert(outer);
                return store.write(inner -> null);
            }));
            assertTrue(e.getMessage().contains("inside another write"), e.getMessage());
            assertTrue(store.get(outer.id()).isEmpty());
            assertEquals(0, store.headSeq());
        }
    }

    @Test
    @Timeout(60)
    void concurrentWritersOnTwoConnectionsLoseNothingAndKeepTheFeedGapFree() throws Exception {
        int threads = 4;
        int perThread = 40;
        try (SqliteMemoryStore a = SqliteMemoryStore.open(dir); SqliteMemoryStore b = SqliteMemoryStore.open(dir)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SqliteMemoryStore target = t % 2 == 0 ? a : b;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) insert(target, memory());
                }));
            }
            for (Future<?> f : done) f.get(50, TimeUnit.SECONDS);
            pool.shutdown();
            assertEquals(threads * perThread, a.count());
            List<Change> feed = b.changesSince(0, 10_000);
            assertEquals(threads * perThread, feed.size());
            for (int i = 0; i < feed.size(); i++) assertEquals(i + 1, feed.get(i).seq());
        }
    }
}
