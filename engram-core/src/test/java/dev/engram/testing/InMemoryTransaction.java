package dev.engram.testing;

import dev.engram.memory.ZoneInfo;
import java.util.Objects;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.Change;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Mutates a draft state that becomes visible only if the work returns normally. */
final class InMemoryTransaction implements StoreTransaction {
    private final InMemoryState s;
    private boolean open = true;

    InMemoryTransaction(InMemoryState s) {
        this.s = s;
    }

    /** Called when write() returns: a leaked transaction must fail instead of writing to a stale draft. */
    void end() {
        open = false;
    }

    private InMemoryState s() {
        if (!open) throw new IllegalStateException("transaction used after its write() returned");
        return s;
    }

    private void changed(String id) {
        s().seq++;
        s.changes.add(new Change(s.seq, id));
    }

    @Override
    public Optional<Memory> get(String id) {
        return Optional.ofNullable(s().memories.get(id));
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return s().byKey(zone, key);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return s().byName(zone, name);
    }

    @Override
    public void insert(Memory memory) {
        if (s().memories.containsKey(memory.id())) {
            throw new ConflictException("memory id " + memory.id() + " is already taken");
        }
        keyFree(memory);
        s.memories.put(memory.id(), memory);
        changed(memory.id());
    }

    private void keyFree(Memory memory) {
        Optional<Memory> holder = s().byKey(memory.zone(), memory.key());
        if (holder.isPresent() && !holder.get().id().equals(memory.id())) {
            throw new ConflictException("key '" + memory.key() + "' in zone '" + memory.zone()
                    + "' already belongs to " + holder.get().id());
        }
        if (memory.name() == null) return;
        Optional<Memory> named = s.byName(memory.zone(), memory.name());
        if (named.isPresent() && !named.get().id().equals(memory.id())) {
            throw new ConflictException("name '" + memory.name() + "' in zone '" + memory.zone()
                    + "' already belongs to " + named.get().id());
        }
    }

    @Override
    public void update(Memory memory) {
        if (!s().memories.containsKey(memory.id())) {
            throw new NotFoundException("no memory with id " + memory.id() + " to update");
        }
        keyFree(memory);
        s.memories.put(memory.id(), memory);
        changed(memory.id());
    }

    @Override
    public boolean delete(String id) {
        if (s().memories.remove(id) == null) return false;
        s.edges.removeIf(e -> e.fromId().equals(id) || e.toId().equals(id));
        s.versions.removeIf(v -> v.memoryId().equals(id));
        s.embeddings.remove(id);
        changed(id);
        return true;
    }

    @Override
    public void addEdge(Edge edge) {
        for (String end : List.of(edge.fromId(), edge.toId())) {
            if (!s().memories.containsKey(end)) throw new NotFoundException("no memory with id " + end + " to link");
        }
        boolean exists = s.edges.stream().anyMatch(e -> e.fromId().equals(edge.fromId())
                && e.toId().equals(edge.toId()) && e.type() == edge.type() && Objects.equals(e.label(), edge.label()));
        if (!exists) s.edges.add(edge);
    }

    @Override
    public boolean removeEdge(String fromId, String toId, EdgeType type, String label) {
        return s().edges.removeIf(e -> e.fromId().equals(fromId) && e.toId().equals(toId) && e.type() == type
                && Objects.equals(e.label(), label));
    }

    @Override
    public void putZone(ZoneInfo zone) {
        s().zoneInfos.put(zone.name(), zone);
    }

    @Override
    public boolean removeZone(String name) {
        return s().zoneInfos.remove(name) != null;
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return Optional.ofNullable(s().zoneInfos.get(name));
    }

    @Override
    public Optional<String> mark(String name) {
        return Optional.ofNullable(s().marks.get(name));
    }

    @Override
    public void putMark(String name, String value) {
        s().marks.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    }

    @Override
    public List<Edge> edges(String id) {
        return s().edgesOf(id);
    }

    @Override
    public void addVersion(MemoryVersion version) {
        if (!s().memories.containsKey(version.memoryId())) {
            throw new NotFoundException("no memory with id " + version.memoryId() + " to version");
        }
        s.versions.add(version);
    }

    @Override
    public void putEmbedding(String id, StoredEmbedding embedding) {
        if (!s().memories.containsKey(id)) throw new NotFoundException("no memory with id " + id + " to store a vector for");
        s.embeddings.put(id, embedding);
        changed(id);
    }

    @Override
    public void clearEmbedding(String id) {
        if (s().embeddings.remove(id) != null) changed(id);
    }

    @Override
    public int versionCount(String id) {
        return (int) s().versions.stream().filter(v -> v.memoryId().equals(id)).count();
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return s().versions.stream().filter(v -> v.memoryId().equals(id))
                .sorted(Comparator.comparingInt(MemoryVersion::version)).toList();
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return Optional.ofNullable(s().embeddings.get(id));
    }

    @Override
    public void putTombstone(Tombstone tombstone) {
        s().tombstones.remove(tombstone.memory().id()); // a replaced tombstone moves to the end, as a new row would
        s.tombstones.put(tombstone.memory().id(), tombstone);
    }

    @Override
    public Optional<Tombstone> tombstone(String memoryId) {
        return Optional.ofNullable(s().tombstones.get(memoryId));
    }

    @Override
    public Optional<Tombstone> tombstoneByKey(String zone, String key) {
        Tombstone latest = null;
        for (Tombstone t : s().tombstones.values()) { // insertion order: on a tie the later one wins, as in SQL by rowid
            if (t.memory().zone().equals(zone) && t.memory().key().equals(key)
                    && (latest == null || !t.deletedAt().isBefore(latest.deletedAt()))) latest = t;
        }
        return Optional.ofNullable(latest);
    }

    @Override
    public boolean removeTombstone(String memoryId) {
        return s().tombstones.remove(memoryId) != null;
    }

    @Override
    public int purgeTombstones(Instant deletedBefore) {
        int before = s().tombstones.size();
        s.tombstones.values().removeIf(t -> t.deletedAt().isBefore(deletedBefore));
        return before - s.tombstones.size();
    }
}
