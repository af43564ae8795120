package dev.engram.store.sqlite;

import dev.engram.error.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a database to the newest schema. The version lives in {@code PRAGMA user_version} (0 for a
 * new file). The missing steps run in one {@code BEGIN IMMEDIATE} transaction, so two processes
 * opening the same old file migrate it once and a crash mid-way leaves the old schema intact.
 * Adding V2 means appending one {@link Migration} to {@link #STEPS}. Steps run with foreign keys on
 * (the pragma cannot change inside a transaction), so a step that rebuilds a table must keep every
 * reference valid at each statement.
 * <p>The same transaction checks whose the file is ({@link DatabaseInspector#classify}) before any
 * step, and stamps Engram's application id on a new file or on a store from before Engram set one.
 * The caller has inspected the file read-only already; this check under the write lock covers a file
 * another program created or changed in between.
 */
final class SchemaMigrations {
    private static final Logger log = LoggerFactory.getLogger(SchemaMigrations.class);

    /** The schema history, oldest first, versions 1, 2, 3... without gaps. */
    static final List<Migration> STEPS = List.of(
            new Migration(1, "initial schema: memories, edges, versions, changes", SqliteStatements.SCHEMA_V1),
            new Migration(2, "embeddings: one vector per memory, with its model", SqliteStatements.SCHEMA_V2),
            new Migration(3, "pinned-memories index: recall no longer scans the zone", SqliteStatements.SCHEMA_V3),
            new Migration(4, "tombstones: hard-deleted memories, restorable for a while", SqliteStatements.SCHEMA_V4),
            new Migration(5, "widened model: display names, entity types, edge labels, zone descriptions; tier computed",
                    SqliteStatements.SCHEMA_V5),
            new Migration(6, "written-back decay: when maintenance last faded a memory's importance",
                    SqliteStatements.SCHEMA_V6),
            new Migration(7, "edge changes: which memories' links changed, so cached link counts are dropped one by one",
                    SqliteStatements.SCHEMA_V7));

    private final List<Migration> steps;

    SchemaMigrations(List<Migration> steps) {
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

    /** Runs the missing steps; the caller has set busy_timeout so the IMMEDIATE lock waits for other writers. */
    void migrate(Connection c, Path file) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(SqliteStatements.BEGIN_IMMEDIATE);
            boolean done = false;
            boolean stamp;
            try {
                int current = userVersion(st);
                DatabaseIdentity identity = DatabaseInspector.classify(
                        DatabaseInspector.intPragma(st, SqliteStatements.APPLICATION_ID), current, DatabaseInspector.tableNames(st));
                if (identity instanceof DatabaseIdentity.Foreign foreign) throw new ForeignDatabaseException(file, foreign);
                if (current > latest()) {
                    throw new StoreException("open " + file + ": its schema version is " + current
                            + " but this Engram understands versions up to " + latest()
                            + "; it was written by a newer Engram, so upgrade Engram to open it");
                }
                for (Migration m : steps.subList(current, steps.size())) {
                    // a new file runs every step too; only upgrades of existing data are worth an INFO line
                    if (current > 0) log.info("store {}: migrating schema to version {} ({})", file, m.version(), m.description());
                    for (String sql : m.statements()) {
                        st.execute(sql);
                    }
                    st.execute(SqliteStatements.setUserVersion(m.version()));
                }
                stamp = !(identity instanceof DatabaseIdentity.Engram engram && engram.stamped());
                if (stamp) {
                    if (identity instanceof DatabaseIdentity.Engram) {
                        log.info("store {}: stamping Engram's application id on a store from an earlier version", file);
                    }
                    st.execute(SqliteStatements.setApplicationId(DatabaseIdentity.APPLICATION_ID));
                }
                st.execute(SqliteStatements.COMMIT);
                done = true;
            } finally {
                if (!done) rollbackQuietly(st);
            }
            // once only: later opens then tell the store by its header without opening SQLite. PASSIVE
            // never waits; if a reader holds the frames back, the next automatic checkpoint copies them
            if (stamp) st.execute(SqliteStatements.CHECKPOINT);
        }
    }

    private static void rollbackQuietly(Statement st) {
        try {
            st.execute(SqliteStatements.ROLLBACK);
        } catch (SQLException e) {
            // the failure that got us here is the one the caller must see
            log.debug("rollback of a failed migration: {}", e.getMessage());
        }
    }

    static int userVersion(Statement st) throws SQLException {
        return DatabaseInspector.intPragma(st, SqliteStatements.USER_VERSION);
    }
}
