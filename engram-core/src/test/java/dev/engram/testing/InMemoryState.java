package dev.engram.testing;

import dev.engram.memory.ZoneInfo;
import java.util.TreeMap;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.Change;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Everything a store directory would hold, for {@link InMemoryMemoryStore}; copied for each write. */
final class InMemoryState {
    final LinkedHashMap<String, Memory> memories = new LinkedHashMap<>();
    final List<Edge> edges = new ArrayList<>();
    final List<MemoryVersion> versions = new ArrayList<>();
    final List<Change> changes = new ArrayList<>();
    // StoredEmbedding copies its array in and out, so sharing instances between states is safe
    final Map<String, StoredEmbedding> embeddings = new HashMap<>();
    final Map<String, Tombstone> tombstones = new LinkedHashMap<>(); // immutable values, shared safely
    final Map<String, ZoneInfo> zoneInfos = new TreeMap<>();
    final Map<String, String> marks = new HashMap<>();
    long seq;

    InMemoryState copy() {
        InMemoryState s = new InMemoryState();
        s.memories.putAll(memories);
        s.edges.addAll(edges);
        s.versions.addAll(versions);
        s.changes.addAll(changes);
        s.embeddings.putAll(embeddings);
        s.tombstones.putAll(tombstones);
        s.zoneInfos.putAll(zoneInfos);
        s.marks.putAll(marks);
        s.seq = seq;
        return s;
    }

    Optional<Memory> byKey(String zone, String key) {
        return memories.values().stream().filter(m -> m.zone().equals(zone) && m.key().equals(key)).findFirst();
    }

    Optional<Memory> byName(String zone, String name) {
        return memories.values().stream().filter(m -> m.zone().equals(zone) && name.equals(m.name())).findFirst();
    }

    /** Oldest first, ties in insertion order (a stable sort), as the SQL store returns them by rowid. */
    List<Edge> edgesOf(String id) {
        return edges.stream().filter(e -> e.fromId().equals(id) || e.toId().equals(id))
                .sorted(Comparator.comparing(Edge::createdAt)).toList();
    }
}
