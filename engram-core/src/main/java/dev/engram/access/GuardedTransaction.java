package dev.engram.access;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** {@link GuardedStore}'s transaction: the same read rules, and a right checked before every change. */
final class GuardedTransaction implements StoreTransaction {
    private final StoreTransaction tx;
    private final Grants g;

    GuardedTransaction(StoreTransaction tx, Grants g) {
        this.tx = tx;
        this.g = g;
    }

    private Optional<Memory> readable(Optional<Memory> m) {
        return m.filter(x -> g.can(Right.READ, x.zone()));
    }

    /** The zone of a memory, if it exists (live or tombstoned) and the caller may read it. */
    private Optional<String> zoneOf(String id) {
        Optional<String> zone = tx.get(id).map(Memory::zone);
        if (zone.isEmpty()) zone = tx.tombstone(id).map(t -> t.memory().zone());
        return zone.filter(z -> g.can(Right.READ, z));
    }

    /** Write right on the memory's zone; a memory the caller cannot read counts as absent (nothing to change). */
    private boolean writable(String id) {
        Optional<String> zone = zoneOf(id);
        zone.ifPresent(z -> g.require(Right.WRITE, z));
        return zone.isPresent();
    }

    @Override
    public Optional<Memory> get(String id) {
        return readable(tx.get(id));
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        g.require(Right.READ, zone);
        return tx.getByKey(zone, key);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        g.require(Right.READ, zone);
        return tx.getByName(zone, name);
    }

    @Override
    public void insert(Memory memory) {
        g.require(Right.WRITE, memory.zone());
        tx.insert(memory);
    }

    @Override
    public void update(Memory memory) {
        g.require(Right.WRITE, memory.zone());
        tx.get(memory.id()).ifPresent(old -> g.require(Right.WRITE, old.zone())); // a move needs both zones
        tx.update(memory);
    }

    @Override
    public boolean delete(String id) {
        Optional<Memory> old = tx.get(id);
        if (old.isEmpty() || !g.can(Right.READ, old.get().zone())) return false;
        g.require(Right.WRITE, old.get().zone());
        return tx.delete(id);
    }

    @Override
    public void addEdge(Edge edge) {
        String from = zoneOf(edge.fromId()).orElseThrow(() -> new dev.engram.error.NotFoundException(
                "no memory with id '" + edge.fromId() + "'"));
        g.require(Right.WRITE, from);
        if (zoneOf(edge.toId()).isEmpty()) {
            throw new dev.engram.error.NotFoundException("no memory with id '" + edge.toId() + "'");
        }
        tx.addEdge(edge);
    }

    @Override
    public boolean removeEdge(String fromId, String toId, EdgeType type, String label) {
        if (!writable(fromId) || zoneOf(toId).isEmpty()) return false;
        return tx.removeEdge(fromId, toId, type, label);
    }

    @Override
    public List<Edge> edges(String id) {
        if (zoneOf(id).isEmpty()) return List.of();
        return GuardedStore.readableEdges(g, tx.edges(id), ids -> ids.stream().map(tx::get)
                .flatMap(Optional::stream).toList());
    }

    @Override
    public void putZone(ZoneInfo zone) {
        g.require(Right.ADMIN, zone.name());
        tx.putZone(zone);
    }

    @Override
    public boolean removeZone(String name) {
        g.require(Right.ADMIN, name);
        return tx.removeZone(name);
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        g.require(Right.READ, name);
        return tx.zoneInfo(name);
    }

    @Override
    public Optional<String> mark(String name) {
        return GuardedStore.hidden(name) ? Optional.empty() : tx.mark(name);
    }

    @Override
    public void putMark(String name, String value) {
        if (GuardedStore.hidden(name)) throw new AccessDeniedException(Right.ADMIN);
        tx.putMark(name, value);
    }

    @Override
    public void addVersion(MemoryVersion version) {
        if (!writable(version.memoryId())) {
            throw new dev.engram.error.NotFoundException("no memory with id '" + version.memoryId() + "'");
        }
        tx.addVersion(version);
    }

    @Override
    public void putEmbedding(String id, StoredEmbedding embedding) {
        if (writable(id)) tx.putEmbedding(id, embedding);
    }

    @Override
    public void clearEmbedding(String id) {
        if (writable(id)) tx.clearEmbedding(id);
    }

    @Override
    public int versionCount(String id) {
        return zoneOf(id).isPresent() ? tx.versionCount(id) : 0;
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return zoneOf(id).isPresent() ? tx.versions(id) : List.of();
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return zoneOf(id).isPresent() ? tx.embedding(id) : Optional.empty();
    }

    @Override
    public void putTombstone(Tombstone tombstone) {
        g.require(Right.WRITE, tombstone.memory().zone());
        tx.putTombstone(tombstone);
    }

    @Override
    public Optional<Tombstone> tombstone(String memoryId) {
        return tx.tombstone(memoryId).filter(t -> g.can(Right.READ, t.memory().zone()));
    }

    @Override
    public Optional<Tombstone> tombstoneByKey(String zone, String key) {
        g.require(Right.READ, zone);
        return tx.tombstoneByKey(zone, key);
    }

    @Override
    public boolean removeTombstone(String memoryId) {
        Optional<Tombstone> t = tombstone(memoryId);
        if (t.isEmpty()) return false;
        g.require(Right.WRITE, t.get().memory().zone());
        return tx.removeTombstone(memoryId);
    }

    @Override
    public int purgeTombstones(Instant deletedBefore) {
        // housekeeping of the restore window's end, run by any hard forget: it erases only what no one
        // can restore any more and reports nothing about it to the caller
        return tx.purgeTombstones(deletedBefore);
    }
}
