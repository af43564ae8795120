package dev.engram.store.jdbc;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.Origin;
import dev.engram.memory.ZoneInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Maps memories, edges, zones and versions to and from rows, for both stores: their tables name and order the
 * columns alike and keep times as epoch milliseconds, and differ only in how tags are held ({@link TagColumn}) and in
 * the SQL type of a missing time.
 */
public final class MemoryRowCodec {
    /** How one store holds a list of tags in one column. */
    public interface TagColumn {
        void bind(PreparedStatement ps, int index, List<String> tags) throws SQLException;

        List<String> read(ResultSet rs, String column) throws SQLException;
    }

    private final TagColumn tags;
    private final int timeSqlType;

    /** @param timeSqlType the {@link java.sql.Types} a null time is bound as (the time columns' type) */
    public MemoryRowCodec(TagColumn tags, int timeSqlType) {
        this.tags = tags;
        this.timeSqlType = timeSqlType;
    }

    /** Binds every column but the id from parameter {@code first} on; returns the next free index. */
    public int bindFields(PreparedStatement ps, int first, Memory m) throws SQLException {
        int i = first;
        ps.setString(i++, m.zone());
        ps.setString(i++, m.key());
        ps.setString(i++, m.name());
        ps.setString(i++, m.type().name());
        ps.setString(i++, m.entityType());
        ps.setString(i++, m.content());
        tags.bind(ps, i++, m.tags());
        ps.setString(i++, m.file());
        ps.setString(i++, m.pathScope());
        ps.setString(i++, m.importance() == null ? null : m.importance().name());
        ps.setDouble(i++, m.quality());
        ps.setDouble(i++, m.confidence());
        ps.setString(i++, m.status().name());
        setInstant(ps, i++, m.createdAt());
        setInstant(ps, i++, m.updatedAt());
        setInstant(ps, i++, m.lastAccessedAt());
        ps.setLong(i++, m.accessCount());
        setInstant(ps, i++, m.expiresAt());
        setInstant(ps, i++, m.occurredAt());
        ps.setInt(i++, m.reviewIntervalDays());
        setInstant(ps, i++, m.lastVerifiedAt());
        ps.setInt(i++, m.verifyCount());
        ps.setDouble(i++, m.relevance());
        ps.setString(i++, m.origin().name());
        ps.setString(i++, m.session());
        ps.setString(i++, m.branch());
        ps.setInt(i++, m.pinPriority());
        setInstant(ps, i++, m.supersededAt());
        ps.setString(i++, m.supersededBy());
        setInstant(ps, i++, m.lastDecayAt());
        return i;
    }

    public Memory memory(ResultSet rs) throws SQLException {
        String importance = rs.getString("importance");
        return Memory.builder()
                .id(rs.getString("id"))
                .zone(rs.getString("zone"))
                .key(rs.getString("key"))
                .name(rs.getString("name"))
                .type(MemoryType.valueOf(rs.getString("type")))
                .entityType(rs.getString("entity_type"))
                .content(rs.getString("content"))
                .tags(tags.read(rs, "tags"))
                .file(rs.getString("file"))
                .pathScope(rs.getString("path_scope"))
                .importance(importance == null ? null : Importance.valueOf(importance))
                .quality(rs.getDouble("quality"))
                .confidence(rs.getDouble("confidence"))
                .status(MemoryStatus.valueOf(rs.getString("status")))
                .createdAt(instant(rs, "created_at"))
                .updatedAt(instant(rs, "updated_at"))
                .lastAccessedAt(instant(rs, "last_accessed_at"))
                .accessCount(rs.getLong("access_count"))
                .expiresAt(instant(rs, "expires_at"))
                .occurredAt(instant(rs, "occurred_at"))
                .reviewIntervalDays(rs.getInt("review_interval_days"))
                .lastVerifiedAt(instant(rs, "last_verified_at"))
                .verifyCount(rs.getInt("verify_count"))
                .relevance(rs.getDouble("relevance"))
                .origin(Origin.valueOf(rs.getString("origin")))
                .session(rs.getString("session"))
                .branch(rs.getString("branch"))
                .pinPriority(rs.getInt("pin_priority"))
                .supersededAt(instant(rs, "superseded_at"))
                .supersededBy(rs.getString("superseded_by"))
                .lastDecayAt(instant(rs, "last_decay_at"))
                .build();
    }

    public MemoryVersion version(ResultSet rs) throws SQLException {
        String importance = rs.getString("importance");
        return new MemoryVersion(rs.getString("memory_id"), rs.getInt("version"), rs.getString("content"),
                tags.read(rs, "tags"), importance == null ? null : Importance.valueOf(importance),
                instant(rs, "replaced_at"));
    }

    /** Binds a version's tags in this store's form. */
    public void bindTags(PreparedStatement ps, int index, List<String> values) throws SQLException {
        tags.bind(ps, index, values);
    }

    public Edge edge(ResultSet rs) throws SQLException {
        String label = rs.getString("label");
        return new Edge(rs.getString("from_id"), rs.getString("to_id"), EdgeType.valueOf(rs.getString("type")),
                label == null || label.isEmpty() ? null : label, instant(rs, "created_at"));
    }

    /** The stored form of an edge's label: '' for none, so a unique (from_id, to_id, type, label) covers it. */
    public String label(String label) {
        return label == null ? "" : label;
    }

    public ZoneInfo zone(ResultSet rs) throws SQLException {
        return new ZoneInfo(rs.getString("name"), rs.getString("short_description"), rs.getString("description"),
                instant(rs, "created_at"), instant(rs, "updated_at"));
    }

    public void setInstant(PreparedStatement ps, int index, Instant t) throws SQLException {
        if (t == null) ps.setNull(index, timeSqlType);
        else ps.setLong(index, t.toEpochMilli());
    }

    public Instant instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(millis);
    }
}
