package dev.engram.store.postgres;

import static dev.engram.store.postgres.PgRows.MEMORY_COLUMNS;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every read, on a connection the caller holds: a pooled autocommit one for the store's reads (each
 * statement sees everything committed before it, by any replica), the transaction's own inside a write.
 */
final class PgReads {
    static final String BY_ID = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE id = ?";
    /** With the access feed's head in the same snapshot, which the record cache files the rows by. */
    static final String BY_IDS = "SELECT " + MEMORY_COLUMNS + ", (SELECT COALESCE(max(seq), 0) FROM access_changes)"
            + " FROM memories WHERE id = ANY (?)";
    static final String BY_KEY = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND key = ?";
    static final String BY_NAME = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND name = ?";
    /** Both readings of a reference in one round trip: the memory with that id, and the zone's memory with that key. */
    static final String BY_ID_OR_KEY = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE id = ? OR (zone = ? AND key = ?)";
    static final String PINNED = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ? AND pin_priority > 0"
            + " ORDER BY pin_priority DESC, created_at, id";
    /** Keyset pages, oldest first: (created_at, id) after the last row of the previous page. */
    static final String PAGE_OF_ZONE = "SELECT " + MEMORY_COLUMNS + " FROM memories WHERE zone = ?"
            + " AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?";
    static final String PAGE_OF_ALL = "SELECT " + MEMORY_COLUMNS + " FROM memories"
            + " WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?";
    static final int PAGE = 500;
    /** ord breaks ties in creation time, so edges added in one instant keep their insertion order. */
    static final String EDGES_OF = "SELECT from_id, to_id, type, label, created_at FROM edges"
            + " WHERE from_id = ? OR to_id = ? ORDER BY created_at, ord";
    /** The edges touching any of a set of memories, in EDGES_OF's order: each one's share is what EDGES_OF gives it. */
    static final String EDGES_OF_ANY = "SELECT from_id, to_id, type, label, created_at FROM edges"
            + " WHERE from_id = ANY (?) OR to_id = ANY (?) ORDER BY created_at, ord";
    /** Every edge out of a zone's memories, in EDGES_OF's order: grouped by source, each group is what EDGES_OF gives it. */
    static final String EDGES_OUT_OF_ZONE = "SELECT e.from_id, e.to_id, e.type, e.label, e.created_at FROM edges e"
            + " JOIN memories m ON m.id = e.from_id WHERE m.zone = ? ORDER BY e.created_at, e.ord";
    static final String EDGES_ALL = "SELECT from_id, to_id, type, label, created_at FROM edges ORDER BY created_at, ord";
    static final String DEGREES = "SELECT id, count(DISTINCT other) FROM (SELECT from_id AS id, to_id AS other FROM edges"
            + " WHERE from_id = ANY (?) UNION ALL SELECT to_id, from_id FROM edges WHERE to_id = ANY (?)) n GROUP BY id";
    static final String VERSIONS_OF = "SELECT memory_id, version, content, tags, importance, replaced_at FROM versions"
            + " WHERE memory_id = ? ORDER BY version";
    static final String EMBEDDING_OF = "SELECT model_id, dims, vector FROM embeddings WHERE memory_id = ?";
    static final String MISSING_EMBEDDINGS = "SELECT m.id FROM memories m LEFT JOIN embeddings e ON e.memory_id = m.id"
            + " WHERE e.memory_id IS NULL OR e.model_id <> ? ORDER BY m.created_at, m.id LIMIT ?";
    static final String ZONE_INFO = "SELECT name, short_description, description, created_at, updated_at FROM zones"
            + " WHERE name = ?";
    static final String ZONE_INFOS = "SELECT name, short_description, description, created_at, updated_at FROM zones";
    static final String MARK = "SELECT value FROM marks WHERE name = ?";
    static final String CHANGES_SINCE = "SELECT seq, memory_id FROM changes WHERE seq > ? ORDER BY seq LIMIT ?";
    static final String TOMBSTONE_BY_ID = "SELECT " + MEMORY_COLUMNS + ", deleted_at, embedding_model, embedding_dims,"
            + " embedding_vector FROM tombstones WHERE id = ?";
    /** ord breaks a tie in deletion time: the later put wins. */
    static final String TOMBSTONE_ID_BY_KEY = "SELECT id FROM tombstones WHERE zone = ? AND key = ?"
            + " ORDER BY deleted_at DESC, ord DESC LIMIT 1";
    static final String TOMBSTONE_EDGES = "SELECT from_id, to_id, type, label, created_at FROM tombstone_edges"
            + " WHERE memory_id = ? ORDER BY ord";
    static final String TOMBSTONE_VERSIONS = "SELECT memory_id, version, content, tags, importance, replaced_at"
            + " FROM tombstone_versions WHERE memory_id = ? ORDER BY ord";

    private PgReads() {
    }

    static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
        return ps;
    }

    static List<Memory> memories(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            List<Memory> out = new ArrayList<>();
            while (rs.next()) out.add(PgRows.ROWS.memory(rs));
            return out;
        }
    }

    static Optional<Memory> get(Connection c, String id) throws SQLException {
        return memories(c, BY_ID, id).stream().findFirst();
    }

    static Optional<Memory> getByKey(Connection c, String zone, String key) throws SQLException {
        return memories(c, BY_KEY, zone, key).stream().findFirst();
    }

    /** What {@code ref} names in {@code zone}, by {@link MemoryStore#resolve}'s rule, in one statement. */
    static Optional<Memory> find(Connection c, String zone, String ref) throws SQLException {
        List<Memory> rows = memories(c, BY_ID_OR_KEY, ref, zone, ref);
        return MemoryStore.resolve(ref,
                id -> rows.stream().filter(m -> m.id().equals(id)).findFirst(),
                key -> rows.stream().filter(m -> m.zone().equals(zone) && key.equals(m.key())).findFirst());
    }

    static Optional<Memory> getByName(Connection c, String zone, String name) throws SQLException {
        return memories(c, BY_NAME, zone, name).stream().findFirst();
    }

    /** Rows read in one snapshot, and the head of the access feed in it (MAX_VALUE when no row was found). */
    record Rows(List<Memory> memories, long accessHead) {
    }

    /** The rows of {@code ids} that exist, in the order of {@code ids}. */
    static Rows getAll(Connection c, List<String> ids) throws SQLException {
        if (ids.isEmpty()) return new Rows(List.of(), Long.MAX_VALUE);
        Map<String, Memory> found = new HashMap<>();
        long head = Long.MAX_VALUE;
        try (PreparedStatement ps = prepare(c, BY_IDS, PgRows.textArray(c, List.copyOf(new LinkedHashSet<>(ids))));
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Memory m = PgRows.ROWS.memory(rs);
                found.put(m.id(), m);
                head = rs.getLong(PgRows.COLUMNS.size() + 1);
            }
        }
        return new Rows(ids.stream().map(found::get).filter(Objects::nonNull).toList(), head);
    }

    static List<Memory> pinned(Connection c, String zone) throws SQLException {
        return memories(c, PINNED, zone);
    }

    /** One page of {@code forEach}; {@code zone} null for every zone. */
    static List<Memory> page(Connection c, String zone, long afterCreated, String afterId) throws SQLException {
        return zone == null ? memories(c, PAGE_OF_ALL, afterCreated, afterId, PAGE)
                : memories(c, PAGE_OF_ZONE, zone, afterCreated, afterId, PAGE);
    }

    static List<Edge> edges(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = prepare(c, EDGES_OF, id, id); ResultSet rs = ps.executeQuery()) {
            List<Edge> out = new ArrayList<>();
            while (rs.next()) out.add(PgRows.ROWS.edge(rs));
            return out;
        }
    }

    /** See MemoryStore#edgesOf: one statement, each edge filed under whichever of its ends were asked for. */
    static Map<String, List<Edge>> edgesOf(Connection c, Collection<String> ids) throws SQLException {
        if (ids.isEmpty()) return Map.of();
        Set<String> asked = new LinkedHashSet<>(ids);
        java.sql.Array array = PgRows.textArray(c, List.copyOf(asked));
        try (PreparedStatement ps = prepare(c, EDGES_OF_ANY, array, array); ResultSet rs = ps.executeQuery()) {
            Map<String, List<Edge>> out = new HashMap<>();
            while (rs.next()) {
                Edge e = PgRows.ROWS.edge(rs);
                if (asked.contains(e.fromId())) out.computeIfAbsent(e.fromId(), k -> new ArrayList<>()).add(e);
                if (!e.toId().equals(e.fromId()) && asked.contains(e.toId())) {
                    out.computeIfAbsent(e.toId(), k -> new ArrayList<>()).add(e);
                }
            }
            return out;
        }
    }

    /** The edges whose source is in {@code zone} (every zone when null), by source id; see MemoryStore#outgoingEdges. */
    static Map<String, List<Edge>> outgoingEdges(Connection c, String zone) throws SQLException {
        try (PreparedStatement ps = zone == null ? prepare(c, EDGES_ALL) : prepare(c, EDGES_OUT_OF_ZONE, zone);
             ResultSet rs = ps.executeQuery()) {
            Map<String, List<Edge>> out = new java.util.LinkedHashMap<>();
            while (rs.next()) {
                Edge e = PgRows.ROWS.edge(rs);
                out.computeIfAbsent(e.fromId(), k -> new ArrayList<>()).add(e);
            }
            return out;
        }
    }

    static Map<String, Integer> degrees(Connection c, Collection<String> ids) throws SQLException {
        if (ids.isEmpty()) return Map.of();
        java.sql.Array array = PgRows.textArray(c, List.copyOf(new LinkedHashSet<>(ids)));
        try (PreparedStatement ps = prepare(c, DEGREES, array, array); ResultSet rs = ps.executeQuery()) {
            Map<String, Integer> out = new HashMap<>();
            while (rs.next()) out.put(rs.getString(1), rs.getInt(2));
            return out;
        }
    }

    static List<MemoryVersion> versions(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = prepare(c, VERSIONS_OF, id); ResultSet rs = ps.executeQuery()) {
            List<MemoryVersion> out = new ArrayList<>();
            while (rs.next()) out.add(PgRows.ROWS.version(rs));
            return out;
        }
    }

    static Optional<StoredEmbedding> embedding(Connection c, String id) throws SQLException {
        try (PreparedStatement ps = prepare(c, EMBEDDING_OF, id); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            return Optional.of(new StoredEmbedding(rs.getString(1), PgRows.decode(id, rs.getInt(2), rs.getBytes(3))));
        }
    }

    static List<String> missingEmbeddings(Connection c, String modelId, int max) throws SQLException {
        try (PreparedStatement ps = prepare(c, MISSING_EMBEDDINGS, modelId, max); ResultSet rs = ps.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) out.add(rs.getString(1));
            return out;
        }
    }

    static Set<String> zones(Connection c) throws SQLException {
        try (PreparedStatement ps = prepare(c, "SELECT DISTINCT zone FROM memories"); ResultSet rs = ps.executeQuery()) {
            Set<String> out = new TreeSet<>(); // Java's order, as every store sorts
            while (rs.next()) out.add(rs.getString(1));
            return out;
        }
    }

    static long count(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static List<ZoneInfo> zoneInfos(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params); ResultSet rs = ps.executeQuery()) {
            List<ZoneInfo> out = new ArrayList<>();
            while (rs.next()) out.add(PgRows.ROWS.zone(rs));
            out.sort(java.util.Comparator.comparing(ZoneInfo::name));
            return out;
        }
    }

    static Optional<String> mark(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = prepare(c, MARK, name); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
        }
    }

    static List<Change> changesSince(Connection c, long afterSeq, int max) throws SQLException {
        try (PreparedStatement ps = prepare(c, CHANGES_SINCE, afterSeq, max); ResultSet rs = ps.executeQuery()) {
            List<Change> out = new ArrayList<>();
            while (rs.next()) out.add(new Change(rs.getLong(1), rs.getString(2)));
            return out;
        }
    }

    static Optional<Tombstone> tombstone(Connection c, String id) throws SQLException {
        Memory memory;
        Instant deletedAt;
        StoredEmbedding embedding = null;
        try (PreparedStatement ps = prepare(c, TOMBSTONE_BY_ID, id); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            memory = PgRows.ROWS.memory(rs);
            deletedAt = Instant.ofEpochMilli(rs.getLong("deleted_at"));
            String model = rs.getString("embedding_model");
            if (model != null) {
                embedding = new StoredEmbedding(model,
                        PgRows.decode(id, rs.getInt("embedding_dims"), rs.getBytes("embedding_vector")));
            }
        }
        List<Edge> edges = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, TOMBSTONE_EDGES, id); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) edges.add(PgRows.ROWS.edge(rs));
        }
        List<MemoryVersion> versions = new ArrayList<>();
        try (PreparedStatement ps = prepare(c, TOMBSTONE_VERSIONS, id); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) versions.add(PgRows.ROWS.version(rs));
        }
        return Optional.of(new Tombstone(memory, edges, versions, embedding, deletedAt));
    }

    static Optional<Tombstone> tombstoneByKey(Connection c, String zone, String key) throws SQLException {
        String id;
        try (PreparedStatement ps = prepare(c, TOMBSTONE_ID_BY_KEY, zone, key); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            id = rs.getString(1);
        }
        return tombstone(c, id);
    }
}
