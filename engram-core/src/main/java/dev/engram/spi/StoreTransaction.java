package dev.engram.spi;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.util.List;
import java.util.Optional;

/** Reads and writes inside one {@link MemoryStore#write} call; valid only during that call. */
public interface StoreTransaction {

    Optional<Memory> get(String id);

    Optional<Memory> getByKey(String zone, String key);

    /** Inserts a new memory; its id and (zone, key) must both be unused, else {@link dev.engram.error.ConflictException}. */
    void insert(Memory memory);

    /**
     * Replaces the stored memory with the same id ({@link dev.engram.error.NotFoundException} if none);
     * a changed key must be unused in its zone ({@link dev.engram.error.ConflictException}).
     */
    void update(Memory memory);

    /** Deletes the memory, its edges and its versions; returns whether it existed. */
    boolean delete(String id);

    /**
     * Adds an edge; adding an edge that exists (same ends and type) changes nothing. Both ends must
     * exist ({@link dev.engram.error.NotFoundException}).
     */
    void addEdge(Edge edge);

    boolean removeEdge(String fromId, String toId, EdgeType type);

    List<Edge> edges(String id);

    /** Records a past version of an existing memory ({@link dev.engram.error.NotFoundException} if none). */
    void addVersion(MemoryVersion version);

    /** Number of versions recorded so far for this memory. */
    int versionCount(String id);
}
