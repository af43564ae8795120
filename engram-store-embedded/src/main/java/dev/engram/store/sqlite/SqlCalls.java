package dev.engram.store.sqlite;

import static dev.engram.store.sqlite.SqliteStatements.EDGES_OF;

import dev.engram.error.StoreException;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.ZoneInfo;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** JDBC plumbing shared by the store and its transactions: binding, reading rows, translating errors. */
final class SqlCalls {
    private SqlCalls() {
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    /** Runs JDBC work, turning an SQLException into a StoreException that names {@code operation}. */
    static <T> T run(String operation, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StoreException(operation + ": " + e.getMessage(), e);
        }
    }

    /** SQLITE_BUSY (5) or SQLITE_LOCKED (6), including their extended codes: another writer holds the lock. */
    static boolean isBusy(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException e) {
                int primary = e.getErrorCode() & 0xff;
                String msg = String.valueOf(e.getMessage());
                if (primary == 5 || primary == 6 || msg.contains("SQLITE_BUSY") || msg.contains("SQLITE_LOCKED")) {
                    return true;
                }
            }
        }
        return false;
    }

    static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
        return ps;
    }

    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return ps.executeUpdate();
        }
    }

    static long count(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return count(ps);
        }
    }

    /** Runs a bound statement (left open, for reuse) and reads the first column of its first row. */
    static long count(PreparedStatement bound) throws SQLException {
        try (ResultSet rs = bound.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    static List<Memory> memories(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return memories(ps);
        }
    }

    /** Runs a bound statement (left open, for reuse) and reads its memory rows. */
    static List<Memory> memories(PreparedStatement bound) throws SQLException {
        try (ResultSet rs = bound.executeQuery()) {
            List<Memory> out = new ArrayList<>();
            while (rs.next()) out.add(MemoryRows.ROWS.memory(rs));
            return out;
        }
    }

    static List<Edge> edges(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = prepare(c, EDGES_OF, id)) {
            return edges(ps);
        }
    }

    /** Edges selected by any query of edge rows (from_id, to_id, type, label, created_at). */
    static List<Edge> edgesOf(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            return edges(ps);
        }
    }

    /** Runs a bound {@code EDGES_OF} statement (left open, for reuse). */
    static List<Edge> edges(PreparedStatement bound) throws SQLException {
        try (ResultSet rs = bound.executeQuery()) {
            List<Edge> out = new ArrayList<>();
            while (rs.next()) out.add(MemoryRows.ROWS.edge(rs));
            return out;
        }
    }

    static List<ZoneInfo> zoneInfos(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            List<ZoneInfo> out = new ArrayList<>();
            while (rs.next()) out.add(MemoryRows.ROWS.zone(rs));
            return out;
        }
    }

    /** The first column of the first row as text, if there is a row. */
    static java.util.Optional<String> text(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? java.util.Optional.ofNullable(rs.getString(1)) : java.util.Optional.empty();
        }
    }
}
