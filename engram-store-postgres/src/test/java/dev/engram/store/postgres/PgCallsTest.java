package dev.engram.store.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.StoreException;
import dev.engram.error.StoreUnavailableException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import org.junit.jupiter.api.Test;

/** Which failures a caller is told to retry (the store unreachable) and which stay the server's own. */
class PgCallsTest {
    @Test
    void aLostOrRefusedConnectionIsTheStoreBeingUnreachable() {
        for (SQLException e : java.util.List.of(new SQLException("An I/O error occurred while sending to the backend.", "08006"),
                new SQLException("Connection to 127.0.0.1:5432 refused.\nCheck that the hostname and port are correct", "08001"),
                new SQLException("terminating connection due to administrator command", "57P01"),
                new SQLException("the database system is starting up", "57P03"),
                new SQLTransientConnectionException("pool - Connection is not available, request timed out after 4000ms"),
                new SQLException("wrapped", null, new java.net.SocketException("Connection reset")),
                new SQLException(PgCalls.CLOSED_BY_POOL))) {
            StoreException f = PgCalls.failure("get m_aaaaaaaaaa", e);
            assertInstanceOf(StoreUnavailableException.class, f, e.toString());
            assertTrue(f.getMessage().startsWith("the store is unreachable (get m_aaaaaaaaaa): "), f.getMessage());
            assertTrue(f.getMessage().endsWith("; retry in a few seconds (the server reconnects on its own)"), f.getMessage());
            assertFalse(f.getMessage().contains("\n"), "one line, the driver's first: " + f.getMessage());
        }
        StoreException timeout = PgCalls.failure("recall", new SQLTransientConnectionException(
                "engram-pg-x - Connection is not available, request timed out after 4000ms (total=0, active=0, idle=0)", "08001",
                new SQLException("Connection to 127.0.0.1:5432 refused.\nCheck that the hostname and port are correct", "08001")));
        assertEquals("the store is unreachable (recall): no connection to the database within 4 s (Connection to 127.0.0.1:5432"
                + " refused.); retry in a few seconds (the server reconnects on its own)", timeout.getMessage());
    }

    @Test
    void otherFailuresStayTheServersOwn() {
        for (SQLException e : java.util.List.of(new SQLException("duplicate key value violates unique constraint", "23505"),
                new SQLException("could not serialize access", "40001"), new SQLException("syntax error", "42601"),
                new SQLException("no state"))) {
            StoreException f = PgCalls.failure("write", e);
            assertFalse(f instanceof StoreUnavailableException, e.toString());
            assertEquals("write: " + e.getMessage(), f.getMessage());
        }
    }
}
