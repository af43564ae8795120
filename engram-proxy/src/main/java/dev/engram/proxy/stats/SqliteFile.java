package dev.engram.proxy.stats;

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
 */
public final class SqliteFile implements AutoCloseable {
    private final Path path;
    private final Connection connection;

    public SqliteFile(Path path, List<String> schema) {
        this.path = path;
        try {
            Files.createDirectories(path.toAbsolutePath().getParent());
            connection = DriverManager.getConnection("jdbc:sqlite:" + path);
            try (Statement s = connection.createStatement()) {
                s.execute("PRAGMA journal_mode=WAL");
                s.execute("PRAGMA busy_timeout=5000");
                // stats and cache rows are not the memory record: an fsync per proxied call (FULL) cost
                // milliseconds on the call path (ProxyHopBench); NORMAL in WAL mode survives a crash of
                // the process and may lose only the last rows on power loss
                s.execute("PRAGMA synchronous=NORMAL");
                for (String ddl : schema) s.execute(ddl);
            }
        } catch (java.io.IOException | SQLException e) {
            throw new StoreException("open " + path + ": " + e.getMessage(), e);
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
