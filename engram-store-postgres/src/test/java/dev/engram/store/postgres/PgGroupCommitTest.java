package dev.engram.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryFixtures;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Writes committed together on PostgreSQL: held back by the cluster's write lock, taken from another connection,
 * the writes queue, and then go in one transaction where a refused one is undone alone.
 */
class PgGroupCommitTest {
    private final Clock clock = Clock.fixed(Instant.parse("2026-12-07T12:00:00Z"), ZoneOffset.UTC);
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final PostgresLocation location = TestDatabase.freshSchema();
    private final PostgresMemoryStore store = PostgresMemoryStore.open(location);

    @AfterEach
    void close() {
        threads.shutdownNow();
        store.close();
    }

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    private Memory memory(int n) {
        return MemoryFixtures.minimal(clock, n, "work", "memory " + n).build();
    }

    @Test
    @Timeout(60)
    void writesQueuedBehindTheLockCommitTogetherAndARefusedOneLeavesNothing() throws Exception {
        Memory taken = memory(1);
        store.write(tx -> {
            tx.insert(taken);
            return null;
        });
        long head = store.headSeq();
        List<Future<?>> writes = new ArrayList<>();
        Future<?> refused;
        try (Connection other = TestDatabase.connect(location)) {
            other.setAutoCommit(false);
            try (Statement st = other.createStatement()) {
                st.execute("SELECT pg_advisory_xact_lock(" + PgSchema.LOCK_CLASS + ", " + location.schema().hashCode() + ")");
            }
            // the first waits for the lock on its connection; the others queue behind it
            writes.add(threads.submit(() -> store.write(tx -> {
                tx.insert(memory(2));
                return null;
            })));
            for (int n = 3; n <= 8; n++) {
                Memory m = memory(n);
                writes.add(threads.submit(() -> store.write(tx -> {
                    tx.insert(m);
                    return null;
                })));
            }
            // writes a memory, then takes a key that is already held: refused, and its first insert is undone with it
            refused = threads.submit(() -> store.write(tx -> {
                tx.insert(memory(9));
                tx.insert(MemoryFixtures.minimal(clock, 10, "work", "another").key(taken.key()).build());
                return null;
            }));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (store.queuedWrites() < 7 && System.nanoTime() < deadline) Thread.sleep(5);
            assertEquals(7, store.queuedWrites(), "seven writes queued behind the one waiting for the lock");
            other.rollback();
        }
        for (Future<?> f : writes) f.get(20, TimeUnit.SECONDS);
        ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(20, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof ConflictException, "the refusal reaches its caller: " + e.getCause());

        for (int n = 2; n <= 8; n++) assertTrue(store.get(MemoryFixtures.id(n)).isPresent(), "memory " + n + " committed");
        assertTrue(store.get(MemoryFixtures.id(9)).isEmpty(), "the refused write's first insert was undone");
        assertTrue(store.get(MemoryFixtures.id(10)).isEmpty());
        List<Change> changes = store.changesSince(head, 100);
        assertEquals(7, changes.size(), "one change a committed insert, none from the refused write: " + changes);
        for (int i = 1; i < changes.size(); i++) assertEquals(changes.get(i - 1).seq() + 1, changes.get(i).seq(), "gap-free");
    }
}
