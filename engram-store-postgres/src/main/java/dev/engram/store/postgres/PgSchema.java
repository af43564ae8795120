package dev.engram.store.postgres;

import dev.engram.error.StoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL schema and its versioned migrations. The version lives in {@code schema_version}
 * (absent for a new schema). Every missing step runs in one transaction that first takes the
 * schema's migration advisory lock, so several replicas starting together migrate once: the second
 * waits, then finds the schema current. A schema written by a newer Engram is refused, not touched.
 * <p>Instants are epoch milliseconds (bigint) as in the embedded store; enums their Java names; tags
 * a {@code text[]}; vectors little-endian float32 in {@code bytea}, so no extension (pgvector) is
 * needed. Text columns that are compared or sorted use {@code COLLATE "C"}: byte order, the same on
 * every server whatever its locale, so ordering does not depend on how the database was created.
 */
final class PgSchema {
    private static final Logger log = LoggerFactory.getLogger(PgSchema.class);

    /** 'EGRM': the first key of every advisory lock Engram takes; the second is the schema's hash. */
    static final int LOCK_CLASS = 0x4547524D;
    /** Distinct from the write lock's key, so a migration never waits for itself. */
    static final int MIGRATION_LOCK_CLASS = LOCK_CLASS + 1;

    record Step(int version, String description, List<String> statements) {
    }

    static final List<String> V1 = List.of(
            """
            CREATE TABLE memories (
              id text COLLATE "C" PRIMARY KEY,
              zone text COLLATE "C" NOT NULL,
              key text COLLATE "C" NOT NULL,
              name text COLLATE "C",
              type text NOT NULL,
              entity_type text,
              content text NOT NULL,
              tags text[] NOT NULL,
              file text,
              path_scope text,
              importance text,
              quality double precision NOT NULL,
              confidence double precision NOT NULL,
              status text NOT NULL,
              created_at bigint NOT NULL,
              updated_at bigint NOT NULL,
              last_accessed_at bigint,
              access_count bigint NOT NULL,
              expires_at bigint,
              occurred_at bigint,
              review_interval_days integer NOT NULL,
              last_verified_at bigint,
              verify_count integer NOT NULL,
              relevance double precision NOT NULL,
              origin text NOT NULL,
              session text,
              branch text,
              pin_priority integer NOT NULL,
              superseded_at bigint,
              superseded_by text,
              UNIQUE (zone, key))""",
            "CREATE UNIQUE INDEX memories_zone_name ON memories (zone, name) WHERE name IS NOT NULL",
            "CREATE INDEX memories_zone_created ON memories (zone, created_at, id)",
            "CREATE INDEX memories_created ON memories (created_at, id)",
            "CREATE INDEX memories_zone_pinned ON memories (zone, pin_priority) WHERE pin_priority > 0",
            """
            CREATE TABLE edges (
              ord bigserial PRIMARY KEY,
              from_id text COLLATE "C" NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              to_id text COLLATE "C" NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              type text NOT NULL,
              label text NOT NULL,
              created_at bigint NOT NULL,
              UNIQUE (from_id, to_id, type, label))""",
            "CREATE INDEX edges_to ON edges (to_id)",
            """
            CREATE TABLE versions (
              memory_id text COLLATE "C" NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
              version integer NOT NULL,
              content text NOT NULL,
              tags text[] NOT NULL,
              importance text,
              replaced_at bigint NOT NULL,
              PRIMARY KEY (memory_id, version))""",
            """
            CREATE TABLE embeddings (
              memory_id text COLLATE "C" PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
              model_id text NOT NULL,
              dims integer NOT NULL CHECK (dims > 0),
              vector bytea NOT NULL CHECK (length(vector) = 4 * dims))""",
            // the change feed: seq is assigned under the write lock as max + 1, not from a SEQUENCE, so
            // it has no gaps (a rolled-back nextval would leave one) and commit order is seq order,
            // which is what lets a follower read "everything after n" without missing a late commit
            """
            CREATE TABLE changes (
              seq bigint PRIMARY KEY,
              memory_id text COLLATE "C" NOT NULL)""",
            """
            CREATE TABLE tombstones (
              ord bigserial UNIQUE,
              id text COLLATE "C" PRIMARY KEY,
              zone text COLLATE "C" NOT NULL,
              key text COLLATE "C" NOT NULL,
              name text COLLATE "C",
              type text NOT NULL,
              entity_type text,
              content text NOT NULL,
              tags text[] NOT NULL,
              file text,
              path_scope text,
              importance text,
              quality double precision NOT NULL,
              confidence double precision NOT NULL,
              status text NOT NULL,
              created_at bigint NOT NULL,
              updated_at bigint NOT NULL,
              last_accessed_at bigint,
              access_count bigint NOT NULL,
              expires_at bigint,
              occurred_at bigint,
              review_interval_days integer NOT NULL,
              last_verified_at bigint,
              verify_count integer NOT NULL,
              relevance double precision NOT NULL,
              origin text NOT NULL,
              session text,
              branch text,
              pin_priority integer NOT NULL,
              superseded_at bigint,
              superseded_by text,
              deleted_at bigint NOT NULL,
              embedding_model text,
              embedding_dims integer,
              embedding_vector bytea)""",
            "CREATE INDEX tombstones_key ON tombstones (zone, key, deleted_at)",
            "CREATE INDEX tombstones_deleted ON tombstones (deleted_at)",
            """
            CREATE TABLE tombstone_edges (
              ord bigserial PRIMARY KEY,
              memory_id text COLLATE "C" NOT NULL REFERENCES tombstones (id) ON DELETE CASCADE,
              from_id text NOT NULL,
              to_id text NOT NULL,
              type text NOT NULL,
              label text NOT NULL,
              created_at bigint NOT NULL)""",
            "CREATE INDEX tombstone_edges_of ON tombstone_edges (memory_id)",
            """
            CREATE TABLE tombstone_versions (
              ord bigserial PRIMARY KEY,
              memory_id text COLLATE "C" NOT NULL REFERENCES tombstones (id) ON DELETE CASCADE,
              version integer NOT NULL,
              content text NOT NULL,
              tags text[] NOT NULL,
              importance text,
              replaced_at bigint NOT NULL)""",
            "CREATE INDEX tombstone_versions_of ON tombstone_versions (memory_id)",
            "CREATE TABLE marks (name text PRIMARY KEY, value text NOT NULL)",
            // names this store for the replicas' local index directories: a schema dropped and created
            // again is another store, so no replica searches an index derived from the old one
            "CREATE TABLE store_identity (id text NOT NULL)",
            "INSERT INTO store_identity (id) VALUES (gen_random_uuid()::text)",
            """
            CREATE TABLE zones (
              name text COLLATE "C" PRIMARY KEY,
              short_description text,
              description text,
              created_at bigint NOT NULL,
              updated_at bigint NOT NULL)""");

    /**
     * V2, the written-back decay (issue 17): when maintenance last faded a memory's importance; null for
     * every memory of an older schema, which then fades from its last read or creation as before.
     */
    static final List<String> V2 = List.of(
            "ALTER TABLE memories ADD COLUMN last_decay_at bigint",
            "ALTER TABLE tombstones ADD COLUMN last_decay_at bigint");

    /**
     * V3, what a replica's record cache needs to know that a row it keeps changed without an entry in the change feed
     * (issue 18): the edge feed, one entry per end of every edge added or removed (written by a trigger, so a cascade
     * from a deleted memory is in it too; numbered max + 1 under the write lock, as the change feed), and the access
     * feed, one entry per transaction that writes access counts, naming the memories (its head is the access epoch).
     */
    static final List<String> V3 = List.of(
            """
            CREATE TABLE edge_changes (
              seq bigint PRIMARY KEY,
              memory_id text COLLATE "C" NOT NULL)""",
            // search_path fixed at creation: the trigger writes the feed of the schema its table is in
            """
            CREATE FUNCTION edge_changed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            DECLARE
              ends text[];
              e text;
            BEGIN
              IF TG_OP = 'INSERT' THEN
                ends := ARRAY[NEW.from_id, NEW.to_id];
              ELSIF TG_OP = 'DELETE' THEN
                ends := ARRAY[OLD.from_id, OLD.to_id];
              ELSE
                ends := ARRAY[OLD.from_id, OLD.to_id, NEW.from_id, NEW.to_id];
              END IF;
              FOREACH e IN ARRAY (SELECT array_agg(DISTINCT x) FROM unnest(ends) AS x) LOOP
                INSERT INTO edge_changes (seq, memory_id) SELECT COALESCE(max(seq), 0) + 1, e FROM edge_changes;
              END LOOP;
              RETURN NULL;
            END
            $$""",
            "CREATE TRIGGER edges_changed AFTER INSERT OR UPDATE OR DELETE ON edges FOR EACH ROW EXECUTE FUNCTION edge_changed()",
            // the access feed: one entry per commit that wrote access counts, naming the memories; its head is the epoch
            """
            CREATE TABLE access_changes (
              seq bigint PRIMARY KEY,
              ids text[] NOT NULL)""");

    /**
     * Version 4 (issue 18): each access-feed entry also says what it added to each memory it names (counts and last
     * reads, in the order of its ids), so another replica adds them to the rows it has cached instead of reading those
     * rows again. Entries written before it have neither; a replica reads their rows again, as it did.
     */
    static final List<String> V4 = List.of("ALTER TABLE access_changes ADD COLUMN counts bigint[], ADD COLUMN lasts bigint[]");

    /** The schema history, oldest first, versions 1, 2, 3... without gaps. */
    static final List<Step> STEPS = List.of(
            new Step(1, "initial schema: memories, edges, versions, vectors, change feed, tombstones, zones, marks", V1),
            new Step(2, "written-back decay: when maintenance last faded a memory's importance", V2),
            new Step(3, "what replicas' record caches follow: the edge feed and the access feed", V3),
            new Step(4, "the access feed says what it added, so replicas patch their cached rows", V4));

    private final List<Step> steps;

    PgSchema(List<Step> steps) {
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).version() != i + 1) {
                throw new IllegalArgumentException("migration " + i + " has version " + steps.get(i).version()
                        + "; versions must be 1, 2, 3... in order");
            }
        }
        this.steps = List.copyOf(steps);
    }

    int latest() {
        return steps.size();
    }

    /**
     * Creates {@code schema} if missing and runs the missing steps in it, in one transaction under
     * the migration lock. The connection's search_path must already name {@code schema}.
     */
    void migrate(Connection c, String schema, String where) throws SQLException {
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        boolean done = false;
        try (Statement st = c.createStatement()) {
            // before CREATE SCHEMA: two replicas creating the same schema at once would otherwise collide
            st.execute("SELECT pg_advisory_xact_lock(" + MIGRATION_LOCK_CLASS + ", " + schema.hashCode() + ")");
            st.execute("CREATE SCHEMA IF NOT EXISTS " + quote(schema));
            st.execute("SET LOCAL search_path TO " + quote(schema)); // the steps' unqualified names land here
            st.execute("CREATE TABLE IF NOT EXISTS " + quote(schema) + ".schema_version (version integer NOT NULL)");
            int current = 0;
            try (ResultSet rs = st.executeQuery("SELECT max(version) FROM " + quote(schema) + ".schema_version")) {
                if (rs.next()) current = rs.getInt(1);
            }
            if (current > latest()) {
                throw new StoreException("open " + where + ": its schema version is " + current
                        + " but this Engram understands versions up to " + latest()
                        + "; it was written by a newer Engram, so upgrade Engram to open it");
            }
            for (Step step : steps.subList(current, steps.size())) {
                if (current > 0) log.info("store {}: migrating schema to version {} ({})", where, step.version(), step.description());
                for (String sql : step.statements()) st.execute(sql);
                st.execute("DELETE FROM " + quote(schema) + ".schema_version");
                st.execute("INSERT INTO " + quote(schema) + ".schema_version (version) VALUES (" + step.version() + ")");
            }
            c.commit();
            done = true;
        } finally {
            if (!done) {
                try {
                    c.rollback();
                } catch (SQLException e) {
                    log.debug("rollback of a failed migration: {}", e.getMessage());
                }
            }
            c.setAutoCommit(autoCommit);
        }
    }

    /** The schema's version as recorded; 0 when it has none. */
    static int version(Connection c, String schema) throws SQLException {
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT to_regclass('" + quote(schema).replace("'", "''") + ".schema_version')")) {
            rs.next();
            if (rs.getString(1) == null) return 0;
        }
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT max(version) FROM " + quote(schema) + ".schema_version")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }
}
