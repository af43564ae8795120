package dev.engram.store.postgres;

import dev.engram.error.StoreException;
import java.sql.SQLException;

/** Runs JDBC work, turning an SQLException into a StoreException that names the operation. */
final class PgCalls {
    private PgCalls() {
    }

    @FunctionalInterface
    interface SqlWork<T> {
        T run() throws SQLException;
    }

    @FunctionalInterface
    interface SqlWork1<T> {
        T run(java.sql.Connection c) throws SQLException;
    }

    static <T> T run(String operation, SqlWork<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw new StoreException(operation + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether the transaction may simply be run again: a serialization failure or deadlock (class 40),
     * which PostgreSQL reports after rolling the transaction back. A dropped connection (class 08) is
     * not retried: the commit may have reached the server, and running the work twice could apply it twice.
     */
    static boolean retryable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException s && s.getSQLState() != null
                    && s.getSQLState().startsWith("40")) {
                return true;
            }
        }
        return false;
    }
}
