package dev.engram.store.sqlite;

import static dev.engram.store.sqlite.SqliteStatements.APPEND_CHANGE;
import static dev.engram.store.sqlite.SqliteStatements.DELETE_EDGE;
import static dev.engram.store.sqlite.SqliteStatements.DELETE_MEMORY;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_EDGE;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_MEMORY;
import static dev.engram.store.sqlite.SqliteStatements.INSERT_VERSION;
import static dev.engram.store.sqlite.SqliteStatements.MEMORY_BY_ID;
import static dev.engram.store.sqlite.SqliteStatements.DELETE_ZONE;
import static dev.engram.store.sqlite.SqliteStatements.MEMORY_BY_KEY;
import static dev.engram.store.sqlite.SqliteStatements.MEMORY_BY_NAME;
import static dev.engram.store.sqlite.SqliteStatements.PUT_ZONE;
import static dev.engram.store.sqlite.SqliteStatements.ZONE_INFO;
import static dev.engram.store.sqlite.SqliteStatements.MEMORY_EXISTS;
import static dev.engram.store.sqlite.SqliteStatements.RECORD_ACCESS;
import static dev.engram.store.sqlite.SqliteStatements.UPDATE_MEMORY;
import static dev.engram.store.sqlite.SqliteStatements.VERSIONS_OF;
import static dev.engram.store.sqlite.SqliteStatements.VERSION_COUNT;
import static dev.engram.store.sqlite.SqliteStatements.EMBEDDING_OF;

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
import java.time.Instant;
import java.util.ArrayList;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The writer connection inside one {@code BEGIN IMMEDIATE}; not thread-safe, valid only during
 * {@link SqliteMemoryStore#write}. SQL failures become {@link dev.engram.error.StoreException}s
 * naming the operation and id.
 */
final class SqliteTransaction implements StoreTransaction {
    private final Connection c;
    // cleared when write() returns so a leaked transaction fails loudly instead of writing outside it
    private boolean open = true;
    /** This process's buffered access counts, settled row by row as the work touches rows; null: none to settle. */
    private PendingAccess access;
    private final Map<String, PendingAccess.Bump> settled = new java.util.HashMap<>();
    private long[] epoch;

    SqliteTransaction(Connection c) {
        this.c = c;
    }

    /**
     * Before this transaction reads or rewrites a memory's row, that memory's pending access bump is written into it
     * (and taken from {@code access}): a row read here then carries its counts, and a row rewritten from an earlier
     * read through the store (which showed the bump on top) is not bumped twice. Only the rows the work touches: the
     * flusher writes the rest. Draining every pending bump into each write made a remember under a stream of recalls
     * rewrite dozens of rows under the write lock and evict them from the record cache (issue 18's load).
     */
    void settleAccessFrom(PendingAccess access) {
        this.access = access;
    }

    /** The bumps written by {@link #settle}, to put back if the transaction rolls back or to evict once it commits. */
    Map<String, PendingAccess.Bump> settled() {
        return settled;
    }

    /** The access epoch as {before, after} when {@link #settle} wrote counts, else null. */
    long[] settledEpoch() {
        return epoch;
    }

    private void settle(String id) {
        if (access == null) return;
        PendingAccess.Bump bump = access.take(id);
        if (bump == null) return;
        settled.merge(id, bump, PendingAccess.Bump::then);
        long[] moved = recordAccess(Map.of(id, bump));
        epoch = epoch == null ? moved : new long[] {epoch[0], moved[1]};
    }

    void end() {
        open = false;
    }

    /** For a rewrite of whole tables inside this transaction ({@link SqliteResealing}). */
    Connection connection() {
        return c();
    }

    private Connection c() {
        if (!open) throw new IllegalStateException("transaction used after its write() returned");
        return c;
    }

    @Override
    public Optional<Memory> get(String id) {
        settle(id);
        return SqlCalls.run("get " + id, () -> SqlCalls.memories(c(), MEMORY_BY_ID, id).stream().findFirst());
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return settled(SqlCalls.run("get by key in " + zone,
                () -> SqlCalls.memories(c(), MEMORY_BY_KEY, zone, key).stream().findFirst()));
    }

    /** A row found by key or name, read again by id once its pending bump is settled (when it had one). */
    private Optional<Memory> settled(Optional<Memory> found) {
        if (found.isEmpty() || access == null || access.overlay(found.get()) == found.get()) return found;
        return get(found.get().id());
    }

    @Override
    public void insert(Memory memory) {
        if (exists(memory.id())) throw new ConflictException("memory id " + memory.id() + " is already taken");
        keyFree(memory);
        SqlCalls.run("put " + memory.id(), () -> {
            try (PreparedStatement ps = c().prepareStatement(INSERT_MEMORY)) {
                ps.setString(1, memory.id());
                MemoryRows.ROWS.bindFields(ps, 2, memory);
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
        SqlCalls.run("update " + memory.id(), () -> {
            try (PreparedStatement ps = c().prepareStatement(UPDATE_MEMORY)) {
                int next = MemoryRows.ROWS.bindFields(ps, 1, memory);
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
    public Optional<Memory> getByName(String zone, String name) {
        return settled(SqlCalls.run("get by name in " + zone,
                () -> SqlCalls.memories(c(), MEMORY_BY_NAME, zone, name).stream().findFirst()));
    }

    @Override
    public void putZone(ZoneInfo zone) {
        SqlCalls.run("describe zone " + zone.name(), () -> {
            try (PreparedStatement ps = c().prepareStatement(PUT_ZONE)) {
                ps.setString(1, zone.name());
                ps.setString(2, zone.shortDescription());
                ps.setString(3, zone.description());
                MemoryRows.ROWS.setInstant(ps, 4, zone.createdAt());
                MemoryRows.ROWS.setInstant(ps, 5, zone.updatedAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public boolean removeZone(String name) {
        return SqlCalls.run("forget zone " + name, () -> SqlCalls.update(c(), DELETE_ZONE, name) > 0);
    }

    @Override
    public Optional<String> mark(String name) {
        return SqlCalls.run("mark " + name, () -> SqlCalls.text(c(), SqliteStatements.MARK, name));
    }

    @Override
    public void putMark(String name, String value) {
        SqlCalls.run("set mark " + name, () -> SqlCalls.update(c(), SqliteStatements.PUT_MARK, name, value));
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return SqlCalls.run("zone " + name, () -> SqlCalls.zoneInfos(c(), ZONE_INFO, name).stream().findFirst());
    }

    @Override
    public boolean delete(String id) {
        settle(id); // a bump left pending would be written into no row; taken, a rollback puts it back
        // edges and versions go by ON DELETE CASCADE (foreign_keys=ON on every connection)
        return SqlCalls.run("delete " + id, () -> {
            int deleted = SqlCalls.update(c(), DELETE_MEMORY, id);
            if (deleted > 0) appendChange(id);
            return deleted > 0;
        });
    }

    private void appendChange(String id) throws SQLException {
        SqlCalls.update(c(), APPEND_CHANGE, id);
    }

    private boolean exists(String id) {
        return SqlCalls.run("get " + id, () -> {
            try (PreparedStatement ps = c().prepareStatement(MEMORY_EXISTS)) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    @Override
    public void addEdge(Edge edge) {
        for (String end : List.of(edge.fromId(), edge.toId())) {
            if (!exists(end)) throw new NotFoundException("no memory with id " + end + " to link");
        }
        SqlCalls.run("link " + edge.fromId() + " -> " + edge.toId(), () -> {
            try (PreparedStatement ps = c().prepareStatement(INSERT_EDGE)) {
                ps.setString(1, edge.fromId());
                ps.setString(2, edge.toId());
                ps.setString(3, edge.type().name());
                ps.setString(4, MemoryRows.ROWS.label(edge.label()));
                MemoryRows.ROWS.setInstant(ps, 5, edge.createdAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public boolean removeEdge(String fromId, String toId, EdgeType type, String label) {
        return SqlCalls.run("unlink " + fromId + " -> " + toId,
                () -> SqlCalls.update(c(), DELETE_EDGE, fromId, toId, type.name(), MemoryRows.ROWS.label(label)) > 0);
    }

    @Override
    public List<Edge> edges(String id) {
        return SqlCalls.run("edges " + id, () -> SqlCalls.edges(c(), id));
    }

    @Override
    public void addVersion(MemoryVersion v) {
        if (!exists(v.memoryId())) throw new NotFoundException("no memory with id " + v.memoryId() + " to version");
        SqlCalls.run("version " + v.memoryId(), () -> {
            try (PreparedStatement ps = c().prepareStatement(INSERT_VERSION)) {
                ps.setString(1, v.memoryId());
                ps.setInt(2, v.version());
                ps.setString(3, v.content());
                MemoryRows.ROWS.bindTags(ps, 4, v.tags());
                ps.setString(5, v.importance() == null ? null : v.importance().name());
                MemoryRows.ROWS.setInstant(ps, 6, v.replacedAt());
                return ps.executeUpdate();
            }
        });
    }

    @Override
    public void putEmbedding(String id, StoredEmbedding embedding) {
        if (!exists(id)) throw new NotFoundException("no memory with id " + id + " to store a vector for");
        SqlCalls.run("put embedding " + id, () -> {
            SqliteEmbeddings.put(c(), id, embedding);
            appendChange(id); // the index holds the vector in the memory's document, so it re-reads the memory
            return null;
        });
    }

    @Override
    public void clearEmbedding(String id) {
        SqlCalls.run("clear embedding " + id, () -> {
            if (SqliteEmbeddings.clear(c(), id)) appendChange(id);
            return null;
        });
    }

    /**
     * Not in the change feed: no search field depends on access counts (MemoryStore#recordAccess). Moves the access
     * epoch instead; returns it as {before, after}, or null when there was nothing to write.
     */
    long[] recordAccess(Map<String, PendingAccess.Bump> bumps) {
        if (bumps.isEmpty()) return null;
        SqlCalls.run("record access", () -> {
            try (PreparedStatement ps = c().prepareStatement(RECORD_ACCESS)) {
                for (Map.Entry<String, PendingAccess.Bump> e : bumps.entrySet()) {
                    ps.setLong(1, e.getValue().count());
                    MemoryRows.ROWS.setInstant(ps, 2, e.getValue().last());
                    ps.setString(3, e.getKey());
                    ps.addBatch();
                }
                return ps.executeBatch().length;
            }
        });
        return SqlCalls.run("access epoch", () -> {
            long before = SqlCalls.count(c(), SqliteStatements.ACCESS_EPOCH);
            SqlCalls.update(c(), SqliteStatements.NEXT_ACCESS_EPOCH);
            return new long[] {before, SqlCalls.count(c(), SqliteStatements.ACCESS_EPOCH)};
        });
    }

    @Override
    public int versionCount(String id) {
        return SqlCalls.run("versions " + id, () -> (int) SqlCalls.count(c(), VERSION_COUNT, id));
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return SqlCalls.run("versions " + id, () -> {
            try (PreparedStatement ps = SqlCalls.prepare(c(), VERSIONS_OF, id); ResultSet rs = ps.executeQuery()) {
                List<MemoryVersion> out = new ArrayList<>();
                while (rs.next()) out.add(MemoryRows.ROWS.version(rs));
                return out;
            }
        });
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return SqlCalls.run("embedding " + id, () -> {
            try (PreparedStatement ps = SqlCalls.prepare(c(), EMBEDDING_OF, id)) {
                return SqliteEmbeddings.get(ps, id);
            }
        });
    }

    @Override
    public void putTombstone(Tombstone tombstone) {
        SqlCalls.run("tombstone " + tombstone.memory().id(), () -> {
            SqliteTombstones.put(c(), tombstone);
            return null;
        });
    }

    @Override
    public Optional<Tombstone> tombstone(String memoryId) {
        return SqlCalls.run("tombstone " + memoryId, () -> SqliteTombstones.get(c(), memoryId));
    }

    @Override
    public Optional<Tombstone> tombstoneByKey(String zone, String key) {
        return SqlCalls.run("tombstone by key in " + zone, () -> SqliteTombstones.getByKey(c(), zone, key));
    }

    @Override
    public boolean removeTombstone(String memoryId) {
        return SqlCalls.run("remove tombstone " + memoryId, () -> SqliteTombstones.remove(c(), memoryId));
    }

    @Override
    public int purgeTombstones(Instant deletedBefore) {
        return SqlCalls.run("purge tombstones", () -> SqliteTombstones.purge(c(), deletedBefore));
    }
}
