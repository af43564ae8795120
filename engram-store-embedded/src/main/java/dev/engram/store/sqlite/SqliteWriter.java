package dev.engram.store.sqlite;

import dev.engram.error.StoreException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's single writer connection. Each call is one {@code BEGIN IMMEDIATE} transaction: it
 * takes SQLite's write lock up front, so two writers never both read and then collide at commit.
 * An in-process lock serializes threads; SQLite serializes processes. {@code busy_timeout} makes
 * SQLite wait inside a statement; should SQLITE_BUSY or SQLITE_LOCKED still surface, the
 * transaction is rolled back and the work runs again with backoff until {@code lockWait} has passed.
 */
final class SqliteWriter implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SqliteWriter.class);
    private static final long MAX_BACKOFF_MS = 200;

    private final Connection connection;
    private final Path file;
    private final Duration lockWait;
    private final ReentrantLock lock = new ReentrantLock();

    SqliteWriter(Connection connection, Path file, Duration lockWait) {
        this.connection = connection;
        this.file = file;
        this.lockWait = lockWait;
    }

    /** Runs {@code work} in one transaction; it may run more than once, so it must act only through its argument. */
    <T> T inTransaction(String operation, Function<SqliteTransaction, T> work) {
        if (lock.isHeldByCurrentThread()) {
            // SQLite has no nested transactions; failing here names the mistake instead of a cryptic SQL error
            throw new IllegalStateException(operation + " called inside another write; use the transaction given to it");
        }
        lock.lock();
        try {
            long deadline = System.nanoTime() + lockWait.toNanos();
            long backoffMs = 5;
            while (true) {
                try {
                    return attempt(work);
                } catch (RuntimeException e) {
                    if (!SqlCalls.isBusy(e)) throw e;
                    if (System.nanoTime() > deadline) {
                        throw new StoreException(operation + " " + file + ": database still locked by another"
                                + " process after " + lockWait.toMillis() + " ms", e);
                    }
                    log.debug("store {}: {} found the database locked, retrying in {} ms", file, operation, backoffMs);
                    pause(backoffMs);
                    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private <T> T attempt(Function<SqliteTransaction, T> work) {
        SqlCalls.run("begin", () -> exec(SqliteStatements.BEGIN_IMMEDIATE));
        SqliteTransaction tx = new SqliteTransaction(connection);
        boolean committed = false;
        try {
            T result = work.apply(tx);
            SqlCalls.run("commit", () -> exec(SqliteStatements.COMMIT));
            committed = true;
            return result;
        } finally {
            tx.end();
            if (!committed) rollback();
        }
    }

    private void rollback() {
        try {
            exec(SqliteStatements.ROLLBACK);
        } catch (SQLException e) {
            // SQLite may already have rolled back (e.g. after SQLITE_FULL); the original failure is rethrown
            log.debug("store {}: rollback after a failed write: {}", file, e.getMessage());
        }
    }

    private Void exec(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            st.execute(sql);
        }
        return null;
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("write interrupted while waiting for the database lock", e);
        }
    }

    /** Runs {@code work} on the connection outside any transaction (VACUUM cannot run in one), threads kept out. */
    <T> T outsideTransaction(String operation, java.util.function.Function<Connection, SqlCalls.SqlWork<T>> work) {
        lock.lock();
        try {
            return SqlCalls.run(operation + " " + file, work.apply(connection));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() throws SQLException {
        lock.lock();
        try {
            connection.close();
        } finally {
            lock.unlock();
        }
    }
}
