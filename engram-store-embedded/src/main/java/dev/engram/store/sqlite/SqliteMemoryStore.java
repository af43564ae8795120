package dev.engram.store.sqlite;

import static dev.engram.store.sqlite.SqliteStatements.CHANGES_SINCE;
import static dev.engram.store.sqlite.SqliteStatements.COUNT;
import static dev.engram.store.sqlite.SqliteStatements.DATA_VERSION;
import static dev.engram.store.sqlite.SqliteStatements.HEAD_SEQ;
import static dev.engram.store.sqlite.SqliteStatements.MEMORY_BY_KEY;
import static dev.engram.store.sqlite.SqliteStatements.PAGE_OF_ALL;
import static dev.engram.store.sqlite.SqliteStatements.PAGE_OF_ZONE;
import static dev.engram.store.sqlite.SqliteStatements.PINNED;
import static dev.engram.store.sqlite.SqliteStatements.VERSIONS_OF;
import static dev.engram.store.sqlite.SqliteStatements.ZONES;

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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MemoryStore} on one SQLite file, {@code <dir>/engram.db}, in WAL mode with synchronous=FULL.
 * <p>Thread and process safety: one writer connection ({@link SqliteWriter}); each {@link #write}
 * is one {@code BEGIN IMMEDIATE} transaction, serialized across threads and processes. Reads go to a
 * {@link ReaderPool} of {@link #READERS} connections (WAL readers never block each other or the writer),
 * each lent to one thread at a time because a JDBC connection is not safe for concurrent use. Each read
 * statement runs in its own read transaction and therefore sees every write committed before it, by any
 * process. Reads inside a write go through the {@link StoreTransaction}, which sees the transaction's own
 * changes. One more connection, under its own lock, only tells the {@link RecordCache} whether anyone else
 * committed ({@code PRAGMA data_version}) and commits the access flushes.
 * <p>Lock waits: a writer waits and retries for up to {@link #LOCK_WAIT}; only then does the caller
 * get a StoreException. The work function may run more than once and must act only through the
 * transaction.
 * <p>Memories by id, pins, edges and link counts read on the reader connections are kept in a
 * {@link RecordCache} until the next commit by another connection than the flush connection; its
 * {@code PRAGMA data_version} tells.
 * <p>Access bumps ({@link #recordAccess}) are buffered in {@link PendingAccess}: written at the start
 * of the next {@link #write} transaction, by a daemon thread every {@link #ACCESS_FLUSH} (on the
 * flush connection, see {@link #flushAccess}), and on {@link #close}. Reads through this store
 * include them; other processes see them after the flush.
 */
public final class SqliteMemoryStore implements MemoryStore, dev.engram.crypto.SealedMemoryStore.Resealer {
    private static final Logger log = LoggerFactory.getLogger(SqliteMemoryStore.class);

    /** Longest a writer waits for other processes before failing; far above any single write (p99 ~25 ms). */
    static final Duration LOCK_WAIT = Duration.ofSeconds(10);
    /** Per-statement wait inside SQLite; {@link SqliteWriter}'s retry loop covers what it does not. */
    private static final int BUSY_TIMEOUT_MS = 2_000;
    private static final int PAGE = 500;
    /**
     * How often buffered access bumps are written when no write transaction takes them along. A kill
     * loses at most this much of them, which the SPI allows; an fsync per recall cost several ms.
     */
    static final Duration ACCESS_FLUSH = Duration.ofSeconds(1);
    /**
     * Reader connections. A recall makes four to six reads; on 2 cores, 4 connections let every runnable
     * request thread read while the rest compute. Each connection costs its page cache (SQLite's default 2 MB).
     */
    static final int READERS = 4;

    private final Path file;
    private final SqliteWriter writer;
    private final ReaderPool readers;
    // the cache's version check and the access flushes, under flushLock; see flushAccess
    private final Connection flushConnection;
    private final SqliteWriter flushWrites;
    private final ReaderStatements flushStatements; // guarded by flushLock
    private final RecordCache cache = new RecordCache(); // thread-safe; see validateCache

    /** For tests: what this store serves from memory. */
    RecordCache cache() {
        return cache;
    }
    private final ReentrantLock flushLock = new ReentrantLock();
    private final PendingAccess access = new PendingAccess();
    private final ScheduledExecutorService accessFlusher;

    /**
     * Opens or creates {@code <dir>/engram.db} and brings its schema up to date.
     *
     * @throws ForeignDatabaseException if the file is another program's; it is left as it was
     */
    public static SqliteMemoryStore open(Path dir) {
        return new SqliteMemoryStore(dir, new SchemaMigrations(SchemaMigrations.STEPS), LOCK_WAIT);
    }

    SqliteMemoryStore(Path dir, SchemaMigrations migrations, Duration lockWait) {
        this(dir, migrations, lockWait, ACCESS_FLUSH);
    }

    /** With access bumps flushed every {@code accessFlush} (tests that must see them buffered use a long one). */
    SqliteMemoryStore(Path dir, SchemaMigrations migrations, Duration lockWait, Duration accessFlush) {
        this.file = dir.resolve("engram.db");
        // before the first connection: switching to WAL is already a write
        if (DatabaseInspector.inspect(file) instanceof DatabaseIdentity.Foreign foreign) {
            throw new ForeignDatabaseException(file, foreign);
        }
        Connection w = null;
        Connection f = null;
        List<Connection> r = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            w = connect(file);
            migrations.migrate(w, file);
            f = connect(file);
            try (Statement st = f.createStatement()) {
                st.execute(SqliteStatements.ACCESS_FLUSH_SYNC); // see flushAccess
            }
            for (int i = 0; i < READERS; i++) r.add(connect(file));
        } catch (SQLException | IOException e) {
            closeQuietly(w);
            closeQuietly(f);
            r.forEach(SqliteMemoryStore::closeQuietly);
            throw new StoreException("open " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(w);
            closeQuietly(f);
            r.forEach(SqliteMemoryStore::closeQuietly);
            throw e;
        }
        this.writer = new SqliteWriter(w, file, lockWait);
        this.readers = new ReaderPool(r);
        this.flushConnection = f;
        this.flushWrites = new SqliteWriter(f, file, Duration.ZERO);
        this.flushStatements = new ReaderStatements(f);
        this.accessFlusher = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "engram-access-flush " + file);
            t.setDaemon(true); // a forgotten close must not keep the JVM alive; only access counts are at stake
            return t;
        });
        long every = accessFlush.toMillis();
        accessFlusher.scheduleWithFixedDelay(this::flushAccess, every, every, TimeUnit.MILLISECONDS);
    }

    private static Connection connect(Path file) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        try (Statement st = c.createStatement()) {
            // busy_timeout first: switching to WAL itself needs a lock another opener may hold
            st.execute(SqliteStatements.busyTimeout(BUSY_TIMEOUT_MS));
            for (String pragma : SqliteStatements.CONNECTION_PRAGMAS) st.execute(pragma);
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static void closeQuietly(Connection c) {
        if (c == null) return;
        try {
            c.close();
        } catch (SQLException e) {
            log.debug("closing a connection that failed to open", e); // the open failure is what matters
        }
    }

    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        // pending access bumps are settled row by row, as the work touches rows (SqliteTransaction#settleAccessFrom)
        Map<String, PendingAccess.Bump> settled = new HashMap<>();
        long[][] epoch = new long[1][]; // {before, after} of the access epoch, set by the (last) attempt
        boolean written = false;
        try {
            T result = writer.inTransaction("write", tx -> {
                access.restore(settled); // an attempt that found the database busy rolled back what it settled
                settled.clear();
                if (epoch[0] != null) cache.ownEpochMoveAbandoned(epoch[0][0], epoch[0][1]);
                epoch[0] = null;
                SqliteTransaction sqlite = tx;
                sqlite.settleAccessFrom(access);
                try {
                    return work.apply(tx);
                } finally {
                    settled.putAll(sqlite.settled());
                    epoch[0] = sqlite.settledEpoch();
                    // announced before the commit: a recall validating between the commit and the report below knows the move
                    if (epoch[0] != null) cache.ownEpochMoveStarting(epoch[0][0], epoch[0][1]);
                }
            });
            written = true;
            if (epoch[0] != null) {
                cache.evict(settled.keySet()); // their counts changed without an entry in the change feed
                cache.accessEpochMoved(epoch[0][0], epoch[0][1]);
            }
            return result;
        } finally {
            if (!written) {
                access.restore(settled);
                if (epoch[0] != null) cache.ownEpochMoveAbandoned(epoch[0][0], epoch[0][1]);
            }
        }
    }

    /** Encryption at rest: every sealed field rewritten in one write transaction (see {@link SqliteResealing}). */
    @Override
    public void reseal(dev.engram.crypto.FieldSealer from, dev.engram.crypto.FieldSealer to, String expectedState, String newState) {
        write(tx -> SqlCalls.run("reseal " + file, () -> {
            SqliteResealing.reseal(((SqliteTransaction) tx).connection(), from, to, expectedState, newState);
            return null;
        }));
        cache.forget(); // every row changed form, and the change feed does not say so
    }

    /**
     * After a conversion: VACUUM rebuilds the file so no freed page keeps a field's old form, and a
     * TRUNCATE checkpoint empties the WAL, which held the pages the conversion replaced.
     */
    @Override
    public void compact() {
        int busy = writer.outsideTransaction("compact", c -> () -> {
            try (Statement st = c.createStatement()) {
                st.execute("VACUUM");
                try (java.sql.ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    return rs.next() ? rs.getInt(1) : 0;
                }
            }
        });
        if (busy != 0) {
            log.warn("store {}: another process was reading, so the WAL could not be emptied now; SQLite empties it"
                    + " at its next checkpoint", file);
        }
    }

    /**
     * Writes the buffered access bumps in one transaction; the flusher thread's task. They are written
     * on the flush connection, under its lock, because SQLite's {@code data_version} does not move for a
     * connection's own commits and the cache's validity is read on that connection: the
     * {@link RecordCache} stays valid, with the bumps applied to its rows. Written from the writer connection, a flush emptied the cache whenever a recall read
     * the new version before the flusher could note it, which in a burst of recalls was every flush:
     * at 10k memories each recall then reloaded its hundred candidates (0.8 ms against 0.07 ms cached).
     * The commit does not fsync (synchronous=NORMAL on this connection: it survives a killed process,
     * not a power cut, which best-effort counts allow) and does not wait for the write lock: when
     * another write holds it, the bumps stay buffered for the next flush or this process's next write.
     */
    void flushAccess() {
        if (access.isEmpty()) return;
        Map<String, PendingAccess.Bump> bumps = access.drain();
        flushLock.lock();
        try {
            // no validation first: a foreign commit since the last read still moves data_version, and the
            // next read empties the cache whether or not these bumps were applied to it
            setReaderBusyTimeout(0);
            long[] epoch;
            cache.accessWriting(bumps.keySet());
            boolean written = false;
            try {
                epoch = flushWrites.inTransaction("record access", tx -> tx.recordAccess(bumps));
                written = true;
            } finally {
                setReaderBusyTimeout(BUSY_TIMEOUT_MS);
                if (!written) cache.accessWriteAbandoned(bumps.keySet());
            }
            cache.accessWritten(bumps);
            if (epoch != null) cache.accessEpochMoved(epoch[0], epoch[1]);
        } catch (RuntimeException e) {
            // best effort by contract: keep them for the next attempt, and never kill the flusher thread
            access.restore(bumps);
            if (SqlCalls.isBusy(e)) {
                log.debug("store {}: access flush deferred, another write holds the lock", file);
            } else {
                log.warn("store {}: could not record access of {} memories: {}", file, bumps.size(), e.getMessage());
            }
        } finally {
            flushLock.unlock();
        }
    }

    private void setReaderBusyTimeout(int millis) {
        SqlCalls.run("busy timeout", () -> {
            try (Statement st = flushConnection.createStatement()) {
                st.execute(SqliteStatements.busyTimeout(millis));
            }
            return null;
        });
    }

    /** The flush connection's {@code PRAGMA data_version}, which the cache's validity follows; for tests. */
    long readerDataVersion() {
        flushLock.lock();
        try {
            return SqlCalls.run("data version", () -> SqlCalls.count(flushStatements.bound(DATA_VERSION)));
        } finally {
            flushLock.unlock();
        }
    }

    /** Runs a read on a pooled reader connection. */
    private <T> T read(String operation, ReaderPool.ReadWork<T> work) {
        return readers.read(operation, work);
    }

    @Override
    public Optional<Memory> get(String id) {
        List<Memory> one = getAll(List.of(id));
        return one.isEmpty() ? Optional.empty() : Optional.of(one.get(0));
    }

    /**
     * Both readings of {@code ref} in one narrow statement, then the chosen row from the record cache. A recall tries
     * every one-word query as a reference, and the two lookups of the default, each reading a whole row's columns,
     * cost a fifth of such a recall when both missed (docs/benchmarks.md, "Where a stdio recall's 1.6-1.8 ms go
     * under C1"). A row changed between the two reads is looked up the default way.
     */
    @Override
    public Optional<Memory> find(String zone, String ref) {
        Named named = read("find " + zone + "/" + ref, r -> {
            boolean anId = false;
            String keyed = null;
            try (ResultSet rs = r.statements().bound(SqliteStatements.IDS_BY_REFERENCE, zone, ref, ref, zone, ref).executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    if (id.equals(ref)) anId = true;
                    if (rs.getBoolean(2)) keyed = id;
                }
            }
            return new Named(anId, keyed);
        });
        if (!named.anId() && named.keyed() == null) return Optional.empty();
        Optional<Memory> found = MemoryStore.resolve(ref,
                id -> named.anId() ? get(id) : Optional.empty(),
                key -> named.keyed() == null ? Optional.empty()
                        : get(named.keyed()).filter(m -> m.zone().equals(zone) && key.equals(m.key())));
        return found.isPresent() ? found : MemoryStore.super.find(zone, ref);
    }

    /** Whether a reference is a memory's id, and the id of the zone's memory it is the key of (null if none). */
    private record Named(boolean anId, String keyed) {
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return read("get by key in " + zone, r -> SqlCalls.memories(r.statements().bound(MEMORY_BY_KEY, zone, key)).stream().findFirst())
                .map(access::overlay);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return read("get by name in " + zone,
                r -> SqlCalls.memories(r.statements().bound(SqliteStatements.MEMORY_BY_NAME, zone, name)).stream().findFirst())
                .map(access::overlay);
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return read("zone " + name, r -> SqlCalls.zoneInfos(r.connection(), SqliteStatements.ZONE_INFO, name).stream().findFirst());
    }

    @Override
    public Optional<String> mark(String name) {
        return read("mark " + name, r -> SqlCalls.text(r.connection(), SqliteStatements.MARK, name));
    }

    @Override
    public List<ZoneInfo> zoneInfos() {
        return read("zones", r -> SqlCalls.zoneInfos(r.connection(), SqliteStatements.ZONE_INFOS));
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        Map<String, Memory> found = new HashMap<>();
        long stamp = validateCache();
        List<String> missing = new ArrayList<>();
        cache.memories(new LinkedHashSet<>(ids), found, missing);
        if (!missing.isEmpty()) read("get " + missing.size() + " memories", r -> {
            for (List<String> chunk : chunks(missing)) {
                for (Memory m : SqlCalls.memories(r.statements().bound(SqliteStatements.memoriesByIds(bucket(chunk.size())),
                        padded(chunk)))) {
                    found.put(m.id(), m);
                    cache.putMemory(stamp, m);
                }
            }
            return null;
        });
        return access.overlay(ids.stream().map(found::get).filter(Objects::nonNull).toList());
    }

    /** The change feed as the flush connection reads it; called by {@link RecordCache#validate} under {@link #flushLock}. */
    private final RecordCache.ChangeFeed flushFeed = new RecordCache.ChangeFeed() {
        /** The memories of the entries {@link #since} read last that are pinned in that reading. */
        private final Set<String> pinned = new HashSet<>();

        @Override
        public List<Change> since(long seq, int max) {
            return SqlCalls.run("changes since " + seq, () -> {
                pinned.clear();
                try (ResultSet rs = flushStatements.bound(SqliteStatements.CHANGES_SINCE_WITH_PINS, seq, max).executeQuery()) {
                    List<Change> out = new ArrayList<>();
                    while (rs.next()) {
                        out.add(new Change(rs.getLong(1), rs.getString(2)));
                        if (rs.getBoolean(3)) pinned.add(rs.getString(2));
                    }
                    return out;
                }
            });
        }

        /** Read with the entries themselves, so a change to a memory that is not pinned keeps the zones' pinned lists. */
        @Override
        public Set<String> pinnedAmong(List<Change> changes) {
            return RecordCache.ChangeFeed.among(changes, pinned);
        }

        @Override
        public long head() {
            return SqlCalls.run("head seq", () -> SqlCalls.count(flushStatements.bound(HEAD_SEQ)));
        }

        @Override
        public List<Change> edgesSince(long seq, int max) {
            return read("edge changes since " + seq, SqliteStatements.EDGE_CHANGES_SINCE, seq, max);
        }

        /** A feed's rows (seq, memory id) after {@code seq}, oldest first. */
        private List<Change> read(String what, String sql, long seq, int max) {
            return SqlCalls.run(what, () -> {
                try (ResultSet rs = flushStatements.bound(sql, seq, max).executeQuery()) {
                    List<Change> out = new ArrayList<>();
                    while (rs.next()) out.add(new Change(rs.getLong(1), rs.getString(2)));
                    return out;
                }
            });
        }

        @Override
        public long edgeHead() {
            return SqlCalls.run("edge head seq", () -> SqlCalls.count(flushStatements.bound(SqliteStatements.EDGE_HEAD_SEQ)));
        }

        @Override
        public long accessEpoch() {
            return SqlCalls.run("access epoch", () -> SqlCalls.count(flushStatements.bound(SqliteStatements.ACCESS_EPOCH)));
        }
    };

    /**
     * Brings {@link #cache} up to what anyone but the flush connection committed since its rows were read
     * (evicting what the change feed names, or resetting it); returns the stamp the rows read next are filed
     * with. Called before the read's statements, so what they return is at least as new as the version checked.
     */
    private long validateCache() {
        flushLock.lock();
        try {
            return cache.validate(SqlCalls.run("data version", () -> SqlCalls.count(flushStatements.bound(DATA_VERSION))), flushFeed);
        } finally {
            flushLock.unlock();
        }
    }

    /** {@code ids} in runs of at most {@link SqliteStatements#MAX_IDS_PER_QUERY}, one statement each. */
    private static List<List<String>> chunks(List<String> ids) {
        List<List<String>> out = new ArrayList<>();
        for (int from = 0; from < ids.size(); from += SqliteStatements.MAX_IDS_PER_QUERY) {
            out.add(ids.subList(from, Math.min(ids.size(), from + SqliteStatements.MAX_IDS_PER_QUERY)));
        }
        return out;
    }

    /**
     * Statement sizes for a list of ids: powers of two up to {@link SqliteStatements#MAX_IDS_PER_QUERY},
     * so that a handful of cached statements serve every list length.
     */
    static int bucket(int n) {
        return n <= 1 ? 1 : Math.min(SqliteStatements.MAX_IDS_PER_QUERY, Integer.highestOneBit(n - 1) << 1);
    }

    /** {@code ids} filled up to its bucket's size with its first id; IN ignores the repeats. */
    private static Object[] padded(List<String> ids) {
        Object[] out = new Object[bucket(ids.size())];
        for (int i = 0; i < out.length; i++) out[i] = i < ids.size() ? ids.get(i) : ids.get(0);
        return out;
    }

    @Override
    public List<Edge> edges(String id) {
        long stamp = validateCache();
        List<Edge> cached = cache.edges(id);
        if (cached != null) return cached;
        return read("edges " + id, r -> {
            List<Edge> edges = SqlCalls.edges(r.statements().bound(SqliteStatements.EDGES_OF, id));
            cache.putEdges(stamp, id, edges);
            return edges;
        });
    }

    @Override
    public Map<String, List<Edge>> outgoingEdges(String zone) {
        // one query instead of edges(id) per memory, each of which also checks the cache's data version
        return read("edges out of " + (zone == null ? "all zones" : zone), r -> {
            List<Edge> all = zone == null ? SqlCalls.edgesOf(r.connection(), SqliteStatements.EDGES_ALL)
                    : SqlCalls.edgesOf(r.connection(), SqliteStatements.EDGES_OUT_OF_ZONE, zone);
            Map<String, List<Edge>> out = new java.util.LinkedHashMap<>();
            for (Edge e : all) out.computeIfAbsent(e.fromId(), k -> new ArrayList<>()).add(e);
            return out;
        });
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        long stamp = validateCache();
        Map<String, Integer> out = new HashMap<>();
        List<String> missing = new ArrayList<>();
        cache.degrees(new LinkedHashSet<>(ids), out, missing);
        if (missing.isEmpty()) return out;
        return read("degrees of " + missing.size() + " memories", r -> {
            for (List<String> chunk : chunks(missing)) {
                Object[] once = padded(chunk);
                Object[] twice = Arrays.copyOf(once, 2 * once.length); // the ids bound once per direction
                System.arraycopy(once, 0, twice, once.length, once.length);
                Map<String, Integer> counted = new HashMap<>();
                try (ResultSet rs = r.statements().bound(SqliteStatements.degreesOf(once.length), twice).executeQuery()) {
                    while (rs.next()) counted.put(rs.getString(1), rs.getInt(2));
                }
                for (String id : chunk) cache.putDegree(stamp, id, counted.getOrDefault(id, 0));
                out.putAll(counted);
            }
            return out;
        });
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return read("embedding " + id, r -> SqliteEmbeddings.get(r.statements().bound(SqliteStatements.EMBEDDING_OF, id), id));
    }

    @Override
    public List<String> missingEmbeddings(String modelId, int max) {
        if (max < 1) return List.of(); // LIMIT with a negative value means no limit in SQLite
        return read("missing embeddings of " + modelId, r -> SqliteEmbeddings.missing(r.connection(), modelId, max));
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return read("versions " + id, r -> {
            try (PreparedStatement ps = SqlCalls.prepare(r.connection(), VERSIONS_OF, id); ResultSet rs = ps.executeQuery()) {
                List<MemoryVersion> out = new ArrayList<>();
                while (rs.next()) out.add(MemoryRows.ROWS.version(rs));
                return out;
            }
        });
    }

    @Override
    public List<Memory> pinned(String zone) {
        long stamp = validateCache();
        List<Memory> cached = cache.pinned(zone);
        if (cached != null) return access.overlay(cached);
        List<Memory> pinned = read("pinned " + zone, r -> SqlCalls.memories(r.statements().bound(PINNED, zone)));
        cache.putPinned(stamp, zone, pinned);
        return access.overlay(pinned);
    }

    @Override
    public void forEach(String zone, Consumer<Memory> action) {
        // pages keep memory bounded and let the action call back into the store without holding the read lock
        long afterCreated = Long.MIN_VALUE;
        String afterId = "";
        while (true) {
            long c = afterCreated;
            String i = afterId;
            List<Memory> page = read("scan " + (zone == null ? "all zones" : zone), r -> zone == null
                    ? SqlCalls.memories(r.connection(), PAGE_OF_ALL, c, i, PAGE)
                    : SqlCalls.memories(r.connection(), PAGE_OF_ZONE, zone, c, i, PAGE));
            access.overlay(page).forEach(action);
            if (page.size() < PAGE) return;
            Memory last = page.get(page.size() - 1);
            afterCreated = last.createdAt().toEpochMilli();
            afterId = last.id();
        }
    }

    @Override
    public Set<String> zones() {
        return read("zones", r -> {
            try (PreparedStatement ps = SqlCalls.prepare(r.connection(), ZONES); ResultSet rs = ps.executeQuery()) {
                Set<String> out = new TreeSet<>();
                while (rs.next()) out.add(rs.getString(1));
                return out;
            }
        });
    }

    @Override
    public long count() {
        return read("count", r -> SqlCalls.count(r.connection(), COUNT));
    }

    @Override
    public long edgeCount(String zone) {
        return read("edge count", r -> zone == null ? SqlCalls.count(r.connection(), SqliteStatements.EDGE_COUNT)
                : SqlCalls.count(r.connection(), SqliteStatements.EDGE_COUNT_IN_ZONE, zone));
    }

    @Override
    public long headSeq() {
        // the cache's validation reads the feed up to the head whenever anyone committed: no query of its own
        validateCache();
        return cache.seq();
    }

    @Override
    public List<Change> changesSince(long afterSeq, int max) {
        return read("changes since " + afterSeq, r -> {
            // every index catch-up asks: a kept statement, as for the recall's reads
            try (ResultSet rs = r.statements().bound(CHANGES_SINCE, afterSeq, max).executeQuery()) {
                List<Change> out = new ArrayList<>();
                while (rs.next()) out.add(new Change(rs.getLong(1), rs.getString(2)));
                return out;
            }
        });
    }

    @Override
    public void recordAccess(Collection<String> ids, Instant at) {
        // no transaction here: see PendingAccess; unknown ids are dropped by the UPDATE when flushed
        access.add(ids, at);
    }

    @Override
    public void close() {
        // no shutdownNow: an interrupted flush would abort its transaction; then write what is left
        accessFlusher.shutdown();
        try {
            accessFlusher.awaitTermination(LOCK_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // still flush below: a clean close loses no access count
        }
        flushAccess();
        flushLock.lock();
        try {
            try {
                flushStatements.close();
            } catch (SQLException e) {
                log.debug("closing cached statements", e); // the connection's close below frees them anyway
            }
            closeQuietly(flushConnection);
            readers.close();
            writer.close();
        } catch (SQLException e) {
            throw new StoreException("close " + file + ": " + e.getMessage(), e);
        } finally {
            flushLock.unlock();
        }
    }
}
