package dev.engram.spi;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Reads and writes inside one {@link MemoryStore#write} call; valid only during that call. */
public interface StoreTransaction {

    Optional<Memory> get(String id);

    Optional<Memory> getByKey(String zone, String key);

    /** As {@link MemoryStore#getByName}, seeing this transaction's own writes. */
    Optional<Memory> getByName(String zone, String name);

    /**
     * Inserts a new memory; its id, (zone, key) and, when it has one, (zone, name) must be unused, else
     * {@link dev.engram.error.ConflictException}.
     */
    void insert(Memory memory);

    /**
     * Replaces the stored memory with the same id ({@link dev.engram.error.NotFoundException} if none);
     * a changed key or name must be unused in its zone ({@link dev.engram.error.ConflictException}).
     */
    void update(Memory memory);

    /** Deletes the memory, its edges and its versions; returns whether it existed. */
    boolean delete(String id);

    /**
     * Adds an edge; adding an edge that exists (same ends, type and label) changes nothing. Both ends must
     * exist ({@link dev.engram.error.NotFoundException}).
     */
    void addEdge(Edge edge);

    /** Removes the edge with these ends, type and label ({@code null} for an unlabelled edge). */
    boolean removeEdge(String fromId, String toId, EdgeType type, String label);

    /** Edges touching this memory, in either direction, oldest first; edges of one instant in the order they were added. */
    List<Edge> edges(String id);

    /** Records (or replaces) a zone's descriptions and dates. */
    void putZone(ZoneInfo zone);

    /** Forgets a zone's descriptions; its memories are untouched. Returns whether there were any. */
    boolean removeZone(String name);

    Optional<ZoneInfo> zoneInfo(String name);

    /** As {@link MemoryStore#mark}, seeing this transaction's writes. */
    Optional<String> mark(String name);

    /** Sets (or replaces) a mark. */
    void putMark(String name, String value);

    /** Records a past version of an existing memory ({@link dev.engram.error.NotFoundException} if none). */
    void addVersion(MemoryVersion version);

    /**
     * Stores (replaces) the memory's vector and appends a change, so the index picks it up. An unknown
     * memory is a {@link dev.engram.error.NotFoundException}. Deleting a memory deletes its vector.
     */
    void putEmbedding(String id, StoredEmbedding embedding);

    /** Drops the memory's vector (its content changed); appends a change when there was one. */
    void clearEmbedding(String id);

    /** Number of versions recorded so far for this memory. */
    int versionCount(String id);

    /** Past versions of a memory, oldest first, this transaction's own additions included. */
    List<MemoryVersion> versions(String id);

    /** The memory's vector as this transaction sees it. */
    Optional<StoredEmbedding> embedding(String id);

    /**
     * Keeps a deleted memory's record until {@link #removeTombstone} or {@link #purgeTombstones};
     * replaces a tombstone of the same memory id. The store neither checks nor follows the edges' ends.
     * Tombstones are not part of the change feed: nothing searchable changes.
     */
    void putTombstone(Tombstone tombstone);

    /** The tombstone of this memory id, exactly as put. */
    Optional<Tombstone> tombstone(String memoryId);

    /** Of the tombstones with this key in this zone, the most recently deleted. */
    Optional<Tombstone> tombstoneByKey(String zone, String key);

    /** Returns whether there was one. */
    boolean removeTombstone(String memoryId);

    /** Removes every tombstone deleted strictly before {@code deletedBefore}; returns how many. */
    int purgeTombstones(Instant deletedBefore);
}
