package dev.engram.store.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import dev.engram.memory.EdgeType;
import dev.engram.memory.ZoneInfo;
import dev.engram.memory.Edge;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaMigrationsTest {
    @TempDir
    Path dir;

    /**
     * A V1 database as the first release wrote it, spelled out by hand rather than produced by the
     * code under test, so a change to SCHEMA_V1 that breaks old files fails here.
     */
    private static final List<String> V1_FIXTURE = List.of(
            "CREATE TABLE memories (id TEXT PRIMARY KEY NOT NULL, zone TEXT NOT NULL, key TEXT NOT NULL,"
                    + " type TEXT NOT NULL, content TEXT NOT NULL, tags TEXT NOT NULL, file TEXT, path_scope TEXT,"
                    + " importance TEXT, quality REAL NOT NULL, confidence REAL NOT NULL, status TEXT NOT NULL,"
                    + " created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, last_accessed_at INTEGER,"
                    + " access_count INTEGER NOT NULL, expires_at INTEGER, review_interval_days INTEGER NOT NULL,"
                    + " last_verified_at INTEGER, tier TEXT NOT NULL, origin TEXT NOT NULL, session TEXT,"
                    + " branch TEXT, pin_priority INTEGER NOT NULL, superseded_at INTEGER, superseded_by TEXT,"
                    + " UNIQUE (zone, key))",
            "CREATE INDEX memories_zone_created ON memories (zone, created_at, id)",
            "CREATE INDEX memories_created ON memories (created_at, id)",
            "CREATE TABLE edges (from_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,"
                    + " to_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE, type TEXT NOT NULL,"
                    + " created_at INTEGER NOT NULL, UNIQUE (from_id, to_id, type))",
            "CREATE INDEX edges_to ON edges (to_id)",
            "CREATE TABLE versions (memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,"
                    + " version INTEGER NOT NULL, content TEXT NOT NULL, tags TEXT NOT NULL, importance TEXT,"
                    + " replaced_at INTEGER NOT NULL, PRIMARY KEY (memory_id, version))",
            "CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, memory_id TEXT NOT NULL)",
            "INSERT INTO memories VALUES ('m_aaaaaaaaab', 'work', 'redis-auth', 'ERROR',"
                    + " 'Redis auth failed: rotate the password.', '[\"redis\",\"auth\"]', 'conf/redis.conf', NULL,"
                    + " 'HIGH', 0.5, 1.0, 'ACTIVE', 1764410400000, 1764410460000, NULL, 3, NULL, 7, NULL, 'HOT',"
                    + " 'HUMAN', 's1', 'main', 2, NULL, NULL)",
            "INSERT INTO memories VALUES ('m_aaaaaaaaac', 'work', 'use-wal', 'DECISION', 'Use WAL.', '[]', NULL,"
                    + " NULL, NULL, 0.0, 1.0, 'ACTIVE', 1764410500000, 1764410500000, NULL, 0, NULL, 1, NULL,"
                    + " 'WARM', 'AGENT', NULL, NULL, 0, NULL, NULL)",
            "INSERT INTO edges VALUES ('m_aaaaaaaaac', 'm_aaaaaaaaab', 'RELATED', 1764410500000)",
            "INSERT INTO versions VALUES ('m_aaaaaaaaab', 1, 'Redis auth failed.', '[\"redis\"]', NULL, 1764410460000)",
            "INSERT INTO changes (memory_id) VALUES ('m_aaaaaaaaab'), ('m_aaaaaaaaac'), ('m_aaaaaaaaab')",
            "PRAGMA user_version = 1");

    private void writeFixture(List<String> sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            for (String s : sql) st.execute(s);
        }
    }

    private int userVersion() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            return SchemaMigrations.userVersion(st);
        }
    }

    @Test
    void aV1FileOpensWithNothingLost() throws SQLException {
        writeFixture(V1_FIXTURE);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            Memory m = store.get("m_aaaaaaaaab").orElseThrow();
            assertEquals("Redis auth failed: rotate the password.", m.content());
            assertEquals(List.of("redis", "auth"), m.tags());
            assertEquals(MemoryType.ERROR, m.type());
            assertEquals(Importance.HIGH, m.importance());
            assertEquals(MemoryStatus.ACTIVE, m.status());
            assertEquals(Instant.ofEpochMilli(1764410400000L), m.createdAt());
            assertEquals(3, m.accessCount());
            assertEquals("conf/redis.conf", m.file());
            assertEquals(2, store.count());
            assertEquals(EdgeType.RELATED, store.edges("m_aaaaaaaaab").get(0).type());
            assertEquals("Redis auth failed.", store.versions("m_aaaaaaaaab").get(0).content());
            assertEquals(3, store.headSeq());
            assertEquals(List.of(m), store.pinned("work"));
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion(), "migrated to the newest schema");
    }

    @Test
    void aV1FileGainsTheEmbeddingsTableAtV2() throws SQLException {
        writeFixture(V1_FIXTURE);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            assertEquals(List.of("m_aaaaaaaaab", "m_aaaaaaaaac"), store.missingEmbeddings("minilm", 10),
                    "every V1 memory still needs a vector, oldest first");
            assertEquals(Optional.empty(), store.embedding("m_aaaaaaaaab"));
            StoredEmbedding e = new StoredEmbedding("minilm", new float[] {0.25f, -1.5f, 3.0e-7f});
            store.write(tx -> {
                tx.putEmbedding("m_aaaaaaaaab", e);
                return null;
            });
            assertEquals(Optional.of(e), store.embedding("m_aaaaaaaaab"));
            assertEquals(4, store.headSeq(), "the V1 change feed continues");
            assertEquals(List.of("m_aaaaaaaaac"), store.missingEmbeddings("minilm", 10));
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT model_id, dims, hex(vector) FROM embeddings")) {
                assertTrue(rs.next());
                assertEquals("minilm", rs.getString(1));
                assertEquals(3, rs.getInt(2));
                // 0.25f = 0x3E800000, little-endian: the format other tools (and a future PG port) read
                assertTrue(rs.getString(3).startsWith("0000803E"), rs.getString(3));
            }
            st.execute("PRAGMA foreign_keys=ON");
            st.execute("DELETE FROM memories WHERE id = 'm_aaaaaaaaab'");
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM embeddings")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "ON DELETE CASCADE");
            }
        }
    }

    /** V2 as the embeddings release wrote it: V1 plus the embeddings table, spelled out by hand. */
    private static List<String> v2Fixture() {
        List<String> sql = new ArrayList<>(V1_FIXTURE.subList(0, V1_FIXTURE.size() - 1));
        sql.add("CREATE TABLE embeddings (memory_id TEXT PRIMARY KEY NOT NULL REFERENCES memories (id)"
                + " ON DELETE CASCADE, model_id TEXT NOT NULL, dims INTEGER NOT NULL CHECK (dims > 0),"
                + " vector BLOB NOT NULL CHECK (length(vector) = 4 * dims))");
        sql.add("INSERT INTO embeddings VALUES ('m_aaaaaaaaab', 'minilm', 1, X'0000803E')");
        sql.add("PRAGMA user_version = 2");
        return sql;
    }

    @Test
    void aV2FileGainsThePinnedIndexAtV3AndPinnedUsesIt() throws SQLException {
        writeFixture(v2Fixture());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            assertEquals(List.of("m_aaaaaaaaab"), store.pinned("work").stream().map(Memory::id).toList(),
                    "the pinned V2 memory is still the only pinned one");
            assertEquals(Optional.of(new StoredEmbedding("minilm", new float[] {0.25f})), store.embedding("m_aaaaaaaaab"));
            assertEquals(3, store.headSeq(), "the change feed continues");
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement()) {
            StringBuilder plan = new StringBuilder();
            try (java.sql.PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + SqliteStatements.PINNED)) {
                ps.setString(1, "work");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) plan.append(rs.getString("detail")).append('\n');
                }
            }
            // the whole point of V3: a recall's pinned() must not scan the zone (13 ms at 10k before)
            assertTrue(plan.toString().contains("USING INDEX memories_zone_pinned"), plan.toString());
            try (ResultSet rs = st.executeQuery(
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'memories_zone_pinned'")) {
                rs.next();
                assertEquals(1, rs.getInt(1));
            }
        }
    }

    /** V3 as the pinned-index release wrote it: V2 plus that index, spelled out by hand. */
    private static List<String> v3Fixture() {
        List<String> sql = new ArrayList<>(v2Fixture().subList(0, v2Fixture().size() - 1));
        sql.add("CREATE INDEX memories_zone_pinned ON memories (zone, pin_priority) WHERE pin_priority > 0");
        sql.add("PRAGMA user_version = 3");
        return sql;
    }

    @Test
    void aV3FileGainsTombstonesAtV4AndKeepsEveryMemory() throws SQLException {
        writeFixture(v3Fixture());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            Memory redis = store.get("m_aaaaaaaaab").orElseThrow();
            assertEquals("Redis auth failed: rotate the password.", redis.content());
            assertEquals("Use WAL.", store.get("m_aaaaaaaaac").orElseThrow().content());
            assertEquals(1, store.edges("m_aaaaaaaaab").size());
            assertEquals(1, store.versions("m_aaaaaaaaab").size());
            assertEquals(Optional.of(new StoredEmbedding("minilm", new float[] {0.25f})), store.embedding("m_aaaaaaaaab"));
            assertEquals(3, store.headSeq(), "the change feed continues");
            Tombstone t = new Tombstone(redis, store.edges(redis.id()), store.versions(redis.id()),
                    store.embedding(redis.id()).orElse(null), Instant.ofEpochMilli(1764410600000L));
            store.write(tx -> {
                tx.delete(redis.id());
                tx.putTombstone(t);
                return null;
            });
            assertEquals(Optional.of(t), store.write(tx -> tx.tombstone(redis.id())));
            assertEquals(Optional.of(t), store.write(tx -> tx.tombstoneByKey("work", "redis-auth")));
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion());
    }

    /** V4 as the tombstones release wrote it: V3 plus its tables (frozen in SCHEMA_V4), a second edge and a tombstone. */
    private static List<String> v4Fixture() {
        List<String> sql = new ArrayList<>(v3Fixture().subList(0, v3Fixture().size() - 1));
        sql.addAll(SqliteStatements.SCHEMA_V4);
        sql.add("INSERT INTO edges VALUES ('m_aaaaaaaaac', 'm_aaaaaaaaab', 'DEPENDS_ON', 1764410500000)");
        sql.add("INSERT INTO tombstones (id, zone, key, type, content, tags, quality, confidence, status, created_at,"
                + " updated_at, access_count, review_interval_days, tier, origin, pin_priority, deleted_at) VALUES"
                + " ('m_aaaaaaaaad', 'work', 'gone', 'FACT', 'Deleted before V5.', '[]', 0.0, 1.0, 'ACTIVE',"
                + " 1764410500000, 1764410500000, 0, 1, 'COLD', 'AGENT', 0, 1764410600000)");
        sql.add("INSERT INTO tombstone_edges VALUES ('m_aaaaaaaaad', 'm_aaaaaaaaad', 'm_aaaaaaaaab', 'RELATED', 1764410500000)");
        sql.add("PRAGMA user_version = 4");
        return sql;
    }

    /** V5 as the widened-model release wrote it: V4 plus its statements (frozen in SCHEMA_V5) and one decayed fact. */
    private static List<String> v5Fixture() {
        List<String> sql = new ArrayList<>(v4Fixture().subList(0, v4Fixture().size() - 1));
        sql.addAll(SqliteStatements.SCHEMA_V5);
        sql.add("UPDATE memories SET relevance = 1.4, name = 'Redis auth' WHERE id = 'm_aaaaaaaaab'");
        sql.add("PRAGMA user_version = 5");
        return sql;
    }

    /** V6 as the written-back-decay release wrote it: V5 plus its statements (frozen in SCHEMA_V6). */
    private static List<String> v6Fixture() {
        List<String> sql = new ArrayList<>(v5Fixture().subList(0, v5Fixture().size() - 1));
        sql.addAll(SqliteStatements.SCHEMA_V6);
        sql.add("PRAGMA user_version = 6");
        return sql;
    }

    @Test
    void aV6FileGainsTheEdgeFeedAtV7AndItsEdgesChangesAreSeenThroughIt() throws SQLException {
        writeFixture(v6Fixture());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            assertEquals(2, store.edges("m_aaaaaaaaab").size(), "the edges written before the migration are all there (now cached)");
            store.write(tx -> tx.removeEdge("m_aaaaaaaaac", "m_aaaaaaaaab", EdgeType.DEPENDS_ON, null));
            assertEquals(List.of(EdgeType.RELATED), store.edges("m_aaaaaaaaab").stream().map(Edge::type).toList(),
                    "an old edge removed after the migration goes through the new feed");
            store.write(tx -> tx.delete("m_aaaaaaaaac"));
            assertEquals(List.of(), store.edges("m_aaaaaaaaab"), "and one a deleted memory took with it");
        }
        assertEquals(7, userVersion());
    }

    @Test
    void aV5FileGainsLastDecayAtAtV6AndKeepsEveryMemory() throws SQLException {
        writeFixture(v5Fixture());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            Memory redis = store.get("m_aaaaaaaaab").orElseThrow();
            assertEquals("Redis auth failed: rotate the password.", redis.content());
            assertEquals("Redis auth", redis.name());
            assertEquals(1.4, redis.relevance());
            assertEquals(null, redis.lastDecayAt(), "never decayed by maintenance: fades from its last read or creation");
            assertEquals(2, store.edges("m_aaaaaaaaab").size());
            Tombstone gone = store.write(tx -> tx.tombstone("m_aaaaaaaaad")).orElseThrow();
            assertEquals(null, gone.memory().lastDecayAt());
            Instant t = Instant.ofEpochMilli(1764410800000L);
            store.write(tx -> {
                tx.update(redis.toBuilder().lastDecayAt(t).relevance(1.2).build());
                return null;
            });
            assertEquals(t, store.get("m_aaaaaaaaab").orElseThrow().lastDecayAt());
            Memory decayed = store.get("m_aaaaaaaaab").orElseThrow();
            Tombstone kept = new Tombstone(decayed, List.of(), List.of(), null, t);
            store.write(tx -> {
                tx.delete(decayed.id());
                tx.putTombstone(kept);
                return null;
            });
            assertEquals(t, store.write(tx -> tx.tombstone(decayed.id())).orElseThrow().memory().lastDecayAt(),
                    "a tombstone keeps the decay mark, so a restored memory does not fade the same days again");
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion());
    }

    @Test
    void aV4FileGainsTheWidenedModelAtV5AndKeepsEveryMemoryAndEdge() throws SQLException {
        writeFixture(v4Fixture());
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
            Memory redis = store.get("m_aaaaaaaaab").orElseThrow();
            assertEquals("Redis auth failed: rotate the password.", redis.content());
            assertEquals(null, redis.name());
            assertEquals(null, redis.entityType());
            assertEquals(0, redis.verifyCount());
            assertEquals(1.0, redis.relevance());
            assertEquals(7, redis.reviewIntervalDays(), "a set interval stays");
            assertEquals(7, store.get("m_aaaaaaaaac").orElseThrow().reviewIntervalDays(), "the old default 1 becomes 7");
            assertEquals(List.of(EdgeType.RELATED, EdgeType.DEPENDS_ON),
                    store.edges("m_aaaaaaaaab").stream().map(Edge::type).toList(), "both edges, in their order");
            assertTrue(store.edges("m_aaaaaaaaab").stream().allMatch(e -> e.label() == null));
            assertEquals(1, store.versions("m_aaaaaaaaab").size());
            assertEquals(3, store.headSeq(), "the change feed continues");
            Tombstone gone = store.write(tx -> tx.tombstone("m_aaaaaaaaad")).orElseThrow();
            assertEquals("Deleted before V5.", gone.memory().content());
            assertEquals(List.of(new Edge("m_aaaaaaaaad", "m_aaaaaaaaab", EdgeType.RELATED,
                    Instant.ofEpochMilli(1764410500000L))), gone.edges());
            Instant t = Instant.ofEpochMilli(1764410700000L);
            store.write(tx -> {
                tx.addEdge(new Edge("m_aaaaaaaaac", "m_aaaaaaaaab", EdgeType.RELATED, "explains", t));
                tx.addEdge(new Edge("m_aaaaaaaaac", "m_aaaaaaaaab", EdgeType.RELATED, t)); // exists already
                tx.update(redis.toBuilder().name("Redis: 인증").entityType("Incident").build());
                tx.putZone(new ZoneInfo("work", "Work", null, t, t));
                return null;
            });
            assertEquals(3, store.edges("m_aaaaaaaaab").size(), "a labelled edge beside the unlabelled one, no duplicate");
            assertEquals("m_aaaaaaaaab", store.getByName("work", "Redis: 인증").orElseThrow().id());
            assertEquals(1, store.zoneInfos().size());
        }
        assertEquals(SchemaMigrations.STEPS.size(), userVersion());
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pragma_table_info('memories') WHERE name = 'tier'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "the stored tier is gone: it is computed on read");
        }
    }

    @Test
    void aFileFromANewerEngramIsRefusedWithAClearMessage() throws SQLException {
        // a newer Engram stamps its application id like this one, whatever tables it adds
        writeFixture(List.of("CREATE TABLE future (x)", "PRAGMA user_version = 99",
                "PRAGMA application_id = " + DatabaseIdentity.APPLICATION_ID));
        StoreException e = assertThrows(StoreException.class, () -> SqliteMemoryStore.open(dir));
        assertTrue(e.getMessage().contains("schema version is 99"), e.getMessage());
        assertTrue(e.getMessage().contains("upgrade Engram"), e.getMessage());
        assertEquals(99, userVersion(), "a refused file is left untouched");
    }

    @Test
    void anAddedStepRunsOnceOnAnOlderFileAndKeepsItsData() throws SQLException {
        writeFixture(V1_FIXTURE);
        List<Migration> withV2 = new ArrayList<>(SchemaMigrations.STEPS);
        int added = SchemaMigrations.STEPS.size() + 1;
        withV2.add(new Migration(added, "test: memory notes", List.of(
                "ALTER TABLE memories ADD COLUMN note TEXT",
                "UPDATE memories SET note = 'migrated'")));
        new SqliteMemoryStore(dir, new SchemaMigrations(withV2), SqliteMemoryStore.LOCK_WAIT).close();
        assertEquals(added, userVersion());
        new SqliteMemoryStore(dir, new SchemaMigrations(withV2), SqliteMemoryStore.LOCK_WAIT).close(); // a second open must not re-run it
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM memories WHERE note = 'migrated'")) {
            rs.next();
            assertEquals(2, rs.getInt(1));
        }
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir, new SchemaMigrations(withV2), SqliteMemoryStore.LOCK_WAIT)) {
            assertEquals("Use WAL.", store.get("m_aaaaaaaaac").orElseThrow().content());
        }
    }

    @Test
    void aFailingStepLeavesTheFileAtItsOldVersion() throws SQLException {
        writeFixture(V1_FIXTURE);
        List<Migration> broken = new ArrayList<>(SchemaMigrations.STEPS);
        broken.add(new Migration(SchemaMigrations.STEPS.size() + 1, "test: broken", List.of(
                "ALTER TABLE memories ADD COLUMN note TEXT",
                "THIS IS NOT SQL")));
        assertThrows(SQLException.class, () -> {
            try {
                new SqliteMemoryStore(dir, new SchemaMigrations(broken), SqliteMemoryStore.LOCK_WAIT).close();
            } catch (StoreException e) {
                throw (SQLException) e.getCause();
            }
        });
        assertEquals(1, userVersion(), "every step of the failed run, V2 included, rolled back");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("engram.db"));
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = 'embeddings'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "no half-migrated schema");
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir)) {
            assertEquals(2, store.count());
        }
    }

    @Test
    void stepsMustBeNumberedWithoutGaps() {
        assertThrows(IllegalArgumentException.class, () -> new SchemaMigrations(List.of(
                new Migration(1, "a", List.of()), new Migration(3, "c", List.of()))));
    }
}
