package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Prepared statements of the reader connection, kept for reuse. sqlite-jdbc prepares (parses and
 * plans) a statement on every {@code prepareStatement}; for the few statements a recall runs, that
 * was a quarter of the time spent in SQLite. Not thread-safe: the store uses it under its read lock.
 */
final class ReaderStatements implements AutoCloseable {
    private final Connection connection;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    ReaderStatements(Connection connection) {
        this.connection = connection;
    }

    /** {@code sql}'s statement with {@code params} bound; run it, close its result set, keep the statement. */
    PreparedStatement bound(String sql, Object... params) throws SQLException {
        PreparedStatement ps = prepared.get(sql);
        if (ps == null) {
            ps = connection.prepareStatement(sql);
            prepared.put(sql, ps);
        } else {
            ps.clearParameters();
        }
        for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
        return ps;
    }

    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (PreparedStatement ps : prepared.values()) {
            try {
                ps.close();
            } catch (SQLException e) {
                if (first == null) first = e;
            }
        }
        prepared.clear();
        if (first != null) throw first;
    }
}
