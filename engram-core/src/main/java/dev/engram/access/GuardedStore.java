package dev.engram.access;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * A {@link MemoryStore} seen through the rights of the current caller: the one place tenancy is
 * enforced. The engine of a server with principals is built over this store and a {@link GuardedIndex}
 * and never holds the raw ones, so no engine path (recall, graph expansion, stats, export, zone
 * administration, a profile's own query) can read or write around it.
 * <ul>
 *   <li>A read that names a zone throws {@link AccessDeniedException} unless the caller may read it;
 *       the check comes before any lookup, so an unknown and a forbidden zone answer alike.
 *   <li>A read by id drops memories of unreadable zones (they look unknown); multi-zone reads (every
 *       zone, counts, zone lists, edges) are filtered to readable zones.
 *   <li>Every write checks the write right on the zone of each memory it touches (admin for zone
 *       records) inside the transaction, so a refused write rolls the whole transaction back.
 *   <li>The principals' own mark is invisible and unwritable here.
 * </ul>
 * Callers with every right on every zone pass straight through.
 */
public final class GuardedStore implements MemoryStore {
    private final MemoryStore store;
    private final Supplier<Grants> grants;

    public GuardedStore(MemoryStore store, Supplier<Grants> grants) {
        this.store = store;
        this.grants = grants;
    }

    Grants grants() {
        Grants g = grants.get();
        return g == null ? Grants.NONE : g;
    }

    private boolean readsAll(Grants g) {
        return g.everywhere(Right.READ);
    }

    private Optional<Memory> readable(Grants g, Optional<Memory> m) {
        return readsAll(g) ? m : m.filter(x -> g.can(Right.READ, x.zone()));
    }

    private boolean readableId(Grants g, String id) {
        return readsAll(g) || store.get(id).filter(m -> g.can(Right.READ, m.zone())).isPresent();
    }

    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        Grants g = grants();
        return store.write(tx -> work.apply(new GuardedTransaction(tx, g)));
    }

    @Override
    public Optional<Memory> get(String id) {
        return readable(grants(), store.get(id));
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        grants().require(Right.READ, zone);
        return store.getByKey(zone, key);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        grants().require(Right.READ, zone);
        return store.getByName(zone, name);
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        Grants g = grants();
        List<Memory> all = store.getAll(ids);
        return readsAll(g) ? all : all.stream().filter(m -> g.can(Right.READ, m.zone())).toList();
    }

    @Override
    public List<Edge> edges(String id) {
        Grants g = grants();
        if (readsAll(g)) return store.edges(id);
        if (!readableId(g, id)) return List.of();
        return readableEdges(g, store.edges(id), store::getAll);
    }

    @Override
    public Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        // a partial view goes memory by memory through edges() above, so no link reveals a memory it cannot read
        return readsAll(grants()) ? store.edgesOf(ids) : MemoryStore.super.edgesOf(ids);
    }

    @Override
    public Map<String, List<Edge>> outgoingEdges(String zone) {
        Grants g = grants();
        if (zone != null) g.require(Right.READ, zone);
        if (readsAll(g)) return store.outgoingEdges(zone);
        // a partial view: memory by memory through edges() above, so no link reveals a memory it cannot read
        return MemoryStore.super.outgoingEdges(zone);
    }

    /** Edges both of whose ends the caller may read: a link never reveals a memory of another zone. */
    static List<Edge> readableEdges(Grants g, List<Edge> edges, Function<List<String>, List<Memory>> load) {
        if (edges.isEmpty()) return edges;
        Set<String> ends = new HashSet<>();
        edges.forEach(e -> {
            ends.add(e.fromId());
            ends.add(e.toId());
        });
        Set<String> visible = load.apply(List.copyOf(ends)).stream().filter(m -> g.can(Right.READ, m.zone()))
                .map(Memory::id).collect(Collectors.toSet());
        return edges.stream().filter(e -> visible.contains(e.fromId()) && visible.contains(e.toId())).toList();
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        Grants g = grants();
        if (readsAll(g)) return store.degrees(ids);
        // link counts for readable memories only, over readable links: a count must not reveal a neighbour.
        // One query finds the linked ones; only those (usually few) are looked at edge by edge
        Map<String, Integer> linked = store.degrees(ids);
        Map<String, Integer> out = new java.util.HashMap<>();
        if (linked.isEmpty()) return out;
        for (Memory m : getAll(List.copyOf(linked.keySet()))) {
            Set<String> others = new HashSet<>();
            for (Edge e : readableEdges(g, store.edges(m.id()), store::getAll)) {
                others.add(e.fromId().equals(m.id()) ? e.toId() : e.fromId());
            }
            if (!others.isEmpty()) out.put(m.id(), others.size());
        }
        return out;
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        Grants g = grants();
        return readableId(g, id) ? store.embedding(id) : Optional.empty();
    }

    @Override
    public List<String> missingEmbeddings(String modelId, int max) {
        Grants g = grants();
        List<String> ids = store.missingEmbeddings(modelId, max);
        return readsAll(g) ? ids : getAll(ids).stream().map(Memory::id).toList();
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        Grants g = grants();
        return readableId(g, id) ? store.versions(id) : List.of();
    }

    @Override
    public List<Memory> pinned(String zone) {
        grants().require(Right.READ, zone);
        return store.pinned(zone);
    }

    @Override
    public void forEach(String zone, Consumer<Memory> action) {
        Grants g = grants();
        if (zone != null) {
            g.require(Right.READ, zone);
            store.forEach(zone, action);
        } else if (readsAll(g)) {
            store.forEach(null, action);
        } else {
            store.forEach(null, m -> {
                if (g.can(Right.READ, m.zone())) action.accept(m);
            });
        }
    }

    @Override
    public Set<String> zones() {
        Grants g = grants();
        Set<String> all = store.zones();
        return readsAll(g) ? all : new TreeSet<>(g.readable(all));
    }

    @Override
    public long count() {
        Grants g = grants();
        if (readsAll(g)) return store.count();
        long[] n = {0};
        forEach(null, m -> n[0]++);
        return n[0];
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        grants().require(Right.READ, name);
        return store.zoneInfo(name);
    }

    @Override
    public List<ZoneInfo> zoneInfos() {
        Grants g = grants();
        List<ZoneInfo> all = store.zoneInfos();
        return readsAll(g) ? all : all.stream().filter(z -> g.can(Right.READ, z.name())).toList();
    }

    /**
     * Marks a caller never sees through the guard: the principals, and the agent sessions of every process on
     * the store (their agents, branches and files belong to no one tenant; a tenant's server records none).
     */
    static boolean hidden(String name) {
        return Principals.MARK.equals(name) || dev.engram.engine.session.SessionRegistry.MARK.equals(name);
    }

    @Override
    public Optional<String> mark(String name) {
        return hidden(name) ? Optional.empty() : store.mark(name);
    }

    @Override
    public long edgeCount(String zone) {
        Grants g = grants();
        if (zone != null) g.require(Right.READ, zone);
        if (readsAll(g)) return store.edgeCount(zone);
        // edges out of the zone's memories whose other end the caller may read: a count must not reveal a link
        // into a zone it cannot see (slower, and only for principals with a partial view)
        long[] n = {0};
        forEach(zone, m -> n[0] += readableEdges(g, store.edges(m.id()), store::getAll).stream()
                .filter(e -> e.fromId().equals(m.id())).count());
        return n[0];
    }

    @Override
    public long headSeq() {
        return store.headSeq();
    }

    @Override
    public <T> T readTogether(java.util.function.Supplier<T> reads) {
        return store.readTogether(reads);
    }

    @Override
    public List<Change> changesSince(long afterSeq, int max) {
        return store.changesSince(afterSeq, max); // sequence numbers and ids only; reading one goes through get
    }

    @Override
    public void recordAccess(Collection<String> ids, Instant at) {
        Grants g = grants();
        store.recordAccess(readsAll(g) ? ids : getAll(List.copyOf(ids)).stream().map(Memory::id).toList(), at);
    }

    @Override
    public void close() {
        store.close();
    }
}
