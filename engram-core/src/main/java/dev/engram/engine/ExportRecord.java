package dev.engram.engine;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.util.List;

/** One memory with its outgoing edges and past versions: the unit of export and import. */
public record ExportRecord(Memory memory, List<Edge> edges, List<MemoryVersion> versions) {
    public ExportRecord {
        edges = List.copyOf(edges);
        versions = List.copyOf(versions);
    }
}
