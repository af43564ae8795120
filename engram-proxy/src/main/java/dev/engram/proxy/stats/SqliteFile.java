package dev.engram.proxy.stats;

import dev.engram.error.EngramUserException;
import dev.engram.error.StoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One SQLite file with one connection, serialized by {@code this}. WAL and a busy timeout let the
 * CLI read while a proxy writes; every SQL failure becomes a {@link StoreException} naming the file.
 * For derived data only (stats, cache): commits are not fsynced.
 * <p>The file carries Engram's SQLite application id like the store's record; a file of the same name
 * with another program's id is refused before anything is written to it.
 */
public final class SqliteFile implements AutoCloseable {
    /**
     * ASCII 'EGRM': the value of dev.engram.store.sqlite.DatabaseIdentity.APPLICATION_ID, repeated
     * because the proxy does not depend on the store module (engram-cli's tests check they agree).
     */
    public static final int APPLICATION_ID = 0x4547524D;

    private final Path path;
    private final Connection connection;

    public SqliteFile(Path path, List<String> schema) {
        this.path = path;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            connection = DriverManager.getConnection("jdbc:sqlite:" + path);
            try (Statement s = connection.createStatement()) {
                // before the first write (switching to WAL is one): a read leaves another program's file as it was
                int id = applicationId(s);
                if (id != 0 && id != APPLICATION_ID) {
                    connection.close();
                    throw new EngramUserException(path + " is not Engram's (SQLite application id "
                            + String.format("0x%08X", id) + "); Engram left it untouched; move it away or choose another store directory");
                }
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA busy_timeout=5000");
                // stats and cache rows are not the memory record: an fsync per proxied call (FULL) cost
                // milliseconds on the call path (ProxyHopBench); NORMAL in WAL mode survives a crash of
                // the process and may lose only the last rows on power loss
                s.execute("PRAGMA synchronous=NORMAL");
                for (String ddl : schema) s.execute(ddl);
                if (id == 0) s.execute("PRAGMA application_id = " + APPLICATION_ID);
            }
        } catch (java.io.IOException | SQLException e) {
            throw new StoreException("open " + path + ": " + e.getMessage(), e);
        }
    }

    private static int applicationId(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("PRAGMA application_id")) {
            return rs.next() ? rs.getInt(1) : 0;
        }
    }

    public synchronized int update(String sql, Object... args) {
        try (PreparedStatement ps = prepare(sql, args)) {
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreException(path.getFileName() + ": " + e.getMessage() + " in " + sql, e);
        }
    }

    public synchronized List<Map<String, Object>> query(String sql, Object... args) {
        try (PreparedStatement ps = prepare(sql, args); ResultSet rs = ps.executeQuery()) {
            List<Map<String, Object>> rows = new ArrayList<>();
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= md.getColumnCount(); i++) row.put(md.getColumnLabel(i), rs.getObject(i));
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            throw new StoreException(path.getFileName() + ": " + e.getMessage() + " in " + sql, e);
        }
    }

    private PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
        return ps;
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            throw new StoreException("close " + path + ": " + e.getMessage(), e);
        }
    }
}
