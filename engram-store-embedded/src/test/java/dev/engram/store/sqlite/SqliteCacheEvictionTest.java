package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.engram.memory.Memory;
import dev.engram.spi.MemoryFixtures;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write evicts from another store's record cache only the memories it changed (two stores on one file, as two
 * processes share it), and what is served afterwards is what the file holds.
 */
class SqliteCacheEvictionTest {
    @TempDir
    Path dir;
    private final MutableClock clock = MutableClock.at("2026-12-04T10:00:00Z");
    private SqliteMemoryStore store;

    @AfterEach
    void close() {
        if (store != null) store.close();
    }

    private static Memory insert(SqliteMemoryStore s, Memory m) {
        s.write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    @Test
    void anotherStoresWriteEvictsWhatItChangedAndKeepsTheRest() {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(store, MemoryFixtures.minimal(clock, 1, "work", "port 8080").build());
        Memory b = insert(store, MemoryFixtures.minimal(clock, 2, "work", "lead Dana").build());
        store.getAll(List.of(a.id(), b.id())); // both cached
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(tx -> {
                tx.update(tx.get(a.id()).orElseThrow().toBuilder().content("port 9090").updatedAt(clock.instant()).build());
                return null;
            });
            insert(other, MemoryFixtures.minimal(clock, 3, "work", "pool 40").build());
        }
        assertEquals("port 9090", store.get(a.id()).orElseThrow().content(), "the changed memory is read from the file");
        assertNotNull(store.cache().memory(b.id()), "the unchanged one is still served from memory");
        assertEquals("lead Dana", store.get(b.id()).orElseThrow().content());
        assertEquals(4, store.headSeq(), "two inserts, the update and the other store's insert: the feed's head, read while validating");
    }

    /** Another process's writes to memories that are not pinned keep the zone's cached pins; pinning and unpinning reach it. */
    @Test
    void pinsStayCachedThroughOtherWritesAndFollowPinning() {
        store = SqliteMemoryStore.open(dir);
        Memory m = insert(store, MemoryFixtures.minimal(clock, 1, "work", "answer in English").pinPriority(3).build());
        Memory n = insert(store, MemoryFixtures.minimal(clock, 2, "work", "lead Dana").build());
        assertEquals(List.of(m), store.pinned("work"));
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            insert(other, MemoryFixtures.minimal(clock, 3, "work", "pool 40").build());
            other.write(tx -> {
                tx.update(tx.get(n.id()).orElseThrow().toBuilder().content("lead Sam").build());
                return null;
            });
            // getAll checks the cache against the file first, as a recall does
            assertEquals("lead Sam", store.getAll(List.of(n.id())).get(0).content(), "the other process's writes, seen");
            assertEquals(List.of(m), store.cache().pinned("work"), "memories that are not pinned: the zone's pins stay cached");

            other.write(tx -> {
                tx.update(tx.get(n.id()).orElseThrow().toBuilder().pinPriority(1).build());
                return null;
            });
            assertEquals(List.of(m.id(), n.id()), store.pinned("work").stream().map(Memory::id).toList(), "pinned elsewhere");
            other.write(tx -> {
                tx.update(tx.get(m.id()).orElseThrow().toBuilder().pinPriority(0).build());
                return null;
            });
            assertEquals(List.of(n.id()), store.pinned("work").stream().map(Memory::id).toList(), "unpinned elsewhere");
            other.write(tx -> tx.delete(n.id()));
            assertEquals(List.of(), store.pinned("work"), "deleted elsewhere");
        }
    }

    @Test
    void aForgottenMemoryIsNotServedFromTheCache() {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(store, MemoryFixtures.minimal(clock, 1, "work", "port 8080").build());
        store.get(a.id());
        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(tx -> tx.delete(a.id()));
        }
        assertEquals(List.of(), store.getAll(List.of(a.id())));
        assertNull(store.cache().memory(a.id()));
    }

    @Test
    void thisStoresOwnWriteEvictsItsMemoryOnly() {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(store, MemoryFixtures.minimal(clock, 1, "work", "port 8080").build());
        Memory b = insert(store, MemoryFixtures.minimal(clock, 2, "work", "lead Dana").build());
        store.getAll(List.of(a.id(), b.id()));
        store.write(tx -> {
            tx.update(tx.get(a.id()).orElseThrow().toBuilder().content("port 9090").updatedAt(clock.instant()).build());
            return null;
        });
        assertEquals("port 9090", store.get(a.id()).orElseThrow().content());
        assertNotNull(store.cache().memory(b.id()));
    }

    /**
     * Link counts and edge lists are dropped for the memories whose links changed, whoever changed them and however:
     * a link, an unlink, and the edges a deleted memory takes with it (a cascade in SQLite, which the edges table's
     * triggers see too). The others' stay cached.
     */
    @Test
    void linksChangedByAnyWriteAreReadAgainAndTheOthersStay() {
        store = SqliteMemoryStore.open(dir);
        Memory a = insert(store, MemoryFixtures.minimal(clock, 1, "work", "port 8080").build());
        Memory b = insert(store, MemoryFixtures.minimal(clock, 2, "work", "lead Dana").build());
        Memory c = insert(store, MemoryFixtures.minimal(clock, 3, "work", "pool 40").build());
        Memory d = insert(store, MemoryFixtures.minimal(clock, 4, "work", "retry 3").build());
        link(store, a, b);
        link(store, c, d);
        List<String> all = List.of(a.id(), b.id(), c.id(), d.id());
        assertEquals(java.util.Map.of(a.id(), 1, b.id(), 1, c.id(), 1, d.id(), 1), store.degrees(all));
        assertEquals(1, store.edges(b.id()).size());

        try (SqliteMemoryStore other = SqliteMemoryStore.open(dir)) {
            other.write(tx -> tx.delete(a.id())); // b's edge goes with a, by cascade
        }
        assertEquals(java.util.Map.of(c.id(), 1, d.id(), 1), store.degrees(all), "b lost its only link");
        assertEquals(List.of(), store.edges(b.id()));
        assertEquals(1, store.cache().degree(c.id()), "c's links did not change: its count is still cached");

        link(store, b, c);
        assertEquals(java.util.Map.of(b.id(), 1, c.id(), 2, d.id(), 1), store.degrees(all));
        store.write(tx -> tx.removeEdge(c.id(), d.id(), dev.engram.memory.EdgeType.RELATED, null));
        assertEquals(java.util.Map.of(b.id(), 1, c.id(), 1), store.degrees(all));
        assertEquals(List.of(), store.edges(d.id()));
    }

    private void link(SqliteMemoryStore s, Memory from, Memory to) {
        s.write(tx -> {
            tx.addEdge(new dev.engram.memory.Edge(from.id(), to.id(), dev.engram.memory.EdgeType.RELATED, clock.instant()));
            return null;
        });
    }
}
