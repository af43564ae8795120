package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.AccessBufferContract;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.MemoryStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * recordAccess is buffered (PendingAccess): the contract every buffering store passes, then what is SQLite's own (the
 * flusher, other processes' flushes reaching the record cache, the flush on the reader connection, a busy writer).
 */
class SqliteAccessBufferTest extends AccessBufferContract {
    @TempDir
    Path dir;

    @Override
    protected MemoryStore openBuffered() {
        return new SqliteMemoryStore(dir, new SchemaMigrations(SchemaMigrations.STEPS), SqliteMemoryStore.LOCK_WAIT,
                Duration.ofHours(1));
    }

    @Override
    protected long countInRecord(String id) throws SQLException {
        return countInFile(id);
    }

    private SqliteMemoryStore sqlite() {
        return (SqliteMemoryStore) store;
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

    @Test
    @Timeout(10)
    void withoutWritesTheFlusherWritesThemWithinAboutASecond() throws Exception {
        store.close();
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
        Memory a = insert(1);
        store.get(a.id()); // cached
        long version = sqlite().readerDataVersion();
        store.recordAccess(List.of(a.id()), clock.instant());
        sqlite().flushAccess();
        assertEquals(1, countInFile(a.id()), "written");
        assertEquals(version, sqlite().readerDataVersion(),
                "committed on the reader connection: a recall running meanwhile sees no foreign commit to reset its cache on");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "the cached row took the bump, once");
        insert(2); // a real write still moves it
        assertNotEquals(version, sqlite().readerDataVersion());
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
    }

    @Test
    void aFlushThatFindsTheWriteLockTakenKeepsTheBumpsWithoutWaiting() throws SQLException {
        Memory a = insert(1);
        store.recordAccess(List.of(a.id()), clock.instant());
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = other.createStatement()) {
            st.execute("BEGIN IMMEDIATE"); // another process in the middle of a write
            long t0 = System.nanoTime();
            sqlite().flushAccess();
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(waitedMs < 1_000, "recalls wait on the flush, so it must not sit out the 2 s busy timeout; took "
                    + waitedMs + " ms");
            st.execute("COMMIT");
        }
        assertEquals(0, countInFile(a.id()), "deferred");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "still pending, still counted in reads");
        sqlite().flushAccess();
        assertEquals(1, countInFile(a.id()), "the next flush writes it");
        assertEquals(1, store.get(a.id()).orElseThrow().accessCount());
    }
}
