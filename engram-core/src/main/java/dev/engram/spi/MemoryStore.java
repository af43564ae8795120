package dev.engram.spi;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The durable record of memories, edges and past versions. Every implementation passes
 * {@code MemoryStoreContract} unchanged.
 * <ul>
 *   <li>{@link #write} runs its work atomically and serialized with every other writer, in this and
 *       in other processes sharing the store; once it returns, the change survives {@code kill -9}.
 *       A writer never sees a lock error: implementations wait and retry.
 *   <li>Every insert, update and delete appends one entry to the change feed; {@link #changesSince}
 *       returns them ordered by sequence number. Sequence numbers only grow.
 *   <li>Reads of unknown ids or keys return empty and never throw.
 *   <li>Reads see every write committed before they start, from any process.
 * </ul>
 * Failures of the storage itself are {@link dev.engram.error.StoreException}s naming the operation.
 */
public interface MemoryStore extends AutoCloseable {

    <T> T write(Function<StoreTransaction, T> work);

    Optional<Memory> get(String id);

    Optional<Memory> getByKey(String zone, String key);

    /**
     * The memory a caller names by {@code ref}: an id (any zone) or a key of {@code zone}, by {@link #resolve}'s rule.
     * Stores should override this default, which asks {@link #get} and {@link #getByKey} in turn: a recall tries
     * every one-word query as a reference, and both lookups usually miss (docs/benchmarks.md, "Where a stdio
     * recall's 1.6-1.8 ms go under C1").
     */
    default Optional<Memory> find(String zone, String ref) {
        return resolve(ref, this::get, key -> getByKey(zone, key));
    }

    /**
     * The one rule for what a reference names, for memories and tombstones alike: an id-shaped reference is tried as
     * an id first. Any other reference is a key, and failing that the id a memory kept from an import (toon-memory's
     * 8-hex ids stay the memories' ids, so an agent's old notes still name them).
     */
    static <T> Optional<T> resolve(String ref, Function<String, Optional<T>> byId, Function<String, Optional<T>> byKey) {
        if (MemoryRules.isId(ref)) {
            Optional<T> found = byId.apply(ref);
            return found.isPresent() ? found : byKey.apply(ref);
        }
        Optional<T> byName = byKey.apply(ref);
        return byName.isPresent() ? byName : byId.apply(ref);
    }

    /** The memory of this zone whose display name is exactly {@code name} (case and spacing included). */
    Optional<Memory> getByName(String zone, String name);

    /** The memories with these ids, in the given order; unknown ids are skipped. */
    List<Memory> getAll(List<String> ids);

    /** Edges touching this memory, in either direction, oldest first; edges of one instant in the order they were added. */
    List<Edge> edges(String id);

    /**
     * {@link #edges} of each of these memories, read at once; memories without edges (unknown ids too) are absent. A
     * recall's graph expansion asks for the edges of all its seeds at each hop: one by one, that was a statement per
     * seed on a server store (up to twenty round trips a recall on PostgreSQL where the memories are linked). Stores
     * should override this default, which asks {@link #edges} for each.
     */
    default Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        Map<String, List<Edge>> out = new java.util.HashMap<>();
        for (String id : new java.util.LinkedHashSet<>(ids)) {
            List<Edge> edges = edges(id);
            if (!edges.isEmpty()) out.put(id, edges);
        }
        return out;
    }

    /**
     * For each of these memories that has any edge, how many distinct memories it is linked to (edges
     * of any type, in either direction); memories without edges are absent. One query for a recall's
     * candidates: their link centrality is a ranking signal.
     */
    Map<String, Integer> degrees(Collection<String> ids);

    /** The memory's vector, if one has been stored (see {@link StoreTransaction#putEmbedding}). */
    Optional<StoredEmbedding> embedding(String id);

    /**
     * Up to {@code max} ids of memories that have no vector from {@code modelId} (none at all, or one
     * from another model), oldest first: the work list for background embedding and reindex.
     */
    List<String> missingEmbeddings(String modelId, int max);

    /** Past versions of a memory, oldest first. */
    List<MemoryVersion> versions(String id);

    /** Pinned memories of a zone (any status), highest priority first. */
    List<Memory> pinned(String zone);

    /** Every memory of a zone (all zones when {@code zone} is null), oldest first. */
    void forEach(String zone, Consumer<Memory> action);

    /** Every zone that holds at least one memory, sorted. */
    Set<String> zones();

    long count();

    /** The descriptions and dates recorded for this zone, if someone created or described it. */
    Optional<ZoneInfo> zoneInfo(String name);

    /** Every recorded zone description, sorted by name. */
    List<ZoneInfo> zoneInfos();

    /**
     * A store-wide mark set once by a one-time job (an import at first start), so the job is not
     * repeated when what it wrote has since been deleted. Not part of the change feed.
     */
    Optional<String> mark(String name);

    /** Edges whose source memory is in {@code zone} (every edge when {@code zone} is null). */
    long edgeCount(String zone);

    /**
     * The edges whose source memory is in {@code zone} (every zone when null), by source id, each list as
     * {@link #edges} orders it; memories that are the source of no edge are absent. The same as asking
     * {@link #edges} for every memory of the zone and keeping those it is the source of, in one read:
     * a whole-zone export (toon's data.toon, rewritten after each write) would otherwise pay one lookup per
     * memory. Stores should override this default, which does exactly those lookups.
     */
    default Map<String, List<Edge>> outgoingEdges(String zone) {
        Map<String, List<Edge>> out = new java.util.LinkedHashMap<>();
        forEach(zone, m -> {
            List<Edge> from = edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).toList();
            if (!from.isEmpty()) out.put(m.id(), from);
        });
        return out;
    }

    /** Highest sequence number in the change feed; 0 for an empty store. */
    long headSeq();

    /** Up to {@code max} changes with a sequence number above {@code afterSeq}, ascending. */
    List<Change> changesSince(long afterSeq, int max);

    /**
     * Counts one recall of each memory and sets its last access time. Best effort: it is not part of
     * the change feed (no search field depends on it) and a lost bump costs nothing durable.
     * <p>A store may buffer bumps instead of writing each one (the embedded store writes them at
     * most about a second later, in one transaction, to keep an fsync out of every recall). Reads of
     * the same store instance must include buffered bumps, and {@link #close()} must write them, so
     * nothing is lost on a clean close; a crash or kill may lose the last second or so of bumps, and
     * other processes on the same store may see them that much later. Unknown ids are ignored.
     */
    void recordAccess(Collection<String> ids, Instant at);

    /**
     * Runs {@code reads} (calls of this store on this thread) as one read: a store that must check whether what it
     * keeps in memory is still current may check once for all of them (the PostgreSQL store, whose check is a round
     * trip). Every write acknowledged before this call is seen by the reads; one acknowledged while it runs may be seen
     * by some of them and not by others, as without it; a write made by {@code reads} itself is seen by the reads
     * after it. Nested calls join the outermost. This default just runs them.
     */
    default <T> T readTogether(java.util.function.Supplier<T> reads) {
        return reads.get();
    }

    /** Encryption at rest, for the stores that offer it (the embedded one); empty for the others. */
    default java.util.Optional<StoreEncryption> encryption() {
        return Optional.empty();
    }

    @Override
    void close();
}
