package dev.engram.spi;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A hard-deleted memory as it was when deleted: the memory, every edge that touched it (either
 * direction; the other end may be gone by now), its past versions and its vector ({@code null} when
 * it had none). Stores keep it only so that a recent deletion can be undone; it is not searchable.
 */
public record Tombstone(Memory memory, List<Edge> edges, List<MemoryVersion> versions, StoredEmbedding embedding,
                        Instant deletedAt) {
    public Tombstone {
        Objects.requireNonNull(memory, "memory");
        edges = List.copyOf(edges);
        versions = List.copyOf(versions);
        Objects.requireNonNull(deletedAt, "deletedAt");
    }
}
