package dev.engram.store.postgres;

import dev.engram.spi.Change;
import dev.engram.spi.PendingAccess;
import dev.engram.store.RecordCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * What a replica's {@link RecordCache} needs to know before it serves a row, read in one statement: the heads of the
 * change feed, the edge feed and the access feed (the access epoch), and the entries of all three after the ones the
 * cache reflects. Nothing changed: three index lookups and three empty range scans, one round trip. The cache reads it
 * through {@link RecordCache.ChangeFeed}. Checks run at once, so the cache may have moved on between the read of its
 * position and this check's turn: entries after a later position are taken from what was read when that is complete,
 * and read again on the same connection when it is not (more entries than the limit).
 */
final class PgCacheCheck implements RecordCache.ChangeFeed {
    /**
     * Every row is (kind, seq, memory id, ids, counts, last reads, pinned): an entry of one feed, or a feed's head. A
     * change-feed entry says whether its memory is pinned now (in the check's snapshot), so a change to a memory that is
     * not keeps the zones' cached pins.
     */
    private static final int CHANGE = 0, EDGE = 1, ACCESS = 2, HEAD = 3, EDGE_HEAD = 4, ACCESS_HEAD = 5;
    private static final String NO_ARRAYS = "NULL::text[], NULL::bigint[], NULL::bigint[]";
    /**
     * Each entry's pin by a subquery on the primary key, not a join: PostgreSQL plans a prepared statement generically
     * after five runs, and for a join with a LIMIT it does not know it chose a hash join over a scan of every memory
     * (2 ms a check at 10k memories, on every call).
     */
    private static final String CHANGES = "SELECT 0, seq, memory_id, " + NO_ARRAYS + ", (SELECT m.pin_priority > 0 FROM memories m"
            + " WHERE m.id = c.memory_id) FROM (SELECT seq, memory_id FROM changes WHERE seq > ? ORDER BY seq LIMIT ?) c";
    private static final String EDGE_CHANGES = "SELECT 1, seq, memory_id, " + NO_ARRAYS + ", NULL::boolean FROM (SELECT seq,"
            + " memory_id FROM edge_changes WHERE seq > ? ORDER BY seq LIMIT ?) e";
    private static final String ACCESS_CHANGES = "SELECT 2, seq, NULL, ids, counts, lasts, NULL::boolean FROM (SELECT seq, ids,"
            + " counts, lasts FROM access_changes WHERE seq > ? ORDER BY seq LIMIT ?) a";
    private static final String NO_ENTRY = "NULL, " + NO_ARRAYS + ", NULL::boolean";
    /** Parameters: the change feed's seq and limit, then the edge feed's, then the access feed's. */
    static final String CHECK = CHANGES + " UNION ALL " + EDGE_CHANGES + " UNION ALL " + ACCESS_CHANGES
            + " UNION ALL SELECT 3, (SELECT COALESCE(max(seq), 0) FROM changes), " + NO_ENTRY
            + " UNION ALL SELECT 4, (SELECT COALESCE(max(seq), 0) FROM edge_changes), " + NO_ENTRY
            + " UNION ALL SELECT 5, (SELECT COALESCE(max(seq), 0) FROM access_changes), " + NO_ENTRY;
    /** Access-feed entries read with the check: the cache resets past its own limit, which is lower. */
    static final int ACCESS_LIMIT = RecordCache.MAX_ACCESS_CHANGES + 1;

    private final Connection c;
    private final Read<Change> changes;
    private final Read<Change> edgeChanges;
    private final Read<RecordCache.AccessChange> accessed;
    private long head;
    private long edgeHead;
    private long accessEpoch;
    /** The memories of the change-feed entries read (by the check or again) that are pinned in their snapshot. */
    private final java.util.Set<String> pinned = new java.util.HashSet<>();

    private PgCacheCheck(Connection c, long seq, long edgeSeq, long epoch, int max) {
        this.c = c;
        this.changes = new Read<>(from(seq), max, Change::seq);
        this.edgeChanges = new Read<>(from(edgeSeq), max, Change::seq);
        this.accessed = new Read<>(from(epoch), ACCESS_LIMIT, RecordCache.AccessChange::epoch);
    }

    /**
     * Reads the heads, and up to {@code max} entries of the change and edge feeds after {@code seq} and
     * {@code edgeSeq}, and up to {@link #ACCESS_LIMIT} of the access feed after {@code accessEpoch} (none of a feed whose
     * position is negative: the cache knows no point to read from and resets).
     */
    static PgCacheCheck read(Connection c, long seq, long edgeSeq, long accessEpoch, int max) throws SQLException {
        PgCacheCheck check = new PgCacheCheck(c, seq, edgeSeq, accessEpoch, max);
        try (PreparedStatement ps = PgReads.prepare(c, CHECK, check.changes.after, max, check.edgeChanges.after, max,
                check.accessed.after, ACCESS_LIMIT); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                switch (rs.getInt(1)) {
                    case CHANGE -> check.changes.entries.add(check.change(rs));
                    case EDGE -> check.edgeChanges.entries.add(edgeChange(rs));
                    case ACCESS -> check.accessed.entries.add(accessChange(rs));
                    case HEAD -> check.head = rs.getLong(2);
                    case EDGE_HEAD -> check.edgeHead = rs.getLong(2);
                    default -> check.accessEpoch = rs.getLong(2);
                }
            }
        }
        check.changes.sort();
        check.edgeChanges.sort();
        check.accessed.sort();
        return check;
    }

    /** A feed not read from any point (a negative position) is read again when asked. */
    private static long from(long position) {
        return position < 0 ? Long.MAX_VALUE : position;
    }

    /** An edge-feed entry. */
    private static Change edgeChange(ResultSet rs) throws SQLException {
        return new Change(rs.getLong(2), rs.getString(3));
    }

    /** A change-feed entry, noting whether its memory is pinned now. */
    private Change change(ResultSet rs) throws SQLException {
        if (rs.getBoolean(7)) pinned.add(rs.getString(3));
        return new Change(rs.getLong(2), rs.getString(3));
    }

    /** An access-feed entry; one written without counts (before schema version 4) names its memories only. */
    private static RecordCache.AccessChange accessChange(ResultSet rs) throws SQLException {
        List<String> ids = List.of((String[]) rs.getArray(4).getArray());
        java.sql.Array counts = rs.getArray(5), lasts = rs.getArray(6);
        if (counts == null || lasts == null) return new RecordCache.AccessChange(rs.getLong(2), ids);
        Long[] n = (Long[]) counts.getArray(), at = (Long[]) lasts.getArray();
        List<PendingAccess.Bump> bumps = new ArrayList<>(n.length);
        for (int i = 0; i < n.length; i++) bumps.add(new PendingAccess.Bump(n[i], Instant.ofEpochMilli(at[i])));
        return new RecordCache.AccessChange(rs.getLong(2), ids, bumps);
    }

    /** One feed's entries after {@code after}, read by the check, at most {@code limit} of them. */
    private record Read<T>(long after, int limit, ToLongFunction<T> seqOf, List<T> entries) {
        Read(long after, int limit, ToLongFunction<T> seqOf) {
            this(after, limit, seqOf, new ArrayList<>());
        }

        /** Oldest first: a union's rows come in no order SQL promises. */
        void sort() {
            entries.sort(java.util.Comparator.comparingLong(seqOf));
        }

        /**
         * Up to {@code max} of the entries after {@code seq}: null when what was read does not hold them all, because
         * the cache is behind the point read from, or some were left out by the limit.
         */
        List<T> since(long seq, int max) {
            if (seq < after || max > limit) return null;
            if (seq == after) return entries.subList(0, Math.min(max, entries.size()));
            if (entries.size() >= limit) return null;
            return entries.stream().filter(e -> seqOf.applyAsLong(e) > seq).limit(max).toList();
        }
    }

    /**
     * Reads a feed's entries after {@code seq} again, with {@code sql} (one of the check's parts) on the same connection,
     * oldest first.
     */
    private <T> List<T> query(String what, String sql, long seq, int max, Entry<T> entry, ToLongFunction<T> seqOf) {
        return PgCalls.run(what + " since " + seq, () -> {
            try (PreparedStatement ps = PgReads.prepare(c, sql, seq, max); ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) out.add(entry.read(rs));
                out.sort(java.util.Comparator.comparingLong(seqOf));
                return out;
            }
        });
    }

    /** An entry from a row of the check's layout. */
    private interface Entry<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /**
     * Moves whenever anything the cache keeps may have changed: each part only grows, so their sum is equal only when
     * all three are.
     */
    long version() {
        return head + edgeHead + accessEpoch;
    }

    @Override
    public List<Change> since(long seq, int max) {
        List<Change> read = changes.since(seq, max);
        return read != null ? read : query("changes", CHANGES, seq, max, this::change, Change::seq);
    }

    @Override
    public List<Change> edgesSince(long seq, int max) {
        List<Change> read = edgeChanges.since(seq, max);
        return read != null ? read : query("edge changes", EDGE_CHANGES, seq, max, PgCacheCheck::edgeChange, Change::seq);
    }

    @Override
    public List<RecordCache.AccessChange> accessSince(long epoch, int max) {
        List<RecordCache.AccessChange> read = accessed.since(epoch, max);
        return read != null ? read : query("access changes", ACCESS_CHANGES, epoch, max, PgCacheCheck::accessChange,
                RecordCache.AccessChange::epoch);
    }

    /** Every change-feed entry this check returned was read with its memory's pin (see {@link #change}). */
    @Override
    public java.util.Set<String> pinnedAmong(List<Change> entries) {
        return RecordCache.ChangeFeed.among(entries, pinned);
    }

    @Override
    public long head() {
        return head;
    }

    @Override
    public long edgeHead() {
        return edgeHead;
    }

    @Override
    public long accessEpoch() {
        return accessEpoch;
    }
}
