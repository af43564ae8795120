package dev.engram.engine;

import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.util.List;

/**
 * A memory, its neighbours (weight 0.5^hops, strongest first) and its earlier versions.
 * {@code outgoing} tells whether the edge that reached a neighbour points away from the path.
 */
public record ExploreResult(Memory center, List<Neighbour> neighbours, List<MemoryVersion> versions) {
    public record Neighbour(Memory memory, int hops, EdgeType via, boolean outgoing, String viaId, double weight) {
    }

    public ExploreResult {
        neighbours = List.copyOf(neighbours);
        versions = List.copyOf(versions);
    }
}
