package dev.engram.store.sqlite;

import static dev.engram.store.sqlite.SqliteStatements.DELETE_TOMBSTONE;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_TOMBSTONE;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_TOMBSTONE_EDGE;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_TOMBSTONE_VERSION;
import static dev.engram.store.sqlite.SqliteStatements.PURGE_TOMBSTONES;
import static dev.engram.store.sqlite.SqliteStatements.TOMBSTONE_BY_ID;
import static dev.engram.store.sqlite.SqliteStatements.TOMBSTONE_EDGES;
import static dev.engram.store.sqlite.SqliteStatements.TOMBSTONE_ID_BY_KEY;
import static dev.engram.store.sqlite.SqliteStatements.TOMBSTONE_VERSIONS;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The tombstone tables (schema V4), on the writer connection inside a {@link SqliteTransaction}. */
final class SqliteTombstones {
    private SqliteTombstones() {
    }

    /** Replaces any tombstone of the same id: delete first, so no edge or version of the old one survives. */
    static void put(Connection c, Tombstone t) throws SQLException {
        Memory m = t.memory();
        SqlCalls.update(c, DELETE_TOMBSTONE, m.id());
        try (PreparedStatement ps = c.prepareStatement(INSERT_TOMBSTONE)) {
            ps.setString(1, m.id());
            int i = MemoryRows.ROWS.bindFields(ps, 2, m);
            MemoryRows.ROWS.setInstant(ps, i++, t.deletedAt());
            StoredEmbedding e = t.embedding();
            if (e == null) {
                ps.setNull(i++, Types.VARCHAR);
                ps.setNull(i++, Types.INTEGER);
                ps.setNull(i, Types.BLOB);
            } else {
                ps.setString(i++, e.modelId());
                ps.setInt(i++, e.dimensions());
                ps.setBytes(i, SqliteEmbeddings.encode(e.vector()));
            }
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_TOMBSTONE_EDGE)) {
            for (Edge edge : t.edges()) {
                ps.setString(1, m.id());
                ps.setString(2, edge.fromId());
                ps.setString(3, edge.toId());
                ps.setString(4, edge.type().name());
                ps.setString(5, MemoryRows.ROWS.label(edge.label()));
                MemoryRows.ROWS.setInstant(ps, 6, edge.createdAt());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement(INSERT_TOMBSTONE_VERSION)) {
            for (MemoryVersion v : t.versions()) {
                ps.setString(1, m.id());
                ps.setInt(2, v.version());
                ps.setString(3, v.content());
                MemoryRows.ROWS.bindTags(ps, 4, v.tags());
                ps.setString(5, v.importance() == null ? null : v.importance().name());
                MemoryRows.ROWS.setInstant(ps, 6, v.replacedAt());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static Optional<Tombstone> get(Connection c, String id) throws SQLException {
        Memory memory;
        Instant deletedAt;
        StoredEmbedding embedding = null;
        try (PreparedStatement ps = SqlCalls.prepare(c, TOMBSTONE_BY_ID, id); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            memory = MemoryRows.ROWS.memory(rs);
            deletedAt = Instant.ofEpochMilli(rs.getLong("deleted_at"));
            String model = rs.getString("embedding_model");
            if (model != null) {
                embedding = new StoredEmbedding(model,
                        SqliteEmbeddings.decode(id, rs.getInt("embedding_dims"), rs.getBytes("embedding_vector")));
            }
        }
        List<Edge> edges = new ArrayList<>();
        try (PreparedStatement ps = SqlCalls.prepare(c, TOMBSTONE_EDGES, id); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) edges.add(MemoryRows.ROWS.edge(rs));
        }
        List<MemoryVersion> versions = new ArrayList<>();
        try (PreparedStatement ps = SqlCalls.prepare(c, TOMBSTONE_VERSIONS, id); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) versions.add(MemoryRows.ROWS.version(rs));
        }
        return Optional.of(new Tombstone(memory, edges, versions, embedding, deletedAt));
    }

    static Optional<Tombstone> getByKey(Connection c, String zone, String key) throws SQLException {
        String id;
        try (PreparedStatement ps = SqlCalls.prepare(c, TOMBSTONE_ID_BY_KEY, zone, key); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) return Optional.empty();
            id = rs.getString(1);
        }
        return get(c, id);
    }

    static boolean remove(Connection c, String id) throws SQLException {
        return SqlCalls.update(c, DELETE_TOMBSTONE, id) > 0;
    }

    static int purge(Connection c, Instant deletedBefore) throws SQLException {
        return SqlCalls.update(c, PURGE_TOMBSTONES, deletedBefore.toEpochMilli());
    }
}
