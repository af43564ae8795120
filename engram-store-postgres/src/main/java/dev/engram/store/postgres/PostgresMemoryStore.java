package dev.engram.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.error.StoreException;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.PendingAccess;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The record on PostgreSQL, shared by every replica that opens the same database and schema.
 * <ul>
 *   <li>Reads take a pooled connection in autocommit mode: each sees every transaction committed
 *       before it, by any replica. Nothing is cached, so there is nothing to invalidate across replicas.
 *   <li>{@link #write} runs the work in one transaction that first takes a transaction-scoped advisory
 *       lock on the schema: writers are serialized across replicas as the SPI asks, which is also what
 *       makes the change feed's max + 1 numbering gap-free and in commit order. A serialization failure
 *       or deadlock is retried; commits are durable ({@code synchronous_commit} as the server has it,
 *       {@code on} by default).
 *   <li>A write that appended to the change feed also {@code NOTIFY}s the schema's channel, delivered
 *       on commit, which wakes the other replicas' indexes ({@link ChangeListener}).
 *   <li>{@link #recordAccess} only buffers ({@link PendingAccess}); reads through this store add the
 *       buffered bumps to what they read. A write settles the bumps of the rows it touches, and a daemon
 *       thread writes the rest every {@link #ACCESS_FLUSH} in one transaction under the write lock, with
 *       {@code synchronous_commit = off} for that transaction only: an access count is best effort (the
 *       SPI allows losing the last second of them). Written at once, every recall took the cluster's write
 *       lock for its own transaction, and with two replicas they queued for it behind each other's
 *       writes (issue 18: a second replica served 0.44-0.79x the calls of one).
 * </ul>
 * Thread-safe.
 */
public final class PostgresMemoryStore implements MemoryStore {
    private static final Logger log = LoggerFactory.getLogger(PostgresMemoryStore.class);
    private static final int WRITE_ATTEMPTS = 5;
    /** How often buffered access bumps are written; a kill loses at most about this much of them. */
    static final Duration ACCESS_FLUSH = Duration.ofSeconds(1);

    private final HikariDataSource pool;
    private final PostgresLocation location;
    private final String lockSql;
    private final String notifySql;
    private final PendingAccess access = new PendingAccess();
    private final ScheduledExecutorService flusher;
    private final GroupCommit writes = new GroupCommit(new GroupCommit.Committer() {
        @Override
        public void together(List<GroupCommit.Queued<?>> batch) {
            writeTogether(batch);
        }

        @Override
        public <T> T alone(Function<StoreTransaction, T> work) {
            return writeAlone(work);
        }
    }, CONNECTION_WAIT_MS);

    /** Every buffered bump in one statement: ids, counts and last reads as three arrays of one length. */
    static final String RECORD_ACCESSES = "UPDATE memories m SET access_count = m.access_count + b.n, last_accessed_at = b.at"
            + " FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS b(id, n, at) WHERE m.id = b.id";

    /** See {@link #open}: the longest a call waits for a connection before it is told the store is unreachable. */
    static final int CONNECTION_WAIT_MS = 4_000;

    private PostgresMemoryStore(HikariDataSource pool, PostgresLocation location, Duration accessFlush) {
        this.pool = pool;
        this.location = location;
        this.lockSql = "SELECT pg_advisory_xact_lock(" + PgSchema.LOCK_CLASS + ", " + location.schema().hashCode() + ")";
        this.notifySql = "SELECT pg_notify('" + ChangeListener.channel(location.schema()) + "', '')";
        this.flusher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "engram-pg-access-flush");
            t.setDaemon(true);
            return t;
        });
        flusher.scheduleWithFixedDelay(this::flushAccess, accessFlush.toMillis(), accessFlush.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Connects, creates the schema if missing and migrates it to the newest version.
     *
     * @throws StoreException naming the server when it cannot be reached or the schema is from a newer Engram
     */
    public static PostgresMemoryStore open(PostgresLocation location) {
        return open(location, ACCESS_FLUSH);
    }

    /** With access bumps flushed every {@code accessFlush} (tests that must see them buffered use a long one). */
    static PostgresMemoryStore open(PostgresLocation location, Duration accessFlush) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(location.jdbcUrl());
        if (location.user() != null) config.setUsername(location.user());
        if (location.password() != null) config.setPassword(location.password());
        config.setSchema(location.schema()); // search_path of every pooled connection
        config.setPoolName("engram-pg-" + location.schema());
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(1);
        // how long a call waits for a connection: during an outage every call fails after this, with "the store is
        // unreachable", rather than hanging; far above the wait for a free pooled connection under load (milliseconds)
        config.setConnectionTimeout(CONNECTION_WAIT_MS);
        config.setInitializationFailTimeout(10_000); // an unreachable server fails the open, with the driver's reason
        HikariDataSource pool;
        try {
            pool = new HikariDataSource(config);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new StoreException("open store " + location + ": cannot connect: " + cause.getMessage(), e);
        }
        try (Connection c = pool.getConnection()) {
            new PgSchema(PgSchema.STEPS).migrate(c, location.schema(), location.toString());
        } catch (SQLException e) {
            pool.close();
            throw new StoreException("open store " + location + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        return new PostgresMemoryStore(pool, location, accessFlush);
    }

    /** The random id the schema got when it was created; the same for every replica. */
    public String storeId() {
        return read("store identity", c -> {
            try (Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT id FROM store_identity")) {
                if (!rs.next()) throw new StoreException("store " + location + " has no identity row");
                return rs.getString(1);
            }
        });
    }

    public PostgresLocation location() {
        return location;
    }

    private <T> T read(String operation, PgCalls.SqlWork1<T> work) {
        try (Connection c = pool.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw PgCalls.failure(operation, e);
        }
    }

    /** Writes waiting for their turn on this replica (for tests). */
    int queuedWrites() {
        return writes.queued();
    }

    /** Queued with this replica's other writes, and committed with those queued beside it ({@link GroupCommit}). */
    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        return writes.write(work);
    }

    /**
     * The writes {@link GroupCommit} took together, in one transaction, each in a savepoint: a write that is refused
     * (a conflict, a missing memory, a dry run) is undone alone and the others commit. A failure of the transaction
     * itself (a serialization failure, the connection lost) rolls back all of them; each is then written on its own,
     * with the usual retries, or, when the server is unreachable, fails as it would have on its own.
     */
    private void writeTogether(List<GroupCommit.Queued<?>> batch) {
        List<PgTransaction> kept = new java.util.ArrayList<>();
        Object[] results = new Object[batch.size()];
        RuntimeException[] refusals = new RuntimeException[batch.size()];
        Exception failed = null;
        try (Connection c = pool.getConnection()) {
            try {
                begin(c);
                boolean changed = false;
                for (int i = 0; i < batch.size(); i++) {
                    java.sql.Savepoint savepoint = c.setSavepoint();
                    PgTransaction tx = new PgTransaction(c, access);
                    try {
                        results[i] = batch.get(i).work.apply(tx);
                    } catch (RuntimeException e) {
                        if (PgCalls.retryable(e) || PgCalls.unreachable(e)) {
                            kept.add(tx);
                            throw e;
                        }
                        access.restore(tx.settled()); // first: a failed rollback below rolls back everything anyway
                        c.rollback(savepoint);
                        refusals[i] = e;
                        continue;
                    } finally {
                        tx.end();
                    }
                    c.releaseSavepoint(savepoint);
                    kept.add(tx);
                    changed |= tx.changed();
                }
                commit(c, changed);
                kept.clear(); // committed: their settled bumps are written
                for (int i = 0; i < batch.size(); i++) batch.get(i).finish(results[i], refusals[i]);
                return;
            } catch (RuntimeException | SQLException e) {
                rollbackQuietly(c);
                failed = e;
            } finally {
                resetAutoCommit(c);
            }
        } catch (SQLException e) {
            failed = e;
        } finally {
            for (PgTransaction tx : kept) access.restore(tx.settled());
        }
        if (PgCalls.unreachable(failed)) {
            RuntimeException e = failed instanceof SQLException sql ? PgCalls.failure("write", sql) : (RuntimeException) failed;
            for (GroupCommit.Queued<?> q : batch) q.finish(null, e);
            return;
        }
        log.debug("store {}: a transaction of {} writes failed ({}); writing them one by one", location, batch.size(),
                failed.getMessage());
        for (GroupCommit.Queued<?> q : batch) {
            try {
                q.finish(writeAlone(q.work), null);
            } catch (RuntimeException e) {
                q.finish(null, e);
            }
        }
    }

    private <T> T writeAlone(Function<StoreTransaction, T> work) {
        for (int attempt = 1; ; attempt++) {
            PgTransaction tx = null;
            boolean committed = false;
            try (Connection c = pool.getConnection()) {
                try {
                    begin(c);
                    tx = new PgTransaction(c, access);
                    T result;
                    try {
                        result = work.apply(tx);
                    } finally {
                        tx.end();
                    }
                    commit(c, tx.changed());
                    committed = true;
                    return result;
                } catch (RuntimeException | SQLException e) {
                    rollbackQuietly(c);
                    if (attempt < WRITE_ATTEMPTS && PgCalls.retryable(e)) {
                        log.debug("store {}: write attempt {} failed ({}); retrying", location, attempt, e.getMessage());
                        continue;
                    }
                    if (e instanceof SQLException sql) throw PgCalls.failure("write", sql);
                    throw (RuntimeException) e;
                } finally {
                    resetAutoCommit(c);
                }
            } catch (SQLException e) {
                throw PgCalls.failure("write", e);
            } finally {
                // the bumps the attempt settled were rolled back with it: buffered again, for a retry or the flush
                if (tx != null && !committed) access.restore(tx.settled());
            }
        }
    }

    /** Opens a write transaction on {@code c}: autocommit off, then the cluster's write lock. */
    private void begin(Connection c) throws SQLException {
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute(lockSql);
        }
    }

    /** Commits, after a NOTIFY when the transaction appended to the change feed (delivered on commit only). */
    private void commit(Connection c, boolean changed) throws SQLException {
        if (changed) {
            // listeners catch their index up (ChangeListener)
            try (Statement st = c.createStatement()) {
                st.execute(notifySql);
            }
        }
        c.commit();
    }

    private void resetAutoCommit(Connection c) {
        try {
            c.setAutoCommit(true);
        } catch (SQLException broken) {
            // the connection broke (the pool has closed it): what failed above is what the caller hears
            log.debug("store {}: resetting a broken connection failed ({})", location, broken.getMessage());
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException e) {
            log.debug("rollback: {}", e.getMessage()); // the failure that got us here is the one to report
        }
    }

    @Override
    public Optional<Memory> get(String id) {
        return read("get " + id, c -> PgReads.get(c, id)).map(access::overlay);
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return read("get by key in " + zone, c -> PgReads.getByKey(c, zone, key)).map(access::overlay);
    }

    /** Both readings of the reference in one round trip instead of two. */
    @Override
    public Optional<Memory> find(String zone, String ref) {
        return read("find in " + zone, c -> PgReads.find(c, zone, ref)).map(access::overlay);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return read("get by name in " + zone, c -> PgReads.getByName(c, zone, name)).map(access::overlay);
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        List<Memory> found = read("get " + ids.size() + " memories", c -> PgReads.getAll(c, ids));
        return access.overlay(found);
    }

    @Override
    public List<Edge> edges(String id) {
        return read("edges " + id, c -> PgReads.edges(c, id));
    }

    @Override
    public Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        return read("edges of " + ids.size() + " memories", c -> PgReads.edgesOf(c, ids));
    }

    @Override
    public Map<String, List<Edge>> outgoingEdges(String zone) {
        return read("edges out of " + (zone == null ? "all zones" : zone), c -> PgReads.outgoingEdges(c, zone));
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        return read("degrees of " + ids.size() + " memories", c -> PgReads.degrees(c, ids));
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return read("embedding " + id, c -> PgReads.embedding(c, id));
    }

    @Override
    public List<String> missingEmbeddings(String modelId, int max) {
        return read("missing embeddings", c -> PgReads.missingEmbeddings(c, modelId, max));
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return read("versions " + id, c -> PgReads.versions(c, id));
    }

    @Override
    public List<Memory> pinned(String zone) {
        List<Memory> pinned = read("pinned " + zone, c -> PgReads.pinned(c, zone));
        return access.overlay(pinned);
    }

    /** Page by page (keyset on creation time and id), so a large store is never held in memory at once. */
    @Override
    public void forEach(String zone, Consumer<Memory> action) {
        long afterCreated = Long.MIN_VALUE;
        String afterId = "";
        while (true) {
            long created = afterCreated;
            String id = afterId;
            List<Memory> page = read("list " + (zone == null ? "all zones" : zone), c -> PgReads.page(c, zone, created, id));
            access.overlay(page).forEach(action);
            if (page.size() < PgReads.PAGE) return;
            Memory last = page.get(page.size() - 1);
            afterCreated = last.createdAt().toEpochMilli();
            afterId = last.id();
        }
    }

    @Override
    public Set<String> zones() {
        return read("zones", PgReads::zones);
    }

    @Override
    public long count() {
        return read("count", c -> PgReads.count(c, "SELECT count(*) FROM memories"));
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return read("zone " + name, c -> PgReads.zoneInfos(c, PgReads.ZONE_INFO, name).stream().findFirst());
    }

    @Override
    public List<ZoneInfo> zoneInfos() {
        return read("zones", c -> PgReads.zoneInfos(c, PgReads.ZONE_INFOS));
    }

    @Override
    public Optional<String> mark(String name) {
        return read("mark " + name, c -> PgReads.mark(c, name));
    }

    @Override
    public long edgeCount(String zone) {
        return read("edge count", c -> zone == null ? PgReads.count(c, "SELECT count(*) FROM edges")
                : PgReads.count(c, "SELECT count(*) FROM edges e JOIN memories m ON m.id = e.from_id WHERE m.zone = ?", zone));
    }

    @Override
    public long headSeq() {
        return read("head of the change feed", c -> PgReads.count(c, PgReads.HEAD_SEQ));
    }

    @Override
    public List<Change> changesSince(long afterSeq, int max) {
        return read("changes since " + afterSeq, c -> PgReads.changesSince(c, afterSeq, max));
    }

    @Override
    public void recordAccess(Collection<String> ids, Instant at) {
        if (ids.isEmpty()) return;
        access.add(ids, at); // unknown ids are dropped by the UPDATE when flushed
    }

    /**
     * Writes the buffered bumps in one transaction; the flusher's task, and the last step of {@link #close}. They are
     * taken from the buffer only once the write lock is held: a write that rewrote a row from a read that showed its
     * bump has committed by then, or will find the bump written. A failure (the server unreachable) keeps them for the
     * next try and never kills the flusher.
     */
    void flushAccess() {
        if (access.isEmpty()) return;
        List<Map<String, PendingAccess.Bump>> taken = new java.util.ArrayList<>(1);
        try {
            // alone: its synchronous_commit = off must not cover anyone's remember
            writes.write(tx -> PgCalls.run("record access", () -> {
                if (!taken.isEmpty()) access.restore(taken.remove(0)); // a retried attempt: its first try rolled back
                Map<String, PendingAccess.Bump> bumps = new TreeMap<>(access.drain()); // sorted: rows locked in one order
                taken.add(bumps);
                Connection c = ((PgTransaction) tx).connection();
                try (Statement st = c.createStatement()) {
                    st.execute("SET LOCAL synchronous_commit = off");
                }
                String[] ids = new String[bumps.size()];
                Long[] counts = new Long[ids.length], lasts = new Long[ids.length];
                int i = 0;
                for (Map.Entry<String, PendingAccess.Bump> e : bumps.entrySet()) {
                    ids[i] = e.getKey();
                    counts[i] = e.getValue().count();
                    lasts[i++] = e.getValue().last().toEpochMilli();
                }
                // one statement for the whole buffer: a batch of one UPDATE a row cost the server a statement each,
                // a third of all it ran under a stream of recalls (issue 18)
                try (PreparedStatement ps = c.prepareStatement(RECORD_ACCESSES)) {
                    ps.setArray(1, c.createArrayOf("text", ids));
                    ps.setArray(2, c.createArrayOf("bigint", counts));
                    ps.setArray(3, c.createArrayOf("bigint", lasts));
                    return ps.executeUpdate();
                }
            }), true);
        } catch (RuntimeException e) {
            if (!taken.isEmpty()) access.restore(taken.get(0));
            log.warn("store {}: could not record access counts now (kept for the next try): {}", location, e.getMessage());
        }
    }

    /** Writes the buffered access bumps and closes the pool; every write has committed already. */
    @Override
    public void close() {
        if (pool.isClosed()) return;
        flusher.shutdown();
        try {
            if (!flusher.awaitTermination(10, TimeUnit.SECONDS)) log.warn("store {}: access flush still running at close", location);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushAccess();
        pool.close();
    }
}
