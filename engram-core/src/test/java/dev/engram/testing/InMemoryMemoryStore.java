package dev.engram.testing;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
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
        private State state = new State();
    }

    private static final class State {
        final LinkedHashMap<String, Memory> memories = new LinkedHashMap<>();
        final List<Edge> edges = new ArrayList<>();
        final List<MemoryVersion> versions = new ArrayList<>();
        final List<Change> changes = new ArrayList<>();
        long seq;

        State copy() {
            State s = new State();
            s.memories.putAll(memories);
            s.edges.addAll(edges);
            s.versions.addAll(versions);
            s.changes.addAll(changes);
            s.seq = seq;
            return s;
        }
    }

    private final Shared shared;

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
            State draft = shared.state.copy();
            Transaction tx = new Transaction(draft);
            T result = work.apply(tx);
            tx.open = false;
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

    private State state() {
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
        return byKey(state(), zone, key);
    }

    private static Optional<Memory> byKey(State s, String zone, String key) {
        return s.memories.values().stream().filter(m -> m.zone().equals(zone) && m.key().equals(key)).findFirst();
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        State s = state();
        return ids.stream().map(s.memories::get).filter(Objects::nonNull).toList();
    }

    @Override
    public List<Edge> edges(String id) {
        return edgesOf(state(), id);
    }

    private static List<Edge> edgesOf(State s, String id) {
        return s.edges.stream().filter(e -> e.fromId().equals(id) || e.toId().equals(id))
                .sorted(Comparator.comparing(Edge::createdAt)).toList();
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
        State s = state();
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
            State next = shared.state.copy();
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

    /** Mutates a draft state that becomes visible only if the work returns normally. */
    private static final class Transaction implements StoreTransaction {
        private final State s;
        private boolean open = true;

        Transaction(State s) {
            this.s = s;
        }

        private State s() {
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
            return byKey(s(), zone, key);
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
            Optional<Memory> holder = byKey(s(), memory.zone(), memory.key());
            if (holder.isPresent() && !holder.get().id().equals(memory.id())) {
                throw new ConflictException("key '" + memory.key() + "' in zone '" + memory.zone()
                        + "' already belongs to " + holder.get().id());
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
            changed(id);
            return true;
        }

        @Override
        public void addEdge(Edge edge) {
            for (String end : List.of(edge.fromId(), edge.toId())) {
                if (!s().memories.containsKey(end)) throw new NotFoundException("no memory with id " + end + " to link");
            }
            boolean exists = s.edges.stream().anyMatch(e -> e.fromId().equals(edge.fromId())
                    && e.toId().equals(edge.toId()) && e.type() == edge.type());
            if (!exists) s.edges.add(edge);
        }

        @Override
        public boolean removeEdge(String fromId, String toId, EdgeType type) {
            return s().edges.removeIf(e -> e.fromId().equals(fromId) && e.toId().equals(toId) && e.type() == type);
        }

        @Override
        public List<Edge> edges(String id) {
            return edgesOf(s(), id);
        }

        @Override
        public void addVersion(MemoryVersion version) {
            if (!s().memories.containsKey(version.memoryId())) {
                throw new NotFoundException("no memory with id " + version.memoryId() + " to version");
            }
            s.versions.add(version);
        }

        @Override
        public int versionCount(String id) {
            return (int) s().versions.stream().filter(v -> v.memoryId().equals(id)).count();
        }
    }
}
