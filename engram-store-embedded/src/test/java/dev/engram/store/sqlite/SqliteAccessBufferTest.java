package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** recordAccess is buffered (PendingAccess): what the file holds, when, and no double counts. */
class SqliteAccessBufferTest {
    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private SqliteMemoryStore store;

    private Memory insert(long n) {
        Memory m = MemoryFixtures.minimal(clock, n, "work", "memory " + n).build();
        store.write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    /** The count in the file, read on a foreign connection as another process would. */
    private long countInFile(String id) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             PreparedStatement ps = c.prepareStatement("SELECT access_count FROM memories WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @AfterEach
    void close() {
        if (store != null) store.close();
    }

    @Test
    void aRecallDoesNotWriteAndAWriteTakesAlongOnlyTheBumpsOfTheRowsItTouches() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        Memory b = insert(2);
        store.recordAccess(List.of(a.id(), b.id()), clock.instant());
        store.recordAccess(List.of(a.id()), clock.instant().plusSeconds(1));
        assertEquals(0, countInFile(a.id()), "buffered: no transaction per recall");
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount(), "this store's reads include the buffer");
        insert(3);
        assertEquals(0, countInFile(a.id()), "a write of another memory leaves them to the flusher");
        long inTx = store.write(tx -> tx.get(a.id()).orElseThrow().accessCount());
        assertEquals(2, inTx, "a row read inside a write carries its pending bumps");
        assertEquals(2, countInFile(a.id()), "written with the write that read the row");
        assertEquals(0, countInFile(b.id()), "not the bumps of rows it did not touch");
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount(), "and not counted twice");
        assertEquals(1, store.get(b.id()).orElseThrow().accessCount(), "the untouched row's bump still shows");
        assertEquals(b.id(), store.write(tx -> tx.getByKey(b.zone(), b.key()).orElseThrow().id()));
        assertEquals(1, countInFile(b.id()), "a row found by key is settled too");
        assertEquals(1, store.get(b.id()).orElseThrow().accessCount());
    }

    @Test
    void aWriteThatFailsPutsTheBumpsItTookBack() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        assertThrows(IllegalStateException.class, () -> store.write(tx -> {
            tx.get(a.id());
            throw new IllegalStateException("the work fails after reading the row");
        }));
        assertEquals(0, countInFile(a.id()), "rolled back");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "the bump is pending again");
        store.write(tx -> tx.get(a.id()));
        assertEquals(1, countInFile(a.id()), "and written by the next write that touches the row, once");
    }

    @Test
    void aWriteOfAMemoryReadWithItsPendingBumpsDoesNotCountThemTwice() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        Memory read = store.get(a.id()).orElseThrow(); // count 1, from the buffer
        store.write(tx -> {
            tx.update(read.toBuilder().content("changed").build());
            return null;
        });
        assertEquals(1, countInFile(a.id()));
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
    }

    @Test
    @Timeout(10)
    void withoutWritesTheFlusherWritesThemWithinAboutASecond() throws Exception {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        Instant at = clock.instant().plusSeconds(60);
        store.recordAccess(List.of(a.id(), MemoryFixtures.id(404)), at);
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "read before the flush: 0 in the file, 1 pending");
        long deadline = System.nanoTime() + SqliteMemoryStore.ACCESS_FLUSH.multipliedBy(5).toNanos();
        while (countInFile(a.id()) == 0 && System.nanoTime() < deadline) Thread.sleep(50);
        assertEquals(1, countInFile(a.id()), "flushed by the daemon thread, no close needed");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "a read kept from before the flush is not served after it");
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            assertEquals(at, other.get(a.id()).orElseThrow().lastAccessedAt(), "another process sees it");
        }
    }

    @Test
    void anotherProcesssFlushedCountsReachThisStoresCachedReads() {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        assertEquals(0, store.get(a.id()).orElseThrow().accessCount(), "read, and kept by this store's cache");
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.recordAccess(List.of(a.id()), clock.instant());
            other.recordAccess(List.of(a.id()), clock.instant());
        } // close flushes: a commit this store did not make
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount());
        assertEquals(2, store.getAll(List.of(a.id())).get(0).accessCount());
    }

    @Test
    void theFlushLeavesTheReadersVersionSoCachedRowsStayWithTheCountsApplied() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        store.get(a.id()); // cached
        long version = store.readerDataVersion();
        store.recordAccess(List.of(a.id()), clock.instant());
        store.flushAccess();
        assertEquals(1, countInFile(a.id()), "written");
        assertEquals(version, store.readerDataVersion(),
                "committed on the reader connection: a recall running meanwhile sees no foreign commit to reset its cache on");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "the cached row took the bump, once");
        insert(2); // a real write still moves it
        assertNotEquals(version, store.readerDataVersion());
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
    }

    @Test
    void aFlushThatFindsTheWriteLockTakenKeepsTheBumpsWithoutWaiting() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = other.createStatement()) {
            st.execute("BEGIN IMMEDIATE"); // another process in the middle of a write
            long t0 = System.nanoTime();
            store.flushAccess();
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(waitedMs < 1_000, "recalls wait on the flush, so it must not sit out the 2 s busy timeout; took "
                    + waitedMs + " ms");
            st.execute("COMMIT");
        }
        assertEquals(0, countInFile(a.id()), "deferred");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "still pending, still counted in reads");
        store.flushAccess();
        assertEquals(1, countInFile(a.id()), "the next flush writes it");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
    }

    @Test
    void closeWritesWhatIsBuffered() throws SQLException {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        store.recordAccess(List.of(a.id()), clock.instant());
        store.recordAccess(List.of(a.id()), clock.instant());
        store.close();
        store = null;
        assertEquals(3, countInFile(a.id()));
    }
}
