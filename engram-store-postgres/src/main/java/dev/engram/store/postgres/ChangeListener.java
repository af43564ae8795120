package dev.engram.store.postgres;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes this replica's index when any replica commits a change: writers {@code NOTIFY} the schema's
 * channel in the transaction that appends to the feed (PostgreSQL delivers it on commit, never for a
 * rollback), and this thread, on a connection of its own outside the pool, {@code LISTEN}s and asks the
 * index to catch up. Searches catch up anyway; this keeps the index warm so they rarely have to. A lost
 * connection is reopened with backoff; notifications missed meanwhile cost nothing but a later catch-up.
 */
final class ChangeListener implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ChangeListener.class);
    private static final int POLL_MS = 500;

    private final PostgresLocation location;
    private final Runnable onChange;
    private final Thread thread;
    private volatile boolean closed;
    private volatile Connection connection;

    private ChangeListener(PostgresLocation location, Runnable onChange) {
        this.location = location;
        this.onChange = onChange;
        this.thread = new Thread(this::loop, "engram-pg-listen-" + location.schema());
        thread.setDaemon(true); // a forgotten close must not keep the JVM alive
    }

    static ChangeListener start(PostgresLocation location, Runnable onChange) {
        ChangeListener l = new ChangeListener(location, onChange);
        l.thread.start();
        return l;
    }

    /** The channel of a schema; a schema name is a plain identifier (PostgresLocation checks it). */
    static String channel(String schema) {
        return "engram_changes_" + schema;
    }

    private void loop() {
        long backoff = 250;
        boolean warned = false;
        while (!closed) {
            try (Connection c = open()) {
                connection = c;
                try (Statement st = c.createStatement()) {
                    st.execute("LISTEN " + channel(location.schema()));
                }
                if (warned) log.info("store {}: listening for changes again", location);
                warned = false;
                backoff = 250;
                onChange.run(); // whatever was committed while we were not listening
                PGConnection pg = c.unwrap(PGConnection.class);
                while (!closed) {
                    PGNotification[] batch = pg.getNotifications(POLL_MS);
                    if (batch != null && batch.length > 0) onChange.run();
                }
            } catch (SQLException | RuntimeException e) {
                if (closed) return;
                if (!warned) {
                    log.warn("store {}: change notifications lost ({}); searches still catch up, retrying", location,
                            e.getMessage());
                    warned = true;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    return;
                }
                backoff = Math.min(backoff * 2, 10_000);
            } finally {
                connection = null;
            }
        }
    }

    private Connection open() throws SQLException {
        Properties p = new Properties();
        if (location.user() != null) p.setProperty("user", location.user());
        if (location.password() != null) p.setProperty("password", location.password());
        p.setProperty("connectTimeout", "10");
        p.setProperty("ApplicationName", "engram-listen");
        return DriverManager.getConnection(location.jdbcUrl(), p);
    }

    @Override
    public void close() {
        closed = true;
        Connection c = connection;
        if (c != null) {
            try {
                c.close(); // ends a getNotifications wait at once
            } catch (SQLException e) {
                log.debug("closing the listen connection: {}", e.getMessage());
            }
        }
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
