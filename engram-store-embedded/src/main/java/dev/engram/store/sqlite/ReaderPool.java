package dev.engram.store.sqlite;

import dev.engram.error.StoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A few read-only connections to one SQLite file, each with its own prepared statements. In WAL mode
 * readers do not block each other or the writer, so reads of several threads run side by side; with a
 * single reader connection under one lock, 50 concurrent HTTP clients spent most of their time waiting
 * for it (docs/benchmarks.md §10). A connection is lent to one thread at a time (JDBC connections are not
 * safe for concurrent use); a thread that finds none free waits for the next one returned.
 */
final class ReaderPool implements AutoCloseable {
    /** One connection and its statements; used by one thread at a time. */
    record Reader(Connection connection, ReaderStatements statements) {
    }

    @FunctionalInterface
    interface ReadWork<T> {
        T run(Reader reader) throws SQLException;
    }

    private final BlockingQueue<Reader> free;
    private final List<Reader> all;

    /** Takes ownership of {@code connections}: they are closed with the pool. */
    ReaderPool(List<Connection> connections) {
        if (connections.isEmpty()) throw new IllegalArgumentException("a reader pool needs at least one connection");
        List<Reader> readers = new ArrayList<>();
        for (Connection c : connections) readers.add(new Reader(c, new ReaderStatements(c)));
        this.all = List.copyOf(readers);
        this.free = new ArrayBlockingQueue<>(all.size(), false, all);
    }

    int size() {
        return all.size();
    }

    /** Runs {@code work} on a free connection, waiting for one if every connection is lent out. */
    <T> T read(String operation, ReadWork<T> work) {
        Reader r;
        try {
            r = free.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException(operation + ": interrupted while waiting for a reader connection", e);
        }
        try {
            return SqlCalls.run(operation, () -> work.run(r));
        } finally {
            free.add(r);
        }
    }

    /** Closes every connection; callers must have stopped reading (the store's close). */
    @Override
    public void close() throws SQLException {
        SQLException first = null;
        for (Reader r : all) {
            try {
                r.statements().close();
                r.connection().close();
            } catch (SQLException e) {
                if (first == null) first = e;
            }
        }
        if (first != null) throw first;
    }
}
