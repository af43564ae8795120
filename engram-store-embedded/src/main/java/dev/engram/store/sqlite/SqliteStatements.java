package dev.engram.store.sqlite;

import dev.engram.spi.PendingAccess;
import java.util.List;

/** Every SQL statement of the SQLite store, so the schema and its queries are read in one place. */
final class SqliteStatements {
    private SqliteStatements() {
    }

    /** IMMEDIATE takes the write lock at BEGIN, so a transaction never fails at its first write or at COMMIT. */
    static final String BEGIN_IMMEDIATE = "BEGIN IMMEDIATE";
    static final String COMMIT = "COMMIT";
    static final String ROLLBACK = "ROLLBACK";
    static final String USER_VERSION = "PRAGMA user_version";
    static final String APPLICATION_ID = "PRAGMA application_id";
    /**
     * Tables, views and virtual tables of the main schema; not the shadow tables behind a virtual table
     * (an FTS5 table's _data, _idx...), which say nothing more about whose the file is.
     */
    static final String TABLE_NAMES = "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type <> 'shadow'";
    /** Copies committed WAL frames into the file, so its header shows a new application id to a plain read. */
    static final String CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)";
    /**
     * Every table the migrations create, and nothing else: a file without Engram's application id is
     * recognised as an earlier Engram's store only if its tables are among these (SchemaMigrationsTest
     * checks the set against what the migrations make).
     */
    static final java.util.Set<String> TABLES = java.util.Set.of("memories", "edges", "versions", "changes", "embeddings",
            "tombstones", "tombstone_edges", "tombstone_versions", "zones", "marks", "edge_changes");

    static String setApplicationId(int id) {
        return "PRAGMA application_id = " + id;
    }

    static String setUserVersion(int version) {
        return "PRAGMA user_version = " + version; // PRAGMA takes no bind parameters
    }

    static String busyTimeout(int millis) {
        return "PRAGMA busy_timeout=" + millis;
    }

    /** Per-connection settings. FULL: an acknowledged write survives power loss, not only kill -9 (+0.3 ms per write here). */
    static final List<String> CONNECTION_PRAGMAS = List.of(
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=FULL",
            "PRAGMA foreign_keys=ON");
    /** The reader connection commits only access counts, which may be lost with a power cut but not a kill. */
    static final String ACCESS_FLUSH_SYNC = "PRAGMA synchronous=NORMAL";

    /** V1, the initial schema. Instants are epoch milliseconds; enums are their Java names; tags a JSON array. */
    static final List<String> SCHEMA_V1 = List.of(
            """
            CREATE TABLE memories (
              id TEXT PRIMARY KEY NOT NULL,
              zone TEXT NOT NULL,
              key TEXT NOT NULL,
              type TEXT NOT NULL,
              content TEXT NOT NULL,
              tags TEXT NOT NULL,
              file TEXT,
              path_scope TEXT,
              importance TEXT,
              quality REAL NOT NULL,
              confidence REAL NOT NULL,
              status TEXT NOT NULL,
              created_at INTEGER NOT NULL,
              updated_at INTEGER NOT NULL,
              last_accessed_at INTEGER,
              access_count INTEGER NOT NULL,
              expires_at INTEGER,
              review_interval_days INTEGER NOT NULL,
              last_verified_at INTEGER,
              tier TEXT NOT NULL,
              origin TEXT NOT NULL,
              session TEXT,
              branch TEXT,
              pin_priority INTEGER NOT NULL,
              superseded_at INTEGER,
              superseded_by TEXT,
              UNIQUE (zone, key))""",
            "CREATE INDEX memories_zone_created ON memories (zone, created_at, id)",
            "CREATE INDEX memories_created ON memories (created_at, id)",
            """
            CREATE TABLE edges (
              from_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              to_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              type TEXT NOT NULL,
              created_at INTEGER NOT NULL,
              UNIQUE (from_id, to_id, type))""",
            "CREATE INDEX edges_to ON edges (to_id)",
            """
            CREATE TABLE versions (
              memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              version INTEGER NOT NULL,
              content TEXT NOT NULL,
              tags TEXT NOT NULL,
              importance TEXT,
              replaced_at INTEGER NOT NULL,
              PRIMARY KEY (memory_id, version))""",
            """
            CREATE TABLE changes (
              seq INTEGER PRIMARY KEY AUTOINCREMENT,
              memory_id TEXT NOT NULL)""");

    /**
     * V2: one vector per memory with the model that made it. Vectors are little-endian float32 so the
     * blob is the same bytes on every platform; dims is kept so a truncated blob is detected on read.
     * Deleting a memory deletes its vector (ON DELETE CASCADE, foreign_keys=ON on every connection).
     */
    static final List<String> SCHEMA_V2 = List.of(
            """
            CREATE TABLE embeddings (
              memory_id TEXT PRIMARY KEY NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              model_id TEXT NOT NULL,
              dims INTEGER NOT NULL CHECK (dims > 0),
              vector BLOB NOT NULL CHECK (length(vector) = 4 * dims))""");

    /**
     * V3: a partial index for {@link #PINNED}, which every ranked recall runs. Without it the query
     * scanned the whole zone: about 13 ms of a 20-28 ms recall at 10k memories; with it 0.08 ms
     * (docs/benchmarks.md §1). Partial, because pins are rare: the index holds only pinned rows and
     * costs nothing on the writes of unpinned memories. PINNED repeats {@code pin_priority > 0}
     * verbatim, which is what lets SQLite's planner use it.
     */
    static final List<String> SCHEMA_V3 = List.of(
            "CREATE INDEX memories_zone_pinned ON memories (zone, pin_priority) WHERE pin_priority > 0");

    /**
     * V4: hard-deleted memories, kept for the restore window (Engine's forget). A tombstone holds the
     * memory's columns as they were, the edges that touched it and its versions in tables of their own
     * (no reference to memories: the ends may be gone, the id may be taken again), and its vector
     * inline. No UNIQUE (zone, key): the key is free again for live memories, and may be deleted twice.
     */
    static final List<String> SCHEMA_V4 = List.of(
            """
            CREATE TABLE tombstones (
              id TEXT PRIMARY KEY NOT NULL,
              zone TEXT NOT NULL,
              key TEXT NOT NULL,
              type TEXT NOT NULL,
              content TEXT NOT NULL,
              tags TEXT NOT NULL,
              file TEXT,
              path_scope TEXT,
              importance TEXT,
              quality REAL NOT NULL,
              confidence REAL NOT NULL,
              status TEXT NOT NULL,
              created_at INTEGER NOT NULL,
              updated_at INTEGER NOT NULL,
              last_accessed_at INTEGER,
              access_count INTEGER NOT NULL,
              expires_at INTEGER,
              review_interval_days INTEGER NOT NULL,
              last_verified_at INTEGER,
              tier TEXT NOT NULL,
              origin TEXT NOT NULL,
              session TEXT,
              branch TEXT,
              pin_priority INTEGER NOT NULL,
              superseded_at INTEGER,
              superseded_by TEXT,
              deleted_at INTEGER NOT NULL,
              embedding_model TEXT,
              embedding_dims INTEGER,
              embedding_vector BLOB)""",
            "CREATE INDEX tombstones_key ON tombstones (zone, key, deleted_at)",
            "CREATE INDEX tombstones_deleted ON tombstones (deleted_at)",
            """
            CREATE TABLE tombstone_edges (
              memory_id TEXT NOT NULL REFERENCES tombstones (id) ON DELETE CASCADE,
              from_id TEXT NOT NULL,
              to_id TEXT NOT NULL,
              type TEXT NOT NULL,
              created_at INTEGER NOT NULL)""",
            "CREATE INDEX tombstone_edges_of ON tombstone_edges (memory_id)",
            """
            CREATE TABLE tombstone_versions (
              memory_id TEXT NOT NULL REFERENCES tombstones (id) ON DELETE CASCADE,
              version INTEGER NOT NULL,
              content TEXT NOT NULL,
              tags TEXT NOT NULL,
              importance TEXT,
              replaced_at INTEGER NOT NULL,
              PRIMARY KEY (memory_id, version))""");

    /**
     * The memory columns in bind order (see {@link MemoryRows#bindFields}). V5 added name, entity_type,
     * occurred_at, verify_count and relevance and dropped tier, which is computed on read; V6 last_decay_at.
     */
    private static final List<String> COLUMNS = List.of("id", "zone", "key", "name", "type", "entity_type", "content",
            "tags", "file", "path_scope", "importance", "quality", "confidence", "status", "created_at", "updated_at",
            "last_accessed_at", "access_count", "expires_at", "occurred_at", "review_interval_days", "last_verified_at",
            "verify_count", "relevance", "origin", "session", "branch", "pin_priority", "superseded_at", "superseded_by",
            "last_decay_at");
    /**
     * V6, the written-back decay (issue 17): when maintenance last faded the memory's importance, so the
     * fading computed on read continues from there. Null (never) for every memory of an older store,
     * which then fades from its last read or creation as before: nothing is lost or decayed twice.
     */
    static final List<String> SCHEMA_V6 = List.of(
            "ALTER TABLE memories ADD COLUMN last_decay_at INTEGER",
            "ALTER TABLE tombstones ADD COLUMN last_decay_at INTEGER");
    /**
     * V7: which memories' links changed, in commit order, written by triggers so that every statement on {@code edges}
     * (a link, an unlink, a cascade from a deleted memory, a restore) is in it. The record cache reads it to drop just the
     * edge lists and link counts of those memories; before, it dropped all of them on every commit, and under a stream of
     * writes every recall counted its hundred candidates' links in SQLite again (issue 18's load). The search index does not
     * read it: no search field depends on links.
     */
    static final List<String> SCHEMA_V7 = List.of(
            """
            CREATE TABLE edge_changes (
              seq INTEGER PRIMARY KEY AUTOINCREMENT,
              memory_id TEXT NOT NULL)""",
            """
            CREATE TRIGGER edges_inserted AFTER INSERT ON edges BEGIN
              INSERT INTO edge_changes (memory_id) VALUES (NEW.from_id);
              INSERT INTO edge_changes (memory_id) VALUES (NEW.to_id);
            END""",
            """
            CREATE TRIGGER edges_deleted AFTER DELETE ON edges BEGIN
              INSERT INTO edge_changes (memory_id) VALUES (OLD.from_id);
              INSERT INTO edge_changes (memory_id) VALUES (OLD.to_id);
            END""",
            """
            CREATE TRIGGER edges_updated AFTER UPDATE ON edges BEGIN
              INSERT INTO edge_changes (memory_id) VALUES (OLD.from_id);
              INSERT INTO edge_changes (memory_id) VALUES (OLD.to_id);
              INSERT INTO edge_changes (memory_id) VALUES (NEW.from_id);
              INSERT INTO edge_changes (memory_id) VALUES (NEW.to_id);
            END""");
    /**
     * V5, the widened model (issue 15): a display name (unique in its zone when set: a partial index,
     * because native memories have none), a free-text entity type, when the remembered event happened, the verification count and a
     * relevance weight; a free-text label on edges, part of an edge's identity; zone descriptions;
     * marks of one-time jobs. The stored tier goes: it was written once at creation and disagreed with what stats computed,
     * so the tier is now computed on read only. The review interval's old default of 1 day was never
     * set by any caller and becomes the new default of 7.
     * <p>edges is rebuilt to change its UNIQUE constraint (SQLite cannot alter one); rows are copied in
     * rowid order, which is the order they were added. Nothing references edges, so dropping the old
     * table keeps every foreign key valid.
     */
    static final List<String> SCHEMA_V5 = List.of(
            "ALTER TABLE memories ADD COLUMN name TEXT",
            "ALTER TABLE memories ADD COLUMN entity_type TEXT",
            "ALTER TABLE memories ADD COLUMN occurred_at INTEGER",
            "ALTER TABLE memories ADD COLUMN verify_count INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE memories ADD COLUMN relevance REAL NOT NULL DEFAULT 1.0",
            "ALTER TABLE memories DROP COLUMN tier",
            "UPDATE memories SET review_interval_days = 7 WHERE review_interval_days = 1",
            "CREATE UNIQUE INDEX memories_zone_name ON memories (zone, name) WHERE name IS NOT NULL",
            "ALTER TABLE tombstones ADD COLUMN name TEXT",
            "ALTER TABLE tombstones ADD COLUMN entity_type TEXT",
            "ALTER TABLE tombstones ADD COLUMN occurred_at INTEGER",
            "ALTER TABLE tombstones ADD COLUMN verify_count INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE tombstones ADD COLUMN relevance REAL NOT NULL DEFAULT 1.0",
            "ALTER TABLE tombstones DROP COLUMN tier",
            "UPDATE tombstones SET review_interval_days = 7 WHERE review_interval_days = 1",
            """
            CREATE TABLE edges_v5 (
              from_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              to_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              type TEXT NOT NULL,
              label TEXT NOT NULL DEFAULT '',
              created_at INTEGER NOT NULL,
              UNIQUE (from_id, to_id, type, label))""",
            "INSERT INTO edges_v5 (from_id, to_id, type, label, created_at)"
                    + " SELECT from_id, to_id, type, '', created_at FROM edges ORDER BY rowid",
            "DROP TABLE edges",
            "ALTER TABLE edges_v5 RENAME TO edges",
            "CREATE INDEX edges_to ON edges (to_id)",
            "ALTER TABLE tombstone_edges ADD COLUMN label TEXT NOT NULL DEFAULT ''",
            "CREATE TABLE marks (name TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)",
            """
            CREATE TABLE zones (
              name TEXT PRIMARY KEY NOT NULL,
              short_description TEXT,
              description TEXT,
              created_at INTEGER NOT NULL,
              updated_at INTEGER NOT NULL)""");

    static final String MEMORY_COLUMNS = String.join(", ", COLUMNS);

    static final String INSERT_MEMORY = "INSERT INTO memories (" + MEMORY_COLUMNS + ") VALUES ("
            + placeholders(COLUMNS.size()) + ")";
    /** Same column order as {@link #INSERT_MEMORY} minus the id, which comes last. */
    static final String UPDATE_MEMORY = "UPDATE memories SET "
            + String.join(" = ?, ", COLUMNS.subList(1, COLUMNS.size())) + " = ? WHERE id = ?";

    private static String placeholders(int n) {
        return "?, ".repeat(n - 1) + "?";
    }

    static final String DELETE_MEMORY = "DELETE FROM memories WHERE id = ?";
    static final String MEMORY_BY_ID = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE id = ?";
    /**
     * Up to {@link #MAX_IDS_PER_QUERY} memories by id in one statement: a recall loads its 100
     * candidates at once instead of running 100 statements (each its own read transaction).
     */
    static String memoriesByIds(int n) {
        return "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE id IN (" + "?, ".repeat(n - 1) + "?)";
    }

    /** Below SQLite's smallest default limit on bound parameters (999 before 3.32). */
    static final int MAX_IDS_PER_QUERY = 500;

    /** Distinct neighbours of up to {@link #MAX_IDS_PER_QUERY} memories; the ids are bound twice, once per direction. */
    static String degreesOf(int n) {
        String in = "(" + "?, ".repeat(n - 1) + "?)";
        return "SELECT id, COUNT(DISTINCT other) FROM (SELECT from_id AS id, to_id AS other FROM edges WHERE from_id IN " + in
                + " UNION ALL SELECT to_id, from_id FROM edges WHERE to_id IN " + in + ") GROUP BY id";
    }
    static final String MEMORY_BY_KEY = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND key = ?";
    /**
     * The ids a reference may name: the memory with that id (first parameter) and, flagged, the zone's memory with that
     * key. Only ids: sqlite-jdbc reads every column's name for each result set, a row-wide miss cost twice this one.
     */
    static final String IDS_BY_REFERENCE = "SELECT id, zone = ? AND key = ? FROM memories WHERE id = ? OR (zone = ? AND key = ?)";
    static final String MEMORY_BY_NAME = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND name = ?";
    static final String MEMORY_EXISTS = "SELECT 1 FROM memories WHERE id = ?";
    static final String PINNED = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND pin_priority > 0"
            + " ORDER BY pin_priority DESC, created_at, id";
    /**
     * Keyset pages, oldest first: (created_at, id) after the last row of the previous page. Written as a
     * row-value comparison so that SQLite seeks to it in the (zone,) created_at, id index; spelled
     * {@code created_at > ? OR (created_at = ? AND id > ?)}, the same condition made every page walk the
     * index from the zone's first row: {@code stats} over 100k memories took 2.0-2.9 s instead of
     * 1.1-1.2 s (docs/benchmarks.md §0).
     */
    static final String PAGE_OF_ZONE = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ?"
            + " AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?";
    static final String PAGE_OF_ALL = "SELECT " + MEMORY_COLUMNS + " FROM memories"
            + " WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?";
    static final String ZONES = "SELECT DISTINCT zone FROM memories ORDER BY zone";
    static final String COUNT = "SELECT COUNT(*) FROM memories";
    static final String EDGE_COUNT = "SELECT COUNT(*) FROM edges";
    static final String EDGE_COUNT_IN_ZONE = "SELECT COUNT(*) FROM edges e JOIN memories m ON m.id = e.from_id WHERE m.zone = ?";
    /**
     * Several recalls' bumps of one memory at once: see {@link PendingAccess}. The last read only moves forward, so
     * bumps written in any order (by several processes, with their own clocks) leave the same row.
     */
    static final String RECORD_ACCESS = "UPDATE memories SET access_count = access_count + ?1,"
            + " last_accessed_at = MAX(IFNULL(last_accessed_at, ?2), ?2) WHERE id = ?3";

    /** An unlabelled edge stores label '' (NOT NULL), so UNIQUE (from_id, to_id, type, label) covers it too. */
    static final String INSERT_EDGE = "INSERT OR IGNORE INTO edges (from_id, to_id, type, label, created_at)"
            + " VALUES (?, ?, ?, ?, ?)";
    static final String DELETE_EDGE = "DELETE FROM edges WHERE from_id = ? AND to_id = ? AND type = ? AND label = ?";
    /** rowid breaks ties in creation time, so edges added in one instant keep their insertion order. */
    static final String EDGES_OF = "SELECT from_id, to_id, type, label, created_at FROM edges WHERE from_id = ?1 OR to_id = ?1"
            + " ORDER BY created_at, rowid";
    /** Every edge out of a zone's memories, in EDGES_OF's order: grouped by source, each group is what EDGES_OF gives it. */
    static final String EDGES_OUT_OF_ZONE = "SELECT e.from_id, e.to_id, e.type, e.label, e.created_at FROM edges e"
            + " JOIN memories m ON m.id = e.from_id WHERE m.zone = ? ORDER BY e.created_at, e.rowid";
    static final String EDGES_ALL = "SELECT from_id, to_id, type, label, created_at FROM edges ORDER BY created_at, rowid";

    static final String ZONE_INFO = "SELECT name, short_description, description, created_at, updated_at FROM zones"
            + " WHERE name = ?";
    static final String ZONE_INFOS = "SELECT name, short_description, description, created_at, updated_at FROM zones"
            + " ORDER BY name";
    static final String PUT_ZONE = "INSERT INTO zones (name, short_description, description, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET short_description = excluded.short_description,"
            + " description = excluded.description, created_at = excluded.created_at, updated_at = excluded.updated_at";
    static final String DELETE_ZONE = "DELETE FROM zones WHERE name = ?";
    static final String MARK = "SELECT value FROM marks WHERE name = ?";
    /**
     * Counts the commits that wrote access counts, which the change feed leaves out: a process whose record
     * cache sees it move by someone else's hand drops its cached rows ({@link RecordCache}). Never sealed.
     */
    static final String ACCESS_EPOCH_MARK = "access.epoch";
    static final String ACCESS_EPOCH = "SELECT COALESCE((SELECT CAST(value AS INTEGER) FROM marks WHERE name = '"
            + ACCESS_EPOCH_MARK + "'), 0)";
    static final String NEXT_ACCESS_EPOCH = "INSERT INTO marks (name, value) VALUES ('" + ACCESS_EPOCH_MARK + "', '1')"
            + " ON CONFLICT (name) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)";
    static final String PUT_MARK = "INSERT INTO marks (name, value) VALUES (?, ?)"
            + " ON CONFLICT (name) DO UPDATE SET value = excluded.value";

    static final String INSERT_VERSION = "INSERT INTO versions (memory_id, version, content, tags, importance,"
            + " replaced_at) VALUES (?, ?, ?, ?, ?, ?)";
    static final String VERSIONS_OF = "SELECT memory_id, version, content, tags, importance, replaced_at FROM versions"
            + " WHERE memory_id = ? ORDER BY version";
    static final String VERSION_COUNT = "SELECT COUNT(*) FROM versions WHERE memory_id = ?";

    static final String UPSERT_EMBEDDING = "INSERT INTO embeddings (memory_id, model_id, dims, vector)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (memory_id) DO UPDATE SET model_id = excluded.model_id,"
            + " dims = excluded.dims, vector = excluded.vector";
    static final String DELETE_EMBEDDING = "DELETE FROM embeddings WHERE memory_id = ?";
    static final String EMBEDDING_OF = "SELECT model_id, dims, vector FROM embeddings WHERE memory_id = ?";
    /** Oldest first, the order of forEach, so a background embedder works through a store in a stable order. */
    static final String MISSING_EMBEDDINGS = "SELECT m.id FROM memories m LEFT JOIN embeddings e ON e.memory_id = m.id"
            + " WHERE e.memory_id IS NULL OR e.model_id <> ? ORDER BY m.created_at, m.id LIMIT ?";

    static final String INSERT_TOMBSTONE = "INSERT INTO tombstones (" + MEMORY_COLUMNS + ", deleted_at,"
            + " embedding_model, embedding_dims, embedding_vector) VALUES (" + placeholders(COLUMNS.size() + 4) + ")";
    static final String TOMBSTONE_BY_ID = "SELECT " + MEMORY_COLUMNS + ", deleted_at, embedding_model, embedding_dims,"
            + " embedding_vector FROM tombstones WHERE id = ?";
    /** rowid breaks a tie in deletion time: the later put wins. */
    static final String TOMBSTONE_ID_BY_KEY = "SELECT id FROM tombstones WHERE zone = ? AND key = ?"
            + " ORDER BY deleted_at DESC, rowid DESC LIMIT 1";
    /** Edges and versions go by ON DELETE CASCADE. */
    static final String DELETE_TOMBSTONE = "DELETE FROM tombstones WHERE id = ?";
    static final String PURGE_TOMBSTONES = "DELETE FROM tombstones WHERE deleted_at < ?";
    static final String INSERT_TOMBSTONE_EDGE = "INSERT INTO tombstone_edges (memory_id, from_id, to_id, type, label,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?)";
    /** rowid: the edges come back in the order they were put. */
    static final String TOMBSTONE_EDGES = "SELECT from_id, to_id, type, label, created_at FROM tombstone_edges WHERE memory_id = ?"
            + " ORDER BY rowid";
    static final String INSERT_TOMBSTONE_VERSION = "INSERT INTO tombstone_versions (memory_id, version, content, tags,"
            + " importance, replaced_at) VALUES (?, ?, ?, ?, ?, ?)";
    static final String TOMBSTONE_VERSIONS = "SELECT memory_id, version, content, tags, importance, replaced_at"
            + " FROM tombstone_versions WHERE memory_id = ? ORDER BY rowid";

    static final String APPEND_CHANGE = "INSERT INTO changes (memory_id) VALUES (?)";
    static final String HEAD_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM changes";
    /** Moves whenever another connection (in any process) commits; see {@link RecordCache}. */
    static final String DATA_VERSION = "PRAGMA data_version";
    static final String CHANGES_SINCE = "SELECT seq, memory_id FROM changes WHERE seq > ? ORDER BY seq LIMIT ?";
    /** {@link #CHANGES_SINCE} with whether each memory is pinned now, for the record cache's pinned lists. */
    static final String CHANGES_SINCE_WITH_PINS = "SELECT seq, memory_id, (SELECT pin_priority > 0 FROM memories m"
            + " WHERE m.id = c.memory_id) FROM changes c WHERE seq > ? ORDER BY seq LIMIT ?";
    static final String EDGE_HEAD_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM edge_changes";
    static final String EDGE_CHANGES_SINCE = "SELECT seq, memory_id FROM edge_changes WHERE seq > ? ORDER BY seq LIMIT ?";
}
