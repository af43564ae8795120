package dev.engram.testing;

import dev.engram.memory.ZoneInfo;

import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A {@link MemoryStore} in the heap, for engine unit tests. Thread-safe: every operation holds the
 * shared state's monitor. A write runs on a copy of the state and swaps it in only when the work
 * returns, which makes it atomic. {@link #reopened()} gives a second handle on the same state, the
 * way a second process (or a restart) would see a store directory.
 */
public final class InMemoryMemoryStore implements MemoryStore {

    private static final Comparator<Memory> OLDEST_FIRST =
            Comparator.comparing(Memory::createdAt).thenComparing(Memory::id);

    /** Everything a store directory would hold; replaced as a whole on each successful write. */
    private static final class Shared {
        private InMemoryState state = new InMemoryState();
    }

    private final Shared shared;
    private final java.util.concurrent.atomic.AtomicInteger edgeReads = new java.util.concurrent.atomic.AtomicInteger();

    public InMemoryMemoryStore() {
        this(new Shared());
    }

    private InMemoryMemoryStore(Shared shared) {
        this.shared = shared;
    }

    /** Another handle on the same memories, as if the store directory were opened again. */
    public InMemoryMemoryStore reopened() {
        return new InMemoryMemoryStore(shared);
    }

    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        refuseNesting("write");
        synchronized (shared) {
            InMemoryState draft = shared.state.copy();
            InMemoryTransaction tx = new InMemoryTransaction(draft);
            T result = work.apply(tx);
            tx.end();
            shared.state = draft;
            return result;
        }
    }

    /** As in the SQLite store: a nested write would be lost when the outer one swaps its draft in. */
    private void refuseNesting(String operation) {
        if (Thread.holdsLock(shared)) {
            throw new IllegalStateException(operation + " called inside another write; use the transaction given to it");
        }
    }

    private InMemoryState state() {
        synchronized (shared) {
            return shared.state;
        }
    }

    @Override
    public Optional<Memory> get(String id) {
        return Optional.ofNullable(state().memories.get(id));
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return state().byKey(zone, key);
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return state().byName(zone, name);
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return Optional.ofNullable(state().zoneInfos.get(name));
    }

    @Override
    public Optional<String> mark(String name) {
        return Optional.ofNullable(state().marks.get(name));
    }

    @Override
    public List<ZoneInfo> zoneInfos() {
        return List.copyOf(state().zoneInfos.values());
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        InMemoryState s = state();
        return ids.stream().map(s.memories::get).filter(Objects::nonNull).toList();
    }

    @Override
    public List<Edge> edges(String id) {
        edgeReads.incrementAndGet();
        return state().edgesOf(id);
    }

    /** In one read, as a server store does it. */
    @Override
    public Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        edgeReads.incrementAndGet();
        InMemoryState s = state();
        Map<String, List<Edge>> out = new HashMap<>();
        for (String id : new HashSet<>(ids)) {
            List<Edge> edges = s.edgesOf(id);
            if (!edges.isEmpty()) out.put(id, edges);
        }
        return out;
    }

    /** How many reads of edges ({@link #edges} or {@link #edgesOf}) this handle has served: a server store's statements. */
    public int edgeReads() {
        return edgeReads.get();
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        InMemoryState s = state();
        Map<String, Integer> out = new HashMap<>();
        for (String id : new HashSet<>(ids)) {
            long n = s.edgesOf(id).stream().map(e -> e.other(id)).distinct().count();
            if (n > 0) out.put(id, (int) n);
        }
        return out;
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return Optional.ofNullable(state().embeddings.get(id));
    }

    @Override
    public List<String> missingEmbeddings(String modelId, int max) {
        InMemoryState s = state();
        return s.memories.values().stream().sorted(OLDEST_FIRST).map(Memory::id)
                .filter(id -> s.embeddings.get(id) == null || !s.embeddings.get(id).modelId().equals(modelId))
                .limit(Math.max(0, max)).toList();
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return state().versions.stream().filter(v -> v.memoryId().equals(id))
                .sorted(Comparator.comparingInt(MemoryVersion::version)).toList();
    }

    @Override
    public List<Memory> pinned(String zone) {
        return state().memories.values().stream().filter(m -> m.zone().equals(zone) && m.pinned())
                .sorted(Comparator.comparingInt(Memory::pinPriority).reversed().thenComparing(OLDEST_FIRST)).toList();
    }

    @Override
    public void forEach(String zone, Consumer<Memory> action) {
        state().memories.values().stream().filter(m -> zone == null || m.zone().equals(zone))
                .sorted(OLDEST_FIRST).forEach(action);
    }

    @Override
    public Set<String> zones() {
        TreeSet<String> zones = new TreeSet<>();
        state().memories.values().forEach(m -> zones.add(m.zone()));
        return zones;
    }

    @Override
    public long count() {
        return state().memories.size();
    }

    @Override
    public long edgeCount(String zone) {
        InMemoryState s = state();
        return s.edges.stream().filter(e -> zone == null || zone.equals(s.memories.get(e.fromId()).zone())).count();
    }

    @Override
    public long headSeq() {
        return state().seq;
    }

    @Override
    public List<Change> changesSince(long afterSeq, int max) {
        return state().changes.stream().filter(c -> c.seq() > afterSeq).limit(max).toList();
    }

    @Override
    public void recordAccess(Collection<String> ids, Instant at) {
        refuseNesting("record access");
        synchronized (shared) {
            InMemoryState next = shared.state.copy();
            for (String id : ids) {
                next.memories.computeIfPresent(id, (k, m) -> m.toBuilder()
                        .accessCount(m.accessCount() + 1).lastAccessedAt(at).build());
            }
            shared.state = next;
        }
    }

    @Override
    public void close() {
        // nothing to release: the state lives as long as some handle refers to it
    }
}
