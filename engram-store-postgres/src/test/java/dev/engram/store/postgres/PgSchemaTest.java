package dev.engram.store.postgres;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import dev.engram.memory.Memory;
import dev.engram.testing.MutableClock;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** Migrations from an empty schema and from the previous version, once across replicas, and a newer schema refused. */
class PgSchemaTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    private static long scalar(PostgresLocation l, String sql) throws Exception {
        try (Connection c = TestDatabase.connect(l); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void anEmptySchemaIsCreatedAtTheLatestVersion() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l)) {
            assertEquals(0, store.count());
            assertEquals(PgSchema.STEPS.size(), scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
            assertEquals(1, scalar(l, "SELECT count(*) FROM " + l.schema() + ".schema_version"));
        }
    }

    @Test
    void replicasStartingTogetherMigrateOnce() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        int replicas = 4;
        ExecutorService pool = Executors.newFixedThreadPool(replicas);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<PostgresMemoryStore>> opening = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            opening.add(pool.submit(() -> {
                go.await();
                return PostgresMemoryStore.open(l);
            }));
        }
        go.countDown();
        List<PostgresMemoryStore> open = new ArrayList<>();
        try {
            for (Future<PostgresMemoryStore> f : opening) open.add(f.get()); // none failed on a half-made schema
            assertEquals(1, open.stream().map(PostgresMemoryStore::storeId).distinct().count(), "one store, created once");
            assertEquals(1, scalar(l, "SELECT count(*) FROM " + l.schema() + ".store_identity"));
        } finally {
            open.forEach(PostgresMemoryStore::close);
            pool.shutdown();
        }
    }

    @Test
    void aSchemaOfThePreviousVersionIsMigratedKeepingItsData() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        Memory kept = minimal(clock, 1, "work", "written before the upgrade").build();
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l)) {
            store.write(tx -> {
                tx.insert(kept);
                return null;
            });
        }
        // the next version, as a later Engram would append it: one more step on top of today's
        List<PgSchema.Step> next = new ArrayList<>(PgSchema.STEPS);
        int version = next.size() + 1;
        next.add(new PgSchema.Step(version, "test step", List.of(
                "CREATE INDEX memories_test_step ON memories (updated_at)",
                "UPDATE memories SET relevance = relevance + 1")));
        try (Connection c = TestDatabase.connect(l)) {
            c.setSchema(l.schema());
            new PgSchema(next).migrate(c, l.schema(), "test");
            new PgSchema(next).migrate(c, l.schema(), "test"); // already current: nothing runs twice
        }
        assertEquals(version, scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
        try (PostgresMemoryStore store = reopenIgnoringNewerVersion(l, version)) {
            Optional<Memory> read = store.get(kept.id());
            assertEquals(kept.relevance() + 1, read.orElseThrow().relevance(), 1e-9, "the step ran exactly once");
            assertEquals(kept.content(), read.orElseThrow().content());
        }
    }

    @Test
    void aV1SchemaGainsLastDecayAtAtV2AndKeepsItsMemories() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        Memory kept = minimal(clock, 1, "work", "written at V1").relevance(1.4).build();
        try (Connection c = TestDatabase.connect(l)) {
            c.setSchema(l.schema());
            new PgSchema(PgSchema.STEPS.subList(0, 1)).migrate(c, l.schema(), "test");
        }
        // a row as V1 wrote it, spelled out without the V2 column
        TestDatabase.execute(l, "INSERT INTO " + l.schema() + ".memories (id, zone, key, type, content, tags, quality, confidence,"
                + " status, created_at, updated_at, access_count, review_interval_days, verify_count, relevance, origin,"
                + " pin_priority) VALUES ('" + kept.id() + "', 'work', '" + kept.key() + "', 'FACT', 'written at V1', '{}', 0, 1,"
                + " 'ACTIVE', 1764410400000, 1764410400000, 0, 7, 0, 1.4, 'AGENT', 0)");
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l)) {
            assertEquals(PgSchema.STEPS.size(), scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
            Memory read = store.get(kept.id()).orElseThrow();
            assertEquals("written at V1", read.content());
            assertEquals(1.4, read.relevance(), 1e-9);
            assertEquals(null, read.lastDecayAt(), "never decayed by maintenance");
            java.time.Instant t = java.time.Instant.ofEpochMilli(1764410800000L);
            store.write(tx -> {
                tx.update(read.toBuilder().lastDecayAt(t).build());
                return null;
            });
            assertEquals(t, store.get(kept.id()).orElseThrow().lastDecayAt());
        }
    }

    @Test
    void aV2SchemaGainsTheEdgeFeedAndAccessEpochAtV3AndItsEdgesAreFollowed() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        Memory x = minimal(clock, 1, "work", "x").build();
        Memory y = minimal(clock, 2, "work", "y").build();
        try (Connection c = TestDatabase.connect(l)) {
            c.setSchema(l.schema());
            new PgSchema(PgSchema.STEPS.subList(0, 2)).migrate(c, l.schema(), "test");
        }
        try (PostgresMemoryStore v2 = PostgresMemoryStore.open(l)) { // writes through V3's code, then rewound below
            v2.write(tx -> {
                tx.insert(x);
                tx.insert(y);
                tx.addEdge(new dev.engram.memory.Edge(x.id(), y.id(), dev.engram.memory.EdgeType.RELATED, clock.instant()));
                return null;
            });
        }
        // back to what a V2 schema holding that edge looks like
        for (String sql : List.of("DROP TRIGGER edges_changed ON %s.edges", "DROP FUNCTION %s.edge_changed()",
                "DROP TABLE %s.edge_changes", "DROP TABLE %s.access_changes", "UPDATE %s.schema_version SET version = 2")) {
            TestDatabase.execute(l, sql.formatted(l.schema()));
        }
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l); PostgresMemoryStore other = PostgresMemoryStore.open(l)) {
            assertEquals(PgSchema.STEPS.size(), scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
            assertEquals(0, scalar(l, "SELECT count(*) FROM " + l.schema() + ".access_changes"));
            assertEquals(java.util.Map.of(x.id(), 1, y.id(), 1), store.degrees(List.of(x.id(), y.id())), "the edge from V2, counted");
            other.write(tx -> tx.delete(x.id()));
            assertEquals(2, scalar(l, "SELECT count(*) FROM " + l.schema() + ".edge_changes"),
                    "the cascade wrote both ends of the edge into the feed");
            assertEquals(java.util.Map.of(), store.degrees(List.of(y.id())), "and the other replica's cached count followed");
        }
    }

    /**
     * At V4 the access feed says what each entry added. An entry written without it (by a V3 replica still running during
     * an upgrade, spelled out here as V3 wrote it) makes the other replicas read the rows it names again, as before.
     */
    @Test
    void aV3SchemaGainsTheAccessFeedsCountsAtV4AndEntriesWithoutThemStillReachTheCaches() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        Memory x = minimal(clock, 1, "work", "x").build();
        try (Connection c = TestDatabase.connect(l)) {
            c.setSchema(l.schema());
            new PgSchema(PgSchema.STEPS.subList(0, 3)).migrate(c, l.schema(), "test");
        }
        TestDatabase.execute(l, "INSERT INTO " + l.schema() + ".access_changes (seq, ids) VALUES (1, '{someone}')");
        try (PostgresMemoryStore store = PostgresMemoryStore.open(l)) {
            assertEquals(4, scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
            assertEquals(1, scalar(l, "SELECT count(*) FROM " + l.schema() + ".access_changes WHERE counts IS NULL"),
                    "the V3 entry is kept as it was");
            store.write(tx -> {
                tx.insert(x);
                return null;
            });
            assertEquals(0, store.getAll(List.of(x.id())).get(0).accessCount());
            TestDatabase.execute(l, "UPDATE " + l.schema() + ".memories SET access_count = 3 WHERE id = '" + x.id() + "'");
            TestDatabase.execute(l, "INSERT INTO " + l.schema() + ".access_changes (seq, ids) VALUES (2, '{" + x.id() + "}')");
            assertEquals(3, store.getAll(List.of(x.id())).get(0).accessCount(), "the row named without counts, read again");
        }
    }

    /** Today's Engram refuses the newer schema (see below), so read it through the pool after rewinding the stamp. */
    private static PostgresMemoryStore reopenIgnoringNewerVersion(PostgresLocation l, int version) throws Exception {
        TestDatabase.execute(l, "UPDATE " + l.schema() + ".schema_version SET version = " + PgSchema.STEPS.size());
        return PostgresMemoryStore.open(l);
    }

    @Test
    void aSchemaFromANewerEngramIsRefusedUntouched() throws Exception {
        PostgresLocation l = TestDatabase.freshSchema();
        PostgresMemoryStore.open(l).close();
        int newer = PgSchema.STEPS.size() + 1;
        TestDatabase.execute(l, "UPDATE " + l.schema() + ".schema_version SET version = " + newer);
        StoreException e = assertThrows(StoreException.class, () -> PostgresMemoryStore.open(l));
        assertTrue(e.getMessage().contains("schema version is " + newer) && e.getMessage().contains("upgrade Engram"),
                e.getMessage());
        assertEquals(newer, scalar(l, "SELECT max(version) FROM " + l.schema() + ".schema_version"));
    }

    @Test
    void anUnreachableServerIsAClearError() {
        PostgresLocation nowhere = PostgresLocation.parse("postgresql://postgres@127.0.0.1:1/test?connectTimeout=2");
        StoreException e = assertThrows(StoreException.class, () -> PostgresMemoryStore.open(nowhere));
        assertTrue(e.getMessage().startsWith("open store jdbc:postgresql://127.0.0.1:1/test"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot connect"), e.getMessage());
    }
}
