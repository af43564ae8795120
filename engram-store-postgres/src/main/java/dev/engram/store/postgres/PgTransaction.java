package dev.engram.store.postgres;

import static dev.engram.store.postgres.PgRows.MEMORY_COLUMNS;
import static dev.engram.store.postgres.PgRows.placeholders;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.PendingAccess;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@link PostgresMemoryStore#write}: a pooled connection inside a transaction that holds the
 * schema's write lock. Not thread-safe; valid only during that call.
 * <p>Conflicts and unknown ids are checked with reads before the statement that would fail: in
 * PostgreSQL a failed statement aborts the whole transaction, and the engine may catch a
 * {@link ConflictException} and go on writing in the same one. Under the write lock nothing can
 * change between the check and the write.
 */
final class PgTransaction implements StoreTransaction {
    static final String INSERT_MEMORY = "INSERT INTO memories (" + MEMORY_COLUMNS + ") VALUES ("
            + placeholders(PgRows.COLUMNS.size()) + ")";
    static final String UPDATE_MEMORY = "UPDATE memories SET "
            + String.join(" = ?, ", PgRows.COLUMNS.subList(1, PgRows.COLUMNS.size())) + " = ? WHERE id = ?";
    /** Gap-free: the write lock makes max + 1 safe, and a rolled-back transaction takes its numbers back. */
    static final String APPEND_CHANGE = "INSERT INTO changes (seq, memory_id) SELECT COALESCE(max(seq), 0) + 1, ? FROM changes";
    static final String RECORD_ACCESS = "UPDATE memories SET access_count = access_count + ?,"
            + " last_accessed_at = GREATEST(last_accessed_at, ?) WHERE id = ?";
    static final String INSERT_TOMBSTONE = "INSERT INTO tombstones (" + MEMORY_COLUMNS + ", deleted_at,"
            + " embedding_model, embedding_dims, embedding_vector) VALUES (" + placeholders(PgRows.COLUMNS.size() + 4) + ")";

    private final Connection c;
    private boolean open = true;
    private boolean changed;
    /** This replica's buffered access counts, settled row by row as the work touches rows; null: none to settle. */
    private final PendingAccess access;
    private final Map<String, PendingAccess.Bump> settled = new HashMap<>();
    /**
     * Rows this transaction has read by id, key or name and not written since (empty: known to be absent). The engine
     * reads the same rows again and again while it writes: a remember with a link ran 29 statements, 14 of them reads
     * of rows it had read already (issue 18). Under the write lock no other writer can change them, and every write
     * here drops what it may have changed.
     */
    private final Map<String, Optional<Memory>> byId = new HashMap<>();
    private final Map<List<String>, Optional<Memory>> byKey = new HashMap<>();
    private final Map<List<String>, Optional<Memory>> byName = new HashMap<>();

    PgTransaction(Connection c, PendingAccess access) {
        this.c = c;
        this.access = access;
    }

    /**
     * Before this transaction reads or rewrites a memory's row, that memory's pending access bump is written into it
     * (and taken from the buffer): a row read here then carries its counts, and a row rewritten from an earlier read
     * through the store (which showed the bump on top) is not bumped twice. Only the rows the work touches: the
     * store's flush writes the rest, so a remember under a stream of recalls does not rewrite dozens of rows under the
     * cluster's write lock.
     */
    private void settle(String id) {
        if (access == null) return;
        PendingAccess.Bump bump = access.take(id);
        if (bump == null) return;
        settled.merge(id, bump, PendingAccess.Bump::then);
        rowWritten(id);
        PgCalls.run("record access of " + id, () -> update(RECORD_ACCESS, bump.count(), bump.last().toEpochMilli(), id));
    }

    /** The bumps {@link #settle} wrote, for the store to put back if the transaction does not commit. */
    Map<String, PendingAccess.Bump> settled() {
        return settled;
    }

    /** A row found by key or name, read again by id once its pending bump is settled (when it had one). */
    private Optional<Memory> settled(Optional<Memory> found) {
        if (found.isEmpty() || access == null || access.overlay(found.get()) == found.get()) return found;
        return get(found.get().id());
    }

    void end() {
        open = false;
    }

    /** For the store's own statements inside its write lock (recordAccess). */
    Connection connection() {
        return c();
    }

    private Connection c() {
        if (!open) throw new IllegalStateException("transaction used after its write() returned");
        return c;
    }

    private int update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = PgReads.prepare(c(), sql, params)) {
            return ps.executeUpdate();
        }
    }

    private void appendChange(String id) throws SQLException {
        update(APPEND_CHANGE, id);
        changed = true;
    }

    /** Forgets what this transaction read of {@code id}'s row, and every lookup by key or name, before it is written. */
    private void rowWritten(String id) {
        byId.remove(id);
        byKey.clear();
        byName.clear();
    }

    /** Whether this transaction appended to the change feed (then the store notifies the replicas). */
    boolean changed() {
        return changed;
    }

    private boolean exists(String id) {
        Optional<Memory> read = byId.get(id);
        if (read != null) return read.isPresent();
        return PgCalls.run("get " + id, () -> PgReads.count(c(), "SELECT count(*) FROM memories WHERE id = ?", id) > 0);
    }

    @Override
    public Optional<Memory> get(String id) {
        settle(id);
        Optional<Memory> read = byId.get(id);
        if (read != null) return read;
        read = PgCalls.run("get " + id, () -> PgReads.get(c(), id));
        byId.put(id, read);
        return read;
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return lookUp(byKey, zone, key, () -> PgCalls.run("get by key in " + zone, () -> PgReads.getByKey(c(), zone, key)));
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return lookUp(byName, zone, name, () -> PgCalls.run("get by name in " + zone, () -> PgReads.getByName(c(), zone, name)));
    }

    /**
     * The row {@code read} finds in {@code zone} by key or name, as this transaction last found it. Not computeIfAbsent:
     * settling the row's pending bump writes it, which clears {@code seen}.
     */
    private Optional<Memory> lookUp(Map<List<String>, Optional<Memory>> seen, String zone, String value,
                                    java.util.function.Supplier<Optional<Memory>> read) {
        List<String> k = List.of(zone, value);
        Optional<Memory> found = seen.get(k);
        if (found == null) {
            found = settled(read.get());
            seen.put(k, found);
        }
        return found;
    }

    @Override
    public void insert(Memory memory) {
        if (exists(memory.id())) throw new ConflictException("memory id " + memory.id() + " is already taken");
        keyFree(memory);
        rowWritten(memory.id());
        PgCalls.run("put " + memory.id(), () -> {
            try (PreparedStatement ps = c().prepareStatement(INSERT_MEMORY)) {
                ps.setString(1, memory.id());
                PgRows.ROWS.bindFields(ps, 2, memory);
                ps.executeUpdate();
            }
            appendChange(memory.id());
            return null;
        });
    }

    @Override
    public void update(Memory memory) {
        settle(memory.id());
        if (!exists(memory.id())) throw new NotFoundException("no memory with id " + memory.id() + " to update");
        keyFree(memory);
        rowWritten(memory.id());
        PgCalls.run("update " + memory.id(), () -> {
            try (PreparedStatement ps = c().prepareStatement(UPDATE_MEMORY)) {
                int next = PgRows.ROWS.bindFields(ps, 1, memory);
                ps.setString(next, memory.id());
                ps.executeUpdate();
            }
            appendChange(memory.id());
            return null;
        });
    }

    private void keyFree(Memory memory) {
        getByKey(memory.zone(), memory.key()).filter(holder -> !holder.id().equals(memory.id())).ifPresent(holder -> {
            throw new ConflictException("key '" + memory.key() + "' in zone '" + memory.zone()
                    + "' already belongs to " + holder.id());
        });
        if (memory.name() == null) return;
        getByName(memory.zone(), memory.name()).filter(holder -> !holder.id().equals(memory.id())).ifPresent(holder -> {
            throw new ConflictException("name '" + memory.name() + "' in zone '" + memory.zone()
                    + "' already belongs to " + holder.id());
        });
    }

    @Override
    public boolean delete(String id) {
        settle(id); // a bump left pending would be written into no row; taken, a failed write puts it back
        rowWritten(id);
        // edges, versions and the vector go by ON DELETE CASCADE
        return PgCalls.run("delete " + id, () -> {
            int deleted = update("DELETE FROM memories WHERE id = ?", id);
            if (deleted > 0) appendChange(id);
            return deleted > 0;
        });
    }

    @Override
    public void addEdge(Edge edge) {
        for (String end : List.of(edge.fromId(), edge.toId())) {
            if (!exists(end)) throw new NotFoundException("no memory with id " + end + " to link");
        }
        PgCalls.run("link " + edge.fromId() + " -> " + edge.toId(), () -> {
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO edges (from_id, to_id, type, label, created_at)"
                    + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (from_id, to_id, type, label) DO NOTHING")) {
                ps.setString(1, edge.fromId());
                ps.setString(2, edge.toId());
                ps.setString(3, edge.type().name());
                ps.setString(4, PgRows.ROWS.label(edge.label()));
                PgRows.ROWS.setInstant(ps, 5, edge.createdAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public boolean removeEdge(String fromId, String toId, EdgeType type, String label) {
        return PgCalls.run("unlink " + fromId + " -> " + toId, () -> update(
                "DELETE FROM edges WHERE from_id = ? AND to_id = ? AND type = ? AND label = ?",
                fromId, toId, type.name(), PgRows.ROWS.label(label)) > 0);
    }

    @Override
    public List<Edge> edges(String id) {
        return PgCalls.run("edges " + id, () -> PgReads.edges(c(), id));
    }

    @Override
    public void putZone(ZoneInfo zone) {
        PgCalls.run("describe zone " + zone.name(), () -> {
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO zones (name, short_description, description,"
                    + " created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                    + " short_description = excluded.short_description, description = excluded.description,"
                    + " created_at = excluded.created_at, updated_at = excluded.updated_at")) {
                ps.setString(1, zone.name());
                ps.setString(2, zone.shortDescription());
                ps.setString(3, zone.description());
                PgRows.ROWS.setInstant(ps, 4, zone.createdAt());
                PgRows.ROWS.setInstant(ps, 5, zone.updatedAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public boolean removeZone(String name) {
        return PgCalls.run("forget zone " + name, () -> update("DELETE FROM zones WHERE name = ?", name) > 0);
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return PgCalls.run("zone " + name, () -> PgReads.zoneInfos(c(), PgReads.ZONE_INFO, name).stream().findFirst());
    }

    @Override
    public Optional<String> mark(String name) {
        return PgCalls.run("mark " + name, () -> PgReads.mark(c(), name));
    }

    @Override
    public void putMark(String name, String value) {
        PgCalls.run("set mark " + name, () -> update("INSERT INTO marks (name, value) VALUES (?, ?)"
                + " ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value));
    }

    @Override
    public void addVersion(MemoryVersion v) {
        if (!exists(v.memoryId())) throw new NotFoundException("no memory with id " + v.memoryId() + " to version");
        PgCalls.run("version " + v.memoryId(), () -> {
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO versions (memory_id, version, content, tags,"
                    + " importance, replaced_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                bindVersion(ps, v.memoryId(), v);
                return ps.executeUpdate();
            }
        });
    }

    private void bindVersion(PreparedStatement ps, String memoryId, MemoryVersion v) throws SQLException {
        ps.setString(1, memoryId);
        ps.setInt(2, v.version());
        ps.setString(3, v.content());
        PgRows.ROWS.bindTags(ps, 4, v.tags());
        ps.setString(5, v.importance() == null ? null : v.importance().name());
        PgRows.ROWS.setInstant(ps, 6, v.replacedAt());
    }

    @Override
    public void putEmbedding(String id, StoredEmbedding embedding) {
        if (!exists(id)) throw new NotFoundException("no memory with id " + id + " to store a vector for");
        PgCalls.run("put embedding " + id, () -> {
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO embeddings (memory_id, model_id, dims, vector)"
                    + " VALUES (?, ?, ?, ?) ON CONFLICT (memory_id) DO UPDATE SET model_id = excluded.model_id,"
                    + " dims = excluded.dims, vector = excluded.vector")) {
                ps.setString(1, id);
                ps.setString(2, embedding.modelId());
                ps.setInt(3, embedding.dimensions());
                ps.setBytes(4, PgRows.encode(embedding.vector()));
                ps.executeUpdate();
            }
            appendChange(id); // the index keeps the vector in the memory's document, so it re-reads the memory
            return null;
        });
    }

    @Override
    public void clearEmbedding(String id) {
        PgCalls.run("clear embedding " + id, () -> {
            if (update("DELETE FROM embeddings WHERE memory_id = ?", id) > 0) appendChange(id);
            return null;
        });
    }

    @Override
    public int versionCount(String id) {
        return PgCalls.run("versions " + id, () -> (int) PgReads.count(c(), "SELECT count(*) FROM versions WHERE memory_id = ?", id));
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return PgCalls.run("versions " + id, () -> PgReads.versions(c(), id));
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return PgCalls.run("embedding " + id, () -> PgReads.embedding(c(), id));
    }

    @Override
    public void putTombstone(Tombstone t) {
        Memory m = t.memory();
        PgCalls.run("tombstone " + m.id(), () -> {
            // replaces a tombstone of the same id whole: its edges and versions go by ON DELETE CASCADE
            update("DELETE FROM tombstones WHERE id = ?", m.id());
            try (PreparedStatement ps = c().prepareStatement(INSERT_TOMBSTONE)) {
                ps.setString(1, m.id());
                int i = PgRows.ROWS.bindFields(ps, 2, m);
                PgRows.ROWS.setInstant(ps, i++, t.deletedAt());
                StoredEmbedding e = t.embedding();
                if (e == null) {
                    ps.setNull(i++, Types.VARCHAR);
                    ps.setNull(i++, Types.INTEGER);
                    ps.setNull(i, Types.BINARY);
                } else {
                    ps.setString(i++, e.modelId());
                    ps.setInt(i++, e.dimensions());
                    ps.setBytes(i, PgRows.encode(e.vector()));
                }
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO tombstone_edges (memory_id, from_id, to_id,"
                    + " type, label, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (Edge edge : t.edges()) {
                    ps.setString(1, m.id());
                    ps.setString(2, edge.fromId());
                    ps.setString(3, edge.toId());
                    ps.setString(4, edge.type().name());
                    ps.setString(5, PgRows.ROWS.label(edge.label()));
                    PgRows.ROWS.setInstant(ps, 6, edge.createdAt());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (PreparedStatement ps = c().prepareStatement("INSERT INTO tombstone_versions (memory_id, version, content,"
                    + " tags, importance, replaced_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (MemoryVersion v : t.versions()) {
                    bindVersion(ps, m.id(), v);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            return null;
        });
    }

    @Override
    public Optional<Tombstone> tombstone(String memoryId) {
        return PgCalls.run("tombstone " + memoryId, () -> PgReads.tombstone(c(), memoryId));
    }

    @Override
    public Optional<Tombstone> tombstoneByKey(String zone, String key) {
        return PgCalls.run("tombstone by key in " + zone, () -> PgReads.tombstoneByKey(c(), zone, key));
    }

    @Override
    public boolean removeTombstone(String memoryId) {
        return PgCalls.run("remove tombstone " + memoryId, () -> update("DELETE FROM tombstones WHERE id = ?", memoryId) > 0);
    }

    @Override
    public int purgeTombstones(Instant deletedBefore) {
        return PgCalls.run("purge tombstones", () -> update("DELETE FROM tombstones WHERE deleted_at < ?",
                deletedBefore.toEpochMilli()));
    }
}
