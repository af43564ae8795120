package dev.engram.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.memory.Memory;
import dev.engram.spi.AccessBufferContract;
import dev.engram.spi.MemoryFixtures;
import dev.engram.spi.MemoryStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * recordAccess is buffered on PostgreSQL too: the contract every buffering store passes, then the flusher, which
 * another replica's reads wait for.
 */
class PgAccessBufferTest extends AccessBufferContract {
    private PostgresLocation location;

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    @Override
    protected MemoryStore openBuffered() {
        if (location == null) location = TestDatabase.freshSchema();
        return PostgresMemoryStore.open(location, Duration.ofHours(1));
    }

    /** The count the database holds, read past the store and its buffer. */
    @Override
    protected long countInRecord(String id) throws SQLException {
        try (Connection c = TestDatabase.connect(location);
             PreparedStatement ps = c.prepareStatement("SELECT access_count FROM " + location.schema() + ".memories WHERE id = ?")) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    @Timeout(20)
    void withoutWritesTheFlusherWritesThemWithinAboutASecondAndAnotherReplicaSeesThem() throws Exception {
        store.close();
        store = PostgresMemoryStore.open(location);
        Memory a = insert(1);
        Instant at = clock.instant().plusSeconds(60);
        store.recordAccess(List.of(a.id(), MemoryFixtures.id(404)), at);
        try (PostgresMemoryStore other = PostgresMemoryStore.open(location)) {
            long deadline = System.nanoTime() + PostgresMemoryStore.ACCESS_FLUSH.multipliedBy(5).toNanos();
            while (countInRecord(a.id()) == 0 && System.nanoTime() < deadline) Thread.sleep(50);
            assertEquals(1, countInRecord(a.id()), "flushed by the daemon thread, no close needed");
            assertEquals(1, store.get(a.id()).orElseThrow().accessCount(), "not counted again on top of the flushed row");
            assertEquals(at, other.get(a.id()).orElseThrow().lastAccessedAt(), "the other replica sees it after the flush");
        }
    }
}
