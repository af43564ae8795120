package dev.engram.store.postgres;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A replica's record cache on PostgreSQL: what it serves is what the record holds, whoever changed it. Two store
 * instances on one schema stand for two replicas; flushes of access counts are run by hand (the flusher waits an hour).
 */
class PgRecordCacheTest {
    private final MutableClock clock = MutableClock.at("2026-12-07T10:00:00Z");

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    private static PostgresMemoryStore open(PostgresLocation l) {
        return PostgresMemoryStore.open(l, Duration.ofHours(1));
    }

    private static void insert(PostgresMemoryStore s, Memory... memories) {
        s.write(tx -> {
            for (Memory m : memories) tx.insert(m);
            return null;
        });
    }

    /** Writes {@code m} over the row of its id. */
    private static void update(PostgresMemoryStore s, Memory m) {
        s.write(tx -> {
            tx.update(m);
            return null;
        });
    }

    private static void link(PostgresMemoryStore s, Memory from, Memory to) {
        s.write(tx -> {
            tx.addEdge(new Edge(from.id(), to.id(), EdgeType.RELATED, Instant.parse("2026-12-07T10:00:00Z")));
            return null;
        });
    }

    /** {@code s} counts one read of {@code m} at {@code at} and writes it to the record (its flush, run by hand). */
    private static void flushRead(PostgresMemoryStore s, Memory m, Instant at) {
        s.recordAccess(List.of(m.id()), at);
        s.flushAccess();
    }

    private static Memory only(PostgresMemoryStore s, Memory m) {
        List<Memory> read = s.getAll(List.of(m.id()));
        return read.isEmpty() ? null : read.get(0);
    }

    @Test
    void aRowChangedOrDeletedByAnotherReplicaIsReadAgain() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "the staging database runs on port 6543").build();
            Memory other = minimal(clock, 2, "work", "deploys go out on Tuesdays").build();
            insert(a, m, other);
            assertEquals(List.of(m, other), a.getAll(List.of(m.id(), other.id())));
            assertNotNull(a.cache().memory(m.id()), "filed for the next recall");

            Memory edited = m.toBuilder().content("the staging database moved to port 7654").build();
            update(b, edited);
            assertEquals(edited.content(), only(a, m).content(), "B's edit is read on A at once");
            assertNotNull(a.cache().memory(other.id()), "a row nobody changed stays cached");

            b.write(tx -> tx.delete(other.id()));
            assertNull(only(a, other), "B's delete is seen on A at once");
        }
    }

    @Test
    void linksAddedOrCascadedAwayOnAnotherReplicaChangeTheCountsAndEdgesServed() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory x = minimal(clock, 1, "work", "x").build();
            Memory y = minimal(clock, 2, "work", "y").build();
            Memory z = minimal(clock, 3, "work", "z").build();
            insert(a, x, y, z);
            link(a, x, y);
            assertEquals(Map.of(x.id(), 1, y.id(), 1), a.degrees(List.of(x.id(), y.id(), z.id())));
            assertEquals(1, a.edgesOf(List.of(x.id(), z.id())).get(x.id()).size());
            assertEquals(1, a.cache().degree(x.id()), "the count is cached");

            link(b, z, x);
            assertEquals(Map.of(x.id(), 2, y.id(), 1, z.id(), 1), a.degrees(List.of(x.id(), y.id(), z.id())),
                    "B's link is counted on A at once");
            assertEquals(2, a.edges(x.id()).size());
            assertEquals(1, a.edgesOf(List.of(z.id())).get(z.id()).size());

            b.write(tx -> tx.delete(x.id())); // its edges go by cascade, with no statement of Engram's naming y or z
            assertEquals(Map.of(), a.degrees(List.of(y.id(), z.id())), "the cascade reached A's cached counts");
            assertEquals(Map.of(), a.edgesOf(List.of(y.id(), z.id())));
            assertEquals(List.of(), a.edges(z.id()));
        }
    }

    @Test
    void readsTogetherShareOneCheckSeeWhatCameBeforeAndTheirOwnWrites() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "port 6543").build();
            Memory n = minimal(clock, 2, "work", "Tuesdays").build();
            insert(a, m, n);
            only(a, m);
            update(b, m.toBuilder().content("port 7654").build());
            a.readTogether(() -> {
                assertEquals("port 7654", only(a, m).content(), "acknowledged before the reads began: seen");
                update(b, m.toBuilder().content("port 8765").build());
                assertEquals("port 7654", only(a, m).content(), "the reads share the check made before B's second write");
                update(a, n.toBuilder().content("Wednesdays").build());
                assertEquals("Wednesdays", only(a, n).content(), "a write of the reads' own thread makes the next read check");
                assertEquals("port 8765", only(a, m).content(), "and that check sees B's write too");
                return null;
            });
            assertEquals("port 8765", only(a, m).content());
        }
    }

    @Test
    void pinsSetOnAnotherReplicaAreServed() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "always answer in English").build();
            insert(a, m);
            assertEquals(List.of(), a.pinned("work"));
            update(b, m.toBuilder().pinPriority(3).build());
            assertEquals(List.of(m.id()), a.pinned("work").stream().map(Memory::id).toList());
        }
    }

    /**
     * A zone's pins stay cached through another replica's writes to memories that are not pinned (the check reads whether
     * each changed memory is pinned now); the test edits a pinned row behind Engram's back to tell a cached list from one
     * read again. Pinning, unpinning and deleting on the other replica still reach A at once.
     */
    @Test
    void pinsStayCachedThroughWritesToMemoriesThatAreNotPinned() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "always answer in English").pinPriority(3).build();
            Memory n = minimal(clock, 2, "work", "deploys go out on Tuesdays").build();
            Memory p = minimal(clock, 3, "work", "never force-push main").pinPriority(2).build();
            insert(a, m, n);
            assertEquals(List.of(m), a.pinned("work"));
            TestDatabase.execute(l, "UPDATE " + l.schema() + ".memories SET content = 'edited by hand' WHERE id = '" + m.id() + "'");
            update(b, n.toBuilder().content("deploys go out on Wednesdays").build());
            insert(b, minimal(clock, 4, "work", "the staging database runs on port 6543").build());
            assertEquals(List.of(m), a.pinned("work"), "writes to memories that are not pinned: the list stays cached");

            insert(b, p);
            assertEquals(List.of(m.id(), p.id()), a.pinned("work").stream().map(Memory::id).toList(), "a memory pinned on B");
            assertEquals("edited by hand", a.pinned("work").get(0).content(), "read again");
            update(b, p.toBuilder().pinPriority(0).build());
            assertEquals(List.of(m.id()), a.pinned("work").stream().map(Memory::id).toList(), "unpinned on B");
            b.write(tx -> tx.delete(m.id()));
            assertEquals(List.of(), a.pinned("work"), "deleted on B");
        }
    }

    @Test
    void ownFlushedCountsAreCountedOnceAndKeepTheRowCached() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "the staging database runs on port 6543").build();
            insert(a, m);
            Instant at = clock.instant().plusSeconds(60);
            only(a, m); // cached
            a.recordAccess(List.of(m.id()), at);
            assertEquals(1, only(a, m).accessCount(), "the buffered bump on top of the cached row");
            a.flushAccess();
            assertNotNull(a.cache().memory(m.id()), "patched, not dropped");
            assertEquals(1, only(a, m).accessCount(), "written once, counted once");
            assertEquals(1, b.get(m.id()).orElseThrow().accessCount());

            a.recordAccess(List.of(m.id()), at.plusSeconds(1));
            a.recordAccess(List.of(m.id()), at.plusSeconds(2));
            a.write(tx -> { // settles the two pending bumps into the row it rewrites
                tx.update(tx.get(m.id()).orElseThrow().toBuilder().content("moved to 7654").build());
                return null;
            });
            Memory read = only(a, m);
            assertEquals(3, read.accessCount());
            assertEquals("moved to 7654", read.content());
            assertEquals(3, b.get(m.id()).orElseThrow().accessCount());
        }
    }

    /**
     * Another replica's counts reach A through the access feed, which says what each entry added: A adds it to the rows it
     * has cached instead of reading them again. To tell the two apart, the test edits the row's content behind Engram's
     * back (no feed names that edit): a row read again would show it, a patched one does not.
     */
    @Test
    void countsFlushedOrSettledByAnotherReplicaAreAddedToTheCachedRows() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "x").build();
            Memory n = minimal(clock, 2, "work", "y").build();
            insert(a, m, n);
            assertEquals(0, only(a, m).accessCount());
            assertEquals(0, only(a, n).accessCount());
            TestDatabase.execute(l, "UPDATE " + l.schema() + ".memories SET content = 'edited by hand' WHERE id IN ('"
                    + m.id() + "', '" + n.id() + "')");
            Instant at = clock.instant().plusSeconds(5);
            flushRead(b, m, at);
            Memory read = only(a, m);
            assertEquals(1, read.accessCount(), "B's flush is counted on A at once");
            assertEquals(at, read.lastAccessedAt());
            assertEquals("x", read.content(), "added to A's cached row: the row was not read again");
            assertEquals(0, only(a, n).accessCount(), "n's row is untouched");

            b.recordAccess(List.of(n.id()), clock.instant().plusSeconds(6));
            b.write(tx -> { // settles the bump with no entry in the change feed for n
                tx.get(n.id());
                tx.insert(minimal(clock, 3, "work", "z").build());
                return null;
            });
            assertEquals(1, only(a, n).accessCount(), "a bump settled inside B's write is counted on A");
            assertEquals("y", only(a, n).content(), "added to the cached row as well");
            assertEquals(1, b.get(m.id()).orElseThrow().accessCount());
        }
    }

    /**
     * Reads that share one check may read a row after another replica's flush that the check did not see: that row holds
     * the flush's counts already, so the cache must not file it, or the check that takes the flush in would add them again.
     */
    @Test
    void aRowReadAfterAFlushItsCheckDidNotSeeIsCountedOnce() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "x").build();
            Memory n = minimal(clock, 2, "work", "y").build();
            insert(a, m, n);
            a.readTogether(() -> {
                only(a, n); // the shared check, made before B's flush
                flushRead(b, m, clock.instant().plusSeconds(5));
                assertEquals(1, only(a, m).accessCount(), "read from the record, after B's flush");
                return null;
            });
            assertEquals(1, only(a, m).accessCount(), "the next check takes the flush in without counting it twice");
            assertEquals(1, only(a, m).accessCount());
        }
    }

    /**
     * A's own flush lands in the access feed after B's, before A's cache has taken B's in: the check that then reads both
     * adds B's counts to the cached row and passes over A's own, which A's flush patched in already.
     */
    @Test
    void anOwnFlushBehindAnotherReplicasInTheFeedIsCountedOnce() {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "x").build();
            insert(a, m);
            assertEquals(0, only(a, m).accessCount());
            flushRead(b, m, clock.instant().plusSeconds(5));
            flushRead(a, m, clock.instant().plusSeconds(6));
            assertEquals(2, only(a, m).accessCount(), "B's flush and A's own, each once");
            assertNotNull(a.cache().memory(m.id()), "served from the cache");
            assertEquals(2, b.get(m.id()).orElseThrow().accessCount());
        }
    }

    @Test
    void theAccessFeedKeepsItsRecentEntriesOnlyAndAReplicaBehindThemStillReadsTheCounts() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            Memory m = minimal(clock, 1, "work", "x").build();
            Memory n = minimal(clock, 2, "work", "y").build();
            insert(a, m, n);
            assertEquals(0, only(a, m).accessCount());
            int flushes = PostgresMemoryStore.ACCESS_FEED_KEPT + 20;
            for (int i = 1; i <= flushes; i++) {
                b.recordAccess(List.of(i % 2 == 0 ? m.id() : n.id()), clock.instant().plusSeconds(i));
                b.flushAccess();
            }
            try (java.sql.Connection c = TestDatabase.connect(l); java.sql.Statement st = c.createStatement();
                 java.sql.ResultSet rs = st.executeQuery("SELECT count(*), max(seq) FROM " + l.schema() + ".access_changes")) {
                rs.next();
                assertEquals(PostgresMemoryStore.ACCESS_FEED_KEPT + 1, rs.getLong(1), "pruned as it is written");
                assertEquals(flushes, rs.getLong(2), "numbered without gaps");
            }
            assertEquals(flushes / 2, only(a, m).accessCount(), "A, behind the kept entries, resets and reads the counts");
            assertEquals(flushes - flushes / 2, only(a, n).accessCount());
        }
    }

    @Test
    void readersRacingWritesAndFlushesNeverSeeAnAcknowledgedChangeMissingOrACountTwice() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore a = open(l); PostgresMemoryStore b = open(l)) {
            List<Memory> ms = new ArrayList<>();
            for (int i = 1; i <= 20; i++) ms.add(minimal(clock, i, "work", "memory " + i).build());
            insert(a, ms.toArray(Memory[]::new));
            List<String> ids = ms.stream().map(Memory::id).toList();
            ExecutorService readers = Executors.newFixedThreadPool(8);
            try {
                for (int round = 1; round <= 15; round++) {
                    String content = "round " + round;
                    List<Future<?>> running = new ArrayList<>();
                    for (int t = 0; t < 8; t++) running.add(readers.submit(() -> a.getAll(ids)));
                    a.recordAccess(ids, clock.instant().plusSeconds(round));
                    a.flushAccess(); // A's own counts, patched into rows being read
                    b.recordAccess(ids, clock.instant().plusSeconds(round));
                    b.flushAccess(); // and B's, added from the access feed by A's checks
                    b.write(tx -> { // B rewrites every row
                        for (Memory m : ms) tx.update(tx.get(m.id()).orElseThrow().toBuilder().content(content).build());
                        return null;
                    });
                    for (Future<?> f : running) f.get();
                    int expectedCount = 2 * round;
                    List<Future<List<Memory>>> after = new ArrayList<>();
                    for (int t = 0; t < 8; t++) after.add(readers.submit(() -> a.getAll(ids)));
                    for (Future<List<Memory>> f : after) {
                        for (Memory m : f.get()) {
                            assertEquals(content, m.content(), "B's acknowledged write, read on A");
                            assertEquals(expectedCount, m.accessCount(), "each flushed bump counted exactly once");
                        }
                    }
                }
            } finally {
                readers.shutdownNow();
            }
        }
    }
}
