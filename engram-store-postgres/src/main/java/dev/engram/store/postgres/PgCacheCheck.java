package dev.engram.store.postgres;

import dev.engram.spi.Change;
import dev.engram.store.RecordCache;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a replica's {@link RecordCache} needs to know before it serves a row, read in one statement: the heads of the
 * change feed, the edge feed and the access feed (the access epoch), and the entries of all three after the ones the
 * cache reflects. Nothing changed: three index lookups and three empty range scans, one round trip. The cache reads it through
 * {@link RecordCache.ChangeFeed}. Checks run at once, so the cache may have moved on between the read of its position
 * and this check's turn: entries after a later position are taken from what was read when that is complete, and read
 * again on the same connection when it is not (more entries than the limit).
 */
final class PgCacheCheck implements RecordCache.ChangeFeed {
    /** Parameters: the change feed's seq and limit, then the edge feed's, then the access feed's. */
    static final String CHECK = "SELECT 0, seq, memory_id, NULL::text[] FROM (SELECT seq, memory_id FROM changes"
            + " WHERE seq > ? ORDER BY seq LIMIT ?) c"
            + " UNION ALL SELECT 1, seq, memory_id, NULL FROM (SELECT seq, memory_id FROM edge_changes WHERE seq > ? ORDER BY seq LIMIT ?) e"
            + " UNION ALL SELECT 5, seq, NULL, ids FROM (SELECT seq, ids FROM access_changes WHERE seq > ? ORDER BY seq LIMIT ?) a"
            + " UNION ALL SELECT 2, (SELECT COALESCE(max(seq), 0) FROM changes), NULL, NULL"
            + " UNION ALL SELECT 3, (SELECT COALESCE(max(seq), 0) FROM edge_changes), NULL, NULL"
            + " UNION ALL SELECT 4, (SELECT COALESCE(max(seq), 0) FROM access_changes), NULL, NULL";
    static final String EDGE_CHANGES_SINCE = "SELECT seq, memory_id FROM edge_changes WHERE seq > ? ORDER BY seq LIMIT ?";
    static final String ACCESS_CHANGES_SINCE = "SELECT seq, ids FROM access_changes WHERE seq > ? ORDER BY seq LIMIT ?";
    /** Access-feed entries read with the check: the cache resets past its own limit, which is lower. */
    static final int ACCESS_LIMIT = RecordCache.MAX_ACCESS_CHANGES + 1;

    private final Connection c;
    private final long changesAfter;
    private final long edgesAfter;
    private final long accessAfter;
    private final int max;
    private final List<RecordCache.AccessChange> accessed = new ArrayList<>();
    private final List<Change> changes = new ArrayList<>();
    private final List<Change> edgeChanges = new ArrayList<>();
    private long head;
    private long edgeHead;
    private long accessEpoch;

    private PgCacheCheck(Connection c, long changesAfter, long edgesAfter, long accessAfter, int max) {
        this.c = c;
        this.changesAfter = changesAfter;
        this.edgesAfter = edgesAfter;
        this.accessAfter = accessAfter;
        this.max = max;
    }

    /**
     * Reads the heads, and up to {@code max} entries of the change and edge feeds after {@code seq} and
     * {@code edgeSeq}, and up to {@link #ACCESS_LIMIT} of the access feed after {@code accessEpoch} (none of a feed whose
     * position is negative: the cache knows no point to read from and resets).
     */
    static PgCacheCheck read(Connection c, long seq, long edgeSeq, long accessEpoch, int max) throws SQLException {
        // a feed not read is read again if asked: no point of it was read from
        PgCacheCheck check = new PgCacheCheck(c, from(seq), from(edgeSeq), from(accessEpoch), max);
        try (PreparedStatement ps = c.prepareStatement(CHECK)) {
            ps.setLong(1, from(seq));
            ps.setInt(2, max);
            ps.setLong(3, from(edgeSeq));
            ps.setInt(4, max);
            ps.setLong(5, from(accessEpoch));
            ps.setInt(6, ACCESS_LIMIT);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    switch (rs.getInt(1)) {
                        case 0 -> check.changes.add(new Change(rs.getLong(2), rs.getString(3)));
                        case 1 -> check.edgeChanges.add(new Change(rs.getLong(2), rs.getString(3)));
                        case 5 -> check.accessed.add(accessChange(rs));
                        case 2 -> check.head = rs.getLong(2);
                        case 3 -> check.edgeHead = rs.getLong(2);
                        default -> check.accessEpoch = rs.getLong(2);
                    }
                }
            }
        }
        return check;
    }

    private static long from(long position) {
        return position < 0 ? Long.MAX_VALUE : position;
    }

    private static RecordCache.AccessChange accessChange(ResultSet rs) throws SQLException {
        String[] ids = (String[]) rs.getArray(4).getArray();
        return new RecordCache.AccessChange(rs.getLong(2), List.of(ids));
    }

    @Override
    public List<RecordCache.AccessChange> accessSince(long epoch, int limit) {
        if (epoch == accessAfter && limit <= ACCESS_LIMIT) return accessed.subList(0, Math.min(limit, accessed.size()));
        if (epoch > accessAfter && accessed.size() < ACCESS_LIMIT && limit <= ACCESS_LIMIT) {
            return accessed.stream().filter(a -> a.epoch() > epoch).limit(limit).toList();
        }
        return PgCalls.run("access changes since " + epoch, () -> {
            try (PreparedStatement ps = PgReads.prepare(c, ACCESS_CHANGES_SINCE, epoch, limit); ResultSet rs = ps.executeQuery()) {
                List<RecordCache.AccessChange> out = new ArrayList<>();
                while (rs.next()) out.add(new RecordCache.AccessChange(rs.getLong(1), List.of((String[]) rs.getArray(2).getArray())));
                return out;
            }
        });
    }

    /**
     * Moves whenever anything the cache keeps may have changed: each part only grows, so their sum is equal only when
     * all three are.
     */
    long version() {
        return head + edgeHead + accessEpoch;
    }

    @Override
    public List<Change> since(long seq, int limit) {
        List<Change> read = after(changes, changesAfter, seq, limit);
        return read != null ? read : PgCalls.run("changes since " + seq, () -> PgReads.changesSince(c, seq, limit));
    }

    /**
     * Up to {@code limit} of the entries after {@code seq}, from {@code read} (the entries after {@code readAfter}):
     * null when they are not all there, because the cache is behind the point read from, or some were left out by the
     * limit.
     */
    private List<Change> after(List<Change> read, long readAfter, long seq, int limit) {
        if (seq < readAfter || limit > max) return null;
        if (seq == readAfter) return read.subList(0, Math.min(limit, read.size()));
        if (read.size() >= max) return null;
        List<Change> out = new ArrayList<>();
        for (Change change : read) {
            if (change.seq() > seq && out.size() < limit) out.add(change);
        }
        return out;
    }

    @Override
    public long head() {
        return head;
    }

    @Override
    public List<Change> edgesSince(long seq, int limit) {
        List<Change> read = after(edgeChanges, edgesAfter, seq, limit);
        if (read != null) return read;
        return PgCalls.run("edge changes since " + seq, () -> {
            try (PreparedStatement ps = PgReads.prepare(c, EDGE_CHANGES_SINCE, seq, limit); ResultSet rs = ps.executeQuery()) {
                List<Change> out = new ArrayList<>();
                while (rs.next()) out.add(new Change(rs.getLong(1), rs.getString(2)));
                return out;
            }
        });
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
