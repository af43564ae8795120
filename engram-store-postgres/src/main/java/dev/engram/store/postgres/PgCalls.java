package dev.engram.store.postgres;

import dev.engram.error.StoreException;
import dev.engram.error.StoreUnavailableException;
import java.sql.SQLException;

/** Runs JDBC work, turning an SQLException into a StoreException that names the operation. */
final class PgCalls {
    private PgCalls() {
    }

    /** HikariCP's message for a call on a connection it has closed (its ProxyConnection.ClosedConnection). */
    static final String CLOSED_BY_POOL = "Connection is closed";

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
            throw failure(operation, e);
        }
    }

    /**
     * The exception for a failed call: {@link StoreUnavailableException} when the server could not be reached or
     * the connection broke (class 08, the pool's timeout waiting for a connection, or a cause that is a socket
     * error), so the caller hears that waiting helps; otherwise a {@link StoreException} naming the operation.
     */
    static StoreException failure(String operation, SQLException e) {
        if (e instanceof java.sql.SQLTransientConnectionException) {
            // the pool's own message names its counters; what helps is that no connection came, and why the last try failed
            Throwable last = e.getCause();
            return new StoreUnavailableException(operation, "no connection to the database within "
                    + PostgresMemoryStore.CONNECTION_WAIT_MS / 1000 + " s"
                    + (last == null || last.getMessage() == null ? "" : " (" + last.getMessage().lines().findFirst().orElse("").strip() + ")"), e);
        }
        if (unreachable(e)) return new StoreUnavailableException(operation, e.getMessage(), e);
        return new StoreException(operation + ": " + e.getMessage(), e);
    }

    static boolean unreachable(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof java.sql.SQLTransientConnectionException || c instanceof java.net.SocketException
                    || c instanceof java.io.EOFException) {
                return true;
            }
            // HikariCP's proxy of a connection it closed after a connection error says so without an SQL state
            if (c instanceof SQLException s && s.getSQLState() == null && CLOSED_BY_POOL.equals(s.getMessage())) return true;
            if (c instanceof SQLException s && s.getSQLState() != null && (s.getSQLState().startsWith("08")
                    || s.getSQLState().equals("57P01") || s.getSQLState().equals("57P02") || s.getSQLState().equals("57P03"))) {
                return true; // connection exceptions; admin shutdown, crash shutdown, cannot connect now (a restart)
            }
            if (c.getCause() == c) break;
        }
        return false;
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
