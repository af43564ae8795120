package dev.engram.store.sqlite;

import dev.engram.error.StoreException;
import dev.engram.store.sqlite.DatabaseIdentity.Absent;
import dev.engram.store.sqlite.DatabaseIdentity.Engram;
import dev.engram.store.sqlite.DatabaseIdentity.Foreign;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;

/**
 * Tells whose a SQLite file is without changing it, before Engram opens it for writing: switching a
 * file to WAL, a migration, even a checkpoint would alter another program's database.
 * <p>The 100-byte header answers most cases with a plain file read: not SQLite, another application
 * id, or Engram's. A file without an application id (a store from before Engram set one, an empty
 * file, or another program's) is opened read-only to list its tables. That open is {@code immutable}
 * when no {@code -wal} file lies beside it, so it creates no {@code -shm}/{@code -wal} files either;
 * with a {@code -wal} present (a writer is running or crashed), the header may be stale, and a normal
 * read-only open reads through the WAL.
 */
public final class DatabaseInspector {
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER_SIZE = 100;
    private static final int USER_VERSION_OFFSET = 60;
    private static final int APPLICATION_ID_OFFSET = 68;
    /** Enough stranger tables to recognise a schema in a message; the rest are counted. */
    private static final int TABLES_NAMED = 6;

    /** A program known by tables only it creates; the first whose tables are all present is named. */
    private record KnownSchema(String owner, Set<String> tables) {
    }

    private static final List<KnownSchema> KNOWN = List.of(
            // ~/.engram/engram.db is its default, which was ours too until the store moved (issue 20)
            new KnownSchema("Gentleman-Programming/engram, another memory server whose command is also `engram`",
                    Set.of("sessions", "observations", "observations_fts")));

    private DatabaseInspector() {
    }

    /** What {@code file} is; never writes to it or creates files beside it (see the class comment). */
    public static DatabaseIdentity inspect(Path file) {
        if (!Files.exists(file)) return new Absent();
        if (!Files.isRegularFile(file)) return new Foreign("is not a regular file", Optional.empty());
        byte[] header = header(file);
        if (header.length == 0) return new Absent(); // SQLite treats a zero-byte file as an empty database
        if (header.length < HEADER_SIZE || !Arrays.equals(header, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
            return new Foreign("is not a SQLite database", Optional.empty());
        }
        ByteBuffer fields = ByteBuffer.wrap(header); // the header's integers are big-endian, ByteBuffer's default
        int applicationId = fields.getInt(APPLICATION_ID_OFFSET);
        if (applicationId != 0) return classify(applicationId, fields.getInt(USER_VERSION_OFFSET), Set.of());
        return inspectSchema(file);
    }

    /**
     * The verdict on a database's application id, schema version and table names (SQLite's own
     * {@code sqlite_*} tables are ignored). Also run by {@link SchemaMigrations} inside its write
     * transaction, so a file that changed since {@link #inspect} is still never migrated.
     */
    static DatabaseIdentity classify(int applicationId, int userVersion, Collection<String> tableNames) {
        if (applicationId == DatabaseIdentity.APPLICATION_ID) return new Engram(userVersion, true);
        if (applicationId != 0) {
            return new Foreign("carries the SQLite application id " + describe(applicationId) + ", not Engram's "
                    + describe(DatabaseIdentity.APPLICATION_ID), Optional.empty());
        }
        SortedSet<String> tables = new TreeSet<>();
        for (String t : tableNames) if (!t.startsWith("sqlite_")) tables.add(t);
        if (tables.isEmpty() && userVersion == 0) return new Absent();
        SortedSet<String> strangers = new TreeSet<>(tables);
        strangers.removeAll(SqliteStatements.TABLES);
        if (strangers.isEmpty() && tables.contains("memories") && userVersion >= 1) return new Engram(userVersion, false);
        if (strangers.isEmpty()) {
            return new Foreign("has no Engram application id, and its tables " + tables + " at schema version "
                    + userVersion + " are not a schema any Engram wrote", Optional.empty());
        }
        return new Foreign("has tables Engram never creates (" + named(strangers) + ") and no Engram application id",
                KNOWN.stream().filter(k -> tables.containsAll(k.tables())).map(KnownSchema::owner).findFirst());
    }

    private static DatabaseIdentity inspectSchema(Path file) {
        boolean walBeside = Files.exists(file.resolveSibling(file.getFileName() + "-wal"));
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        config.setBusyTimeout(2_000);
        String url = "jdbc:sqlite:" + file.toAbsolutePath().toUri() + (walBeside ? "?mode=ro" : "?immutable=1");
        try (Connection c = config.createConnection(url); Statement st = c.createStatement()) {
            int applicationId = intPragma(st, SqliteStatements.APPLICATION_ID);
            int userVersion = intPragma(st, SqliteStatements.USER_VERSION);
            return classify(applicationId, userVersion, tableNames(st));
        } catch (SQLException e) {
            if (e.getErrorCode() == SQLiteErrorCode.SQLITE_NOTADB.code) {
                return new Foreign("is not a SQLite database (or is encrypted)", Optional.empty());
            }
            throw new StoreException("inspect " + file + " before opening it: " + e.getMessage(), e);
        }
    }

    static int intPragma(Statement st, String pragma) throws SQLException {
        try (ResultSet rs = st.executeQuery(pragma)) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    static List<String> tableNames(Statement st) throws SQLException {
        List<String> names = new java.util.ArrayList<>();
        try (ResultSet rs = st.executeQuery(SqliteStatements.TABLE_NAMES)) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }

    private static byte[] header(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return in.readNBytes(HEADER_SIZE);
        } catch (IOException e) {
            throw new StoreException("inspect " + file + " before opening it: " + e.getMessage(), e);
        }
    }

    /** {@code 0x47504B47 ('GPKG')}: ids are often four ASCII letters. */
    private static String describe(int id) {
        byte[] b = ByteBuffer.allocate(4).putInt(id).array();
        boolean printable = true;
        for (byte x : b) printable &= x >= 0x20 && x < 0x7f;
        return String.format("0x%08X", id) + (printable ? " ('" + new String(b, StandardCharsets.US_ASCII) + "')" : "");
    }

    private static String named(SortedSet<String> tables) {
        List<String> all = List.copyOf(tables);
        String shown = String.join(", ", all.subList(0, Math.min(all.size(), TABLES_NAMED)));
        return all.size() > TABLES_NAMED ? shown + " and " + (all.size() - TABLES_NAMED) + " more" : shown;
    }
}
