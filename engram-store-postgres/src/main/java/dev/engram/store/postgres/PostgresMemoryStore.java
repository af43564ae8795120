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
import dev.engram.store.RecordCache;
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
 *       before it, by any replica. The rows a recall reads again and again are served from a
 *       {@link RecordCache} once a check has shown nobody changed them ({@link #validateCache}).
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
    /**
     * Rows, pins, edges and link counts this replica's recalls read again and again, kept while the feeds say they have
     * not changed ({@link #validateCache}). Reading a recall's hundred candidates, their link counts and the zone's
     * pins from PostgreSQL was a fifth of a replica's CPU under issue 18's load, and most of PostgreSQL's.
     */
    private final RecordCache cache = RecordCache.followingAccessFeed();
    /** The change feed's head as the newest check read it. */
    private final java.util.concurrent.atomic.AtomicLong checkedHead = new java.util.concurrent.atomic.AtomicLong();
    /** The check this thread's reads share while {@link #readTogether} runs; absent outside it. */
    private final ThreadLocal<long[]> sharedCheck = new ThreadLocal<>();
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

    /**
     * Every buffered bump in one statement: ids, counts and last reads as three arrays of one length. The last read only
     * moves forward (GREATEST passes over a null), so the replicas' caches, which add each other's counts in the access
     * feed's order and their own when they commit, end where the row does.
     */
    static final String RECORD_ACCESSES = "UPDATE memories m SET access_count = m.access_count + b.n,"
            + " last_accessed_at = GREATEST(m.last_accessed_at, b.at)"
            + " FROM unnest(?::text[], ?::bigint[], ?::bigint[]) AS b(id, n, at) WHERE m.id = b.id";

    /**
     * Entries of the access feed kept: a cache further behind than {@link RecordCache#MAX_ACCESS_CHANGES} resets
     * anyway, and each entry names every memory one flush counted (thousands under load), so the feed is pruned as it
     * is written instead of growing by one such row a second for each replica.
     */
    static final int ACCESS_FEED_KEPT = 2 * RecordCache.MAX_ACCESS_CHANGES;
    /**
     * Appends an entry (max + 1 under the write lock, no gaps) with the memories and what was added to each (counts and
     * last reads, arrays in the order of the ids), and drops those more than {@link #ACCESS_FEED_KEPT} back.
     */
    static final String APPEND_ACCESS_CHANGE = "WITH pruned AS (DELETE FROM access_changes"
            + " WHERE seq <= (SELECT max(seq) FROM access_changes) - ?)"
            + " INSERT INTO access_changes (seq, ids, counts, lasts) SELECT COALESCE(max(seq), 0) + 1, ?, ?, ? FROM access_changes"
            + " RETURNING seq";

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

    /** This replica's record cache (for tests). */
    RecordCache cache() {
        return cache;
    }

    /** Writes waiting for their turn on this replica (for tests). */
    int queuedWrites() {
        return writes.queued();
    }

    /** Queued with this replica's other writes, and committed with those queued beside it ({@link GroupCommit}). */
    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        // what this write changes is not in the shared check, nor in one made while it runs (this thread may run other
        // callers' writes, GroupCommit, whose reads must not use this caller's check either): reads check again
        long[] shared = sharedCheck.get();
        if (shared != null) shared[0] = -1;
        try {
            return writes.write(work);
        } finally {
            if (shared != null) shared[0] = -1;
        }
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
                Map<String, PendingAccess.Bump> settled = new java.util.HashMap<>();
                for (PgTransaction tx : kept) tx.settled().forEach((id, bump) -> settled.merge(id, bump, PendingAccess.Bump::then));
                commit(c, changed, settled);
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
                    commit(c, tx.changed(), tx.settled());
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

    /**
     * Commits, after a NOTIFY when the transaction appended to the change feed (delivered on commit only), and after
     * moving the access epoch when it wrote pending access counts into {@code settled} rows: those changed without an
     * entry in the change feed, so the replicas' caches learn it from the epoch, and this one drops them.
     */
    private void commit(Connection c, boolean changed, Map<String, PendingAccess.Bump> settled) throws SQLException {
        if (changed) {
            // listeners catch their index up (ChangeListener)
            try (Statement st = c.createStatement()) {
                st.execute(notifySql);
            }
        }
        long[] epoch = settled.isEmpty() ? null : moveAccessEpoch(c, settled);
        boolean committed = false;
        try {
            c.commit();
            committed = true;
        } finally {
            if (epoch != null && !committed) cache.ownEpochMoveAbandoned(epoch[0], epoch[1]);
        }
        if (epoch != null) {
            cache.evict(settled.keySet());
            cache.accessEpochMoved(epoch[0], epoch[1]);
        }
    }

    /**
     * Moves the access epoch in the transaction on {@code c}: an entry in the access feed naming the memories whose
     * counts it wrote and what it added to each, so the other replicas' caches add them to the rows they hold. Announced
     * to this replica's cache as its own before the commit ({@link RecordCache#ownEpochMoveStarting}); returns the epoch
     * before and after.
     */
    private long[] moveAccessEpoch(Connection c, Map<String, PendingAccess.Bump> bumps) throws SQLException {
        long after;
        java.sql.Array[] arrays = bumpArrays(c, bumps);
        try (PreparedStatement ps = c.prepareStatement(APPEND_ACCESS_CHANGE)) {
            ps.setInt(1, ACCESS_FEED_KEPT);
            for (int i = 0; i < arrays.length; i++) ps.setArray(i + 2, arrays[i]);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                after = rs.getLong(1);
            }
        }
        cache.ownEpochMoveStarting(after - 1, after);
        return new long[] {after - 1, after};
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

    /** Served from the record cache; the rows it lacks in one statement, filed for the next recall. */
    @Override
    public List<Memory> getAll(List<String> ids) {
        if (ids.isEmpty()) return List.of();
        long stamp = validateCache();
        Map<String, Memory> found = new java.util.HashMap<>();
        List<String> missing = new java.util.ArrayList<>();
        cache.memories(new java.util.LinkedHashSet<>(ids), found, missing);
        if (!missing.isEmpty()) {
            PgReads.Rows read = read("get " + missing.size() + " memories", c -> PgReads.getAll(c, missing));
            for (Memory m : read.memories()) {
                found.put(m.id(), m);
                cache.putMemory(stamp, m, read.accessHead());
            }
        }
        return access.overlay(ids.stream().map(found::get).filter(java.util.Objects::nonNull).toList());
    }

    @Override
    public List<Edge> edges(String id) {
        long stamp = validateCache();
        List<Edge> cached = cache.edges(id);
        if (cached != null) return cached;
        List<Edge> edges = read("edges " + id, c -> PgReads.edges(c, id));
        cache.putEdges(stamp, id, edges);
        return edges;
    }

    /** From the record cache where it has them; the others' in one statement, each filed (none: an empty list). */
    @Override
    public Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        if (ids.isEmpty()) return Map.of();
        long stamp = validateCache();
        Map<String, List<Edge>> out = new java.util.HashMap<>();
        List<String> missing = new java.util.ArrayList<>();
        for (String id : new java.util.LinkedHashSet<>(ids)) {
            List<Edge> cached = cache.edges(id);
            if (cached == null) missing.add(id);
            else if (!cached.isEmpty()) out.put(id, cached);
        }
        if (missing.isEmpty()) return out;
        Map<String, List<Edge>> read = read("edges of " + missing.size() + " memories", c -> PgReads.edgesOf(c, missing));
        for (String id : missing) {
            List<Edge> edges = read.getOrDefault(id, List.of());
            cache.putEdges(stamp, id, edges);
            if (!edges.isEmpty()) out.put(id, edges);
        }
        return out;
    }

    @Override
    public Map<String, List<Edge>> outgoingEdges(String zone) {
        return read("edges out of " + (zone == null ? "all zones" : zone), c -> PgReads.outgoingEdges(c, zone));
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        if (ids.isEmpty()) return Map.of();
        long stamp = validateCache();
        Map<String, Integer> out = new java.util.HashMap<>();
        List<String> missing = new java.util.ArrayList<>();
        cache.degrees(new java.util.LinkedHashSet<>(ids), out, missing);
        if (missing.isEmpty()) return out;
        Map<String, Integer> counted = read("degrees of " + missing.size() + " memories", c -> PgReads.degrees(c, missing));
        for (String id : missing) {
            int degree = counted.getOrDefault(id, 0);
            cache.putDegree(stamp, id, degree);
            if (degree > 0) out.put(id, degree);
        }
        return out;
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
        long stamp = validateCache();
        List<Memory> cached = cache.pinned(zone);
        if (cached != null) return access.overlay(cached);
        List<Memory> pinned = read("pinned " + zone, c -> PgReads.pinned(c, zone));
        cache.putPinned(stamp, zone, pinned);
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

    /** The record cache's check reads the head with everything else: no statement of its own. */
    @Override
    public long headSeq() {
        validateCache();
        return checkedHead.get();
    }

    /**
     * One check of the record cache for all of {@code reads}, instead of one before each read: a recall asked four or
     * five times (the head before its search, its candidates, the zone's pins, their link counts), one round trip each.
     * The check runs before the first read, after this call began, so the reads still see every write acknowledged
     * before it; a write of this thread in between makes the next read check again.
     */
    @Override
    public <T> T readTogether(java.util.function.Supplier<T> reads) {
        if (sharedCheck.get() != null) return reads.get(); // an outer call's check serves
        sharedCheck.set(new long[] {-1});
        try {
            return reads.get();
        } finally {
            sharedCheck.remove();
        }
    }

    /**
     * Brings {@link #cache} up to every commit made before this call, by any replica, and returns the stamp the rows
     * read next are filed with ({@link RecordCache#stamp}): one statement ({@link PgCacheCheck}) on a pooled connection.
     * Checks run at once on several connections, each in one snapshot, so a check may find the cache ahead of it; the
     * cache then serves as it is ({@link RecordCache#validateSnapshot}). Inside {@link #readTogether} the first check
     * serves the reads that follow.
     */
    private long validateCache() {
        long[] shared = sharedCheck.get();
        if (shared != null && shared[0] >= 0) return cache.stamp();
        long stamp = read("check the record cache", c -> {
            PgCacheCheck check = PgCacheCheck.read(c, cache.seq(), cache.edgeSeq(), cache.accessEpoch(),
                    RecordCache.MAX_EVICTIONS + 1);
            long validated = cache.validateSnapshot(check.version(), check);
            checkedHead.accumulateAndGet(check.head(), Math::max);
            return validated;
        });
        if (shared != null) shared[0] = stamp;
        return stamp;
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
        long[][] epoch = new long[1][];
        try {
            // alone: its synchronous_commit = off must not cover anyone's remember
            writes.write(tx -> PgCalls.run("record access", () -> {
                if (!taken.isEmpty()) abandonFlush(taken.remove(0), epoch); // a retried attempt: its first try rolled back
                Map<String, PendingAccess.Bump> bumps = new TreeMap<>(access.drain()); // sorted: rows locked in one order
                taken.add(bumps);
                // this replica's cache takes the bumps once they are committed, rather than dropping every row read
                cache.accessWriting(bumps.keySet());
                Connection c = ((PgTransaction) tx).connection();
                try (Statement st = c.createStatement()) {
                    st.execute("SET LOCAL synchronous_commit = off");
                }
                // one statement for the whole buffer: a batch of one UPDATE a row cost the server a statement each,
                // a third of all it ran under a stream of recalls (issue 18)
                int updated;
                java.sql.Array[] arrays = bumpArrays(c, bumps);
                try (PreparedStatement ps = c.prepareStatement(RECORD_ACCESSES)) {
                    for (int i = 0; i < arrays.length; i++) ps.setArray(i + 1, arrays[i]);
                    updated = ps.executeUpdate();
                }
                epoch[0] = moveAccessEpoch(c, bumps);
                return updated;
            }), true);
            cache.accessWritten(taken.get(0));
            cache.accessEpochMoved(epoch[0][0], epoch[0][1]);
        } catch (RuntimeException e) {
            if (!taken.isEmpty()) abandonFlush(taken.get(0), epoch);
            log.warn("store {}: could not record access counts now (kept for the next try): {}", location, e.getMessage());
        }
    }

    /** Bumps as three SQL arrays of one length, in one order: the ids, the counts, the last reads (epoch milliseconds). */
    private static java.sql.Array[] bumpArrays(Connection c, Map<String, PendingAccess.Bump> bumps) throws SQLException {
        String[] ids = new String[bumps.size()];
        Long[] counts = new Long[ids.length], lasts = new Long[ids.length];
        int i = 0;
        for (Map.Entry<String, PendingAccess.Bump> e : bumps.entrySet()) {
            ids[i] = e.getKey();
            counts[i] = e.getValue().count();
            lasts[i++] = e.getValue().last().toEpochMilli();
        }
        return new java.sql.Array[] {c.createArrayOf("text", ids), c.createArrayOf("bigint", counts),
                c.createArrayOf("bigint", lasts)};
    }

    /** A flush attempt that did not commit: its bumps are buffered again, and the cache told they never landed. */
    private void abandonFlush(Map<String, PendingAccess.Bump> bumps, long[][] epoch) {
        access.restore(bumps);
        cache.accessWriteAbandoned(bumps.keySet());
        if (epoch[0] != null) cache.ownEpochMoveAbandoned(epoch[0][0], epoch[0][1]);
        epoch[0] = null;
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
