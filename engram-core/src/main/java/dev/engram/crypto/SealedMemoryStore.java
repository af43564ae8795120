package dev.engram.crypto;

import dev.engram.error.EngramUserException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.Change;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreEncryption;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.Tombstone;
import java.time.Instant;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A store whose fields are sealed at rest while it is encrypted: the one place the engine's memories
 * meet {@link FieldSealer}. It seals every field that holds what a user wrote (keys, names, content,
 * tags, file and path scope, entity type, session and branch, version texts, edge labels, zone
 * descriptions, marks, vectors, tombstones) on the way in and opens them on the way out; ids, zones,
 * types, statuses, numbers and instants stay in the clear (the store orders, filters and counts by
 * them). Plain, it passes everything through unchanged.
 * <p>The state is the store mark {@value #STATE_MARK} ({@code plain}, or {@code encrypted:<salt>:<check>}),
 * written in the conversion's own transaction, so every process sharing the store sees it: each write
 * reads it first, and a read that meets a sealed value re-reads it; a process without the right key
 * then fails closed ({@link SealedStoreException}) instead of reading or writing in the clear.
 */
public final class SealedMemoryStore implements MemoryStore, StoreEncryption {
    public static final String STATE_MARK = "crypto.state";
    static final String PLAIN_STATE = "plain";
    private static final String ENCRYPTED = "encrypted";

    /** What only the store itself can do: rewrite every stored field at once, and drop freed pages. */
    public interface Resealer {
        /**
         * In one write transaction: checks {@link #STATE_MARK} is still {@code expectedState}, rewrites
         * every sealed field from {@code from}'s form to {@code to}'s, sets the mark to {@code newState}.
         */
        void reseal(FieldSealer from, FieldSealer to, String expectedState, String newState);

        /** After a conversion: leaves no page or journal of the old form on disk. */
        void compact();
    }

    private final MemoryStore raw;
    private final Resealer resealer;
    private final String envKey;
    private final List<Consumer<Boolean>> listeners = new CopyOnWriteArrayList<>();
    private volatile State state;

    private record State(String mark, FieldSealer sealer) {
        boolean encrypted() {
            return !sealer.plain();
        }
    }

    private SealedMemoryStore(MemoryStore raw, Resealer resealer, String envKey, State state) {
        this.raw = raw;
        this.resealer = resealer;
        this.envKey = envKey;
        this.state = state;
    }

    /**
     * Opens {@code raw} as it is: plain, or encrypted and opened with {@code envKey} (the server's
     * TOON_MEMORY_KEY / ENGRAM_KEY, null when unset).
     *
     * @throws SealedStoreException if it is encrypted and the key is missing or not its key
     */
    public static SealedMemoryStore open(MemoryStore raw, Resealer resealer, String envKey) {
        String mark = raw.mark(STATE_MARK).orElse(PLAIN_STATE);
        return new SealedMemoryStore(raw, resealer, envKey, stateOf(mark, envKey));
    }

    private static State stateOf(String mark, String hexKey) {
        if (!mark.startsWith(ENCRYPTED + ":")) return new State(mark, FieldSealer.PLAIN);
        String[] p = mark.split(":");
        if (p.length != 3) throw new SealedStoreException("its key check (store mark " + STATE_MARK + ") is damaged");
        if (hexKey == null || hexKey.isBlank()) throw new SealedStoreException("no key is set");
        UserKey key;
        try {
            key = UserKey.parse(hexKey, "the store key");
        } catch (EngramUserException e) {
            throw new SealedStoreException("the key set is malformed (" + e.getMessage() + ")");
        }
        FieldSealer sealer = FieldSealer.derive(key, Base64.getDecoder().decode(p[1]));
        if (!sealer.checkValue().equals(p[2])) throw new SealedStoreException("the key set is not this store's key");
        return new State(mark, sealer);
    }

    /** Called with the new state (true: encrypted) after this or another process converted the store. */
    public void onChange(Consumer<Boolean> listener) {
        listeners.add(listener);
    }

    @Override
    public boolean encrypted() {
        return state.encrypted();
    }

    /** The current sealer, for what the store keeps beside its record (the index snapshot). */
    public FieldSealer sealer() {
        return state.sealer();
    }

    @Override
    public Optional<StoreEncryption> encryption() {
        return Optional.of(this);
    }

    @Override
    public synchronized void encrypt(String hexKey) {
        State now = current();
        if (now.encrypted()) throw new EngramUserException("Encryption is already enabled: the store is encrypted at rest;"
                + " memory_decrypt turns it off");
        UserKey key = UserKey.parse(hexKey, "the store key");
        byte[] salt = AesGcm.randomBytes(16);
        FieldSealer to = FieldSealer.derive(key, salt);
        String mark = ENCRYPTED + ":" + Base64.getEncoder().encodeToString(salt) + ":" + to.checkValue();
        resealer.reseal(now.sealer(), to, now.mark(), mark);
        switchTo(new State(mark, to));
        resealer.compact();
    }

    @Override
    public synchronized void decrypt(String hexKey) {
        State now = current();
        if (!now.encrypted()) throw new EngramUserException("Encryption is not enabled: the store is not encrypted, nothing to decrypt");
        UserKey.parse(hexKey, "the key"); // a malformed key gets its own message
        State given;
        try {
            given = stateOf(now.mark(), hexKey);
        } catch (SealedStoreException e) {
            throw new EngramUserException("Wrong key: it is not this store's key; the store stays encrypted and unchanged");
        }
        resealer.reseal(given.sealer(), FieldSealer.PLAIN, now.mark(), PLAIN_STATE);
        switchTo(new State(PLAIN_STATE, FieldSealer.PLAIN));
        resealer.compact();
    }

    /** The state as the store has it now (another process may have converted it). */
    private State current() {
        refresh(raw.mark(STATE_MARK).orElse(PLAIN_STATE));
        return state;
    }

    /** Synchronized: two threads noticing the same conversion switch the index once. */
    private synchronized void refresh(String mark) {
        State s = state;
        if (s.mark().equals(mark)) return;
        switchTo(stateOf(mark, envKey));
    }

    private void switchTo(State next) {
        boolean changed = next.encrypted() != state.encrypted();
        state = next;
        if (changed) listeners.forEach(l -> l.accept(next.encrypted()));
    }

    /** The sealer for a value read: a sealed value read as plain means another process encrypted the store. */
    private FieldSealer reading(boolean sealedSeen) {
        State s = state;
        if (sealedSeen && !s.encrypted()) return current().sealer();
        return s.sealer();
    }

    // ---- mapping ----

    static Memory seal(Memory m, FieldSealer f) {
        if (f.plain() || m == null) return m;
        return m.toBuilder().key(f.sealLookup(m.key())).name(f.sealLookup(m.name())).content(f.seal(m.content()))
                .tags(f.sealTags(m.tags())).file(f.seal(m.file())).pathScope(f.seal(m.pathScope()))
                .entityType(f.seal(m.entityType())).session(f.seal(m.session())).branch(f.seal(m.branch())).build();
    }

    static Memory opened(Memory m, FieldSealer f) {
        if (f.plain() || m == null) return m;
        return m.toBuilder().key(f.open(m.key())).name(f.open(m.name())).content(f.open(m.content()))
                .tags(f.openTags(m.tags())).file(f.open(m.file())).pathScope(f.open(m.pathScope()))
                .entityType(f.open(m.entityType())).session(f.open(m.session())).branch(f.open(m.branch())).build();
    }

    private Memory open(Memory m) {
        return opened(m, reading(FieldSealer.looksSealed(m.key()) || FieldSealer.looksSealed(m.content())));
    }

    private static Edge seal(Edge e, FieldSealer f) {
        return f.plain() ? e : new Edge(e.fromId(), e.toId(), e.type(), f.sealLookup(e.label()), e.createdAt());
    }

    private static Edge opened(Edge e, FieldSealer f) {
        return f.plain() ? e : new Edge(e.fromId(), e.toId(), e.type(), f.open(e.label()), e.createdAt());
    }

    private Edge open(Edge e) {
        return opened(e, reading(FieldSealer.looksSealed(e.label())));
    }

    private static MemoryVersion seal(MemoryVersion v, FieldSealer f) {
        return f.plain() ? v : new MemoryVersion(v.memoryId(), v.version(), f.seal(v.content()), f.sealTags(v.tags()),
                v.importance(), v.replacedAt());
    }

    private static MemoryVersion opened(MemoryVersion v, FieldSealer f) {
        return f.plain() ? v : new MemoryVersion(v.memoryId(), v.version(), f.open(v.content()), f.openTags(v.tags()),
                v.importance(), v.replacedAt());
    }

    private MemoryVersion open(MemoryVersion v) {
        return opened(v, reading(FieldSealer.looksSealed(v.content())));
    }

    private static ZoneInfo seal(ZoneInfo z, FieldSealer f) {
        return f.plain() ? z : new ZoneInfo(z.name(), f.seal(z.shortDescription()), f.seal(z.description()), z.createdAt(), z.updatedAt());
    }

    private static ZoneInfo opened(ZoneInfo z, FieldSealer f) {
        return f.plain() ? z : new ZoneInfo(z.name(), f.open(z.shortDescription()), f.open(z.description()), z.createdAt(), z.updatedAt());
    }

    private ZoneInfo open(ZoneInfo z) {
        return opened(z, reading(FieldSealer.looksSealed(z.shortDescription()) || FieldSealer.looksSealed(z.description())));
    }

    private static StoredEmbedding seal(StoredEmbedding e, FieldSealer f) {
        return f.plain() || e == null ? e : new StoredEmbedding(e.modelId(), f.sealVector(e.vector()));
    }

    private static StoredEmbedding opened(StoredEmbedding e, FieldSealer f) {
        return f.plain() || e == null ? e : new StoredEmbedding(e.modelId(), f.openVector(e.vector()));
    }

    private StoredEmbedding open(StoredEmbedding e) {
        return e == null ? null : opened(e, reading(FieldSealer.looksSealed(e.vector())));
    }

    private static Tombstone seal(Tombstone t, FieldSealer f) {
        return f.plain() ? t : new Tombstone(seal(t.memory(), f), t.edges().stream().map(e -> seal(e, f)).toList(),
                t.versions().stream().map(v -> seal(v, f)).toList(), seal(t.embedding(), f), t.deletedAt());
    }

    private static Tombstone opened(Tombstone t, FieldSealer f) {
        return f.plain() ? t : new Tombstone(opened(t.memory(), f), t.edges().stream().map(e -> opened(e, f)).toList(),
                t.versions().stream().map(v -> opened(v, f)).toList(), opened(t.embedding(), f), t.deletedAt());
    }

    private String openMark(String name, String value) {
        if (name.equals(STATE_MARK)) return value;
        return reading(FieldSealer.looksSealed(value)).open(value);
    }

    private static String sealMark(String name, String value, FieldSealer f) {
        if (name.equals(STATE_MARK)) throw new IllegalArgumentException(STATE_MARK + " is written by encrypt/decrypt only");
        return f.seal(value);
    }

    // ---- MemoryStore ----

    @Override
    public <T> T write(Function<StoreTransaction, T> work) {
        boolean[] changed = {false};
        T result = raw.write(tx -> {
            String mark = tx.mark(STATE_MARK).orElse(PLAIN_STATE);
            State s = state;
            if (!s.mark().equals(mark)) {
                s = stateOf(mark, envKey);  // fails closed before anything is written
                changed[0] = true;
            }
            return work.apply(new Transaction(tx, s));
        });
        if (changed[0]) refresh(raw.mark(STATE_MARK).orElse(PLAIN_STATE)); // listeners run outside the write
        return result;
    }

    @Override
    public Optional<Memory> get(String id) {
        return raw.get(id).map(this::open);
    }

    @Override
    public Optional<Memory> getByKey(String zone, String key) {
        return lookup(f -> raw.getByKey(zone, f.sealLookup(key)));
    }

    /**
     * The raw store's one lookup while keys are stored as written; sealed keys are looked up in their sealed form, one
     * reading at a time. A miss re-reads the state as every lookup by key does ({@link #lookup}).
     */
    @Override
    public Optional<Memory> find(String zone, String ref) {
        return lookup(f -> f.plain() ? raw.find(zone, ref)
                : MemoryStore.resolve(ref, raw::get, key -> raw.getByKey(zone, f.sealLookup(key))));
    }

    @Override
    public Optional<Memory> getByName(String zone, String name) {
        return lookup(f -> raw.getByName(zone, f.sealLookup(name)));
    }

    /** A lookup by a sealed value finds nothing when another process has changed the form since: look again. */
    private Optional<Memory> lookup(Function<FieldSealer, Optional<Memory>> find) {
        FieldSealer f = state.sealer();
        Optional<Memory> found = find.apply(f);
        if (found.isEmpty()) {
            FieldSealer now = current().sealer();
            if (now != f) found = find.apply(now);
        }
        return found.map(this::open);
    }

    @Override
    public List<Memory> getAll(List<String> ids) {
        return raw.getAll(ids).stream().map(this::open).toList();
    }

    @Override
    public List<Edge> edges(String id) {
        return raw.edges(id).stream().map(this::open).toList();
    }

    @Override
    public Map<String, List<Edge>> edgesOf(Collection<String> ids) {
        Map<String, List<Edge>> out = new java.util.HashMap<>();
        raw.edgesOf(ids).forEach((id, edges) -> out.put(id, edges.stream().map(this::open).toList()));
        return out;
    }

    @Override
    public Map<String, List<Edge>> outgoingEdges(String zone) {
        Map<String, List<Edge>> out = new java.util.LinkedHashMap<>();
        raw.outgoingEdges(zone).forEach((from, edges) -> out.put(from, edges.stream().map(this::open).toList()));
        return out;
    }

    @Override
    public Map<String, Integer> degrees(Collection<String> ids) {
        return raw.degrees(ids);
    }

    @Override
    public Optional<StoredEmbedding> embedding(String id) {
        return raw.embedding(id).map(this::open);
    }

    @Override
    public List<String> missingEmbeddings(String modelId, int max) {
        return raw.missingEmbeddings(modelId, max);
    }

    @Override
    public List<MemoryVersion> versions(String id) {
        return raw.versions(id).stream().map(this::open).toList();
    }

    @Override
    public List<Memory> pinned(String zone) {
        return raw.pinned(zone).stream().map(this::open).toList();
    }

    @Override
    public void forEach(String zone, Consumer<Memory> action) {
        raw.forEach(zone, m -> action.accept(open(m)));
    }

    @Override
    public Set<String> zones() {
        return raw.zones();
    }

    @Override
    public long count() {
        return raw.count();
    }

    @Override
    public Optional<ZoneInfo> zoneInfo(String name) {
        return raw.zoneInfo(name).map(this::open);
    }

    @Override
    public List<ZoneInfo> zoneInfos() {
        return raw.zoneInfos().stream().map(this::open).toList();
    }

    @Override
    public Optional<String> mark(String name) {
        return raw.mark(name).map(v -> openMark(name, v));
    }

    @Override
    public long edgeCount(String zone) {
        return raw.edgeCount(zone);
    }

    @Override
    public long headSeq() {
        return raw.headSeq();
    }

    @Override
    public <T> T readTogether(java.util.function.Supplier<T> reads) {
        return raw.readTogether(reads);
    }

    @Override
    public List<Change> changesSince(long afterSeq, int max) {
        return raw.changesSince(afterSeq, max);
    }

    @Override
    public void recordAccess(Collection<String> ids, Instant at) {
        raw.recordAccess(ids, at);
    }

    @Override
    public void close() {
        raw.close();
    }

    /** The raw transaction with this write's sealer: the state read at its start, under the write lock. */
    private final class Transaction implements StoreTransaction {
        private final StoreTransaction tx;
        private final FieldSealer f;

        Transaction(StoreTransaction tx, State s) {
            this.tx = tx;
            this.f = s.sealer();
        }

        @Override
        public Optional<Memory> get(String id) {
            return tx.get(id).map(x -> opened(x, f));
        }

        @Override
        public Optional<Memory> getByKey(String zone, String key) {
            return tx.getByKey(zone, f.sealLookup(key)).map(x -> opened(x, f));
        }

        @Override
        public Optional<Memory> getByName(String zone, String name) {
            return tx.getByName(zone, f.sealLookup(name)).map(x -> opened(x, f));
        }

        @Override
        public void insert(Memory memory) {
            tx.insert(seal(memory, f));
        }

        @Override
        public void update(Memory memory) {
            tx.update(seal(memory, f));
        }

        @Override
        public boolean delete(String id) {
            return tx.delete(id);
        }

        @Override
        public void addEdge(Edge edge) {
            tx.addEdge(seal(edge, f));
        }

        @Override
        public boolean removeEdge(String fromId, String toId, EdgeType type, String label) {
            return tx.removeEdge(fromId, toId, type, f.sealLookup(label));
        }

        @Override
        public List<Edge> edges(String id) {
            return tx.edges(id).stream().map(x -> opened(x, f)).toList();
        }

        @Override
        public void putZone(ZoneInfo zone) {
            tx.putZone(seal(zone, f));
        }

        @Override
        public boolean removeZone(String name) {
            return tx.removeZone(name);
        }

        @Override
        public Optional<ZoneInfo> zoneInfo(String name) {
            return tx.zoneInfo(name).map(x -> opened(x, f));
        }

        @Override
        public Optional<String> mark(String name) {
            return tx.mark(name).map(v -> name.equals(STATE_MARK) ? v : f.open(v));
        }

        @Override
        public void putMark(String name, String value) {
            tx.putMark(name, sealMark(name, value, f));
        }

        @Override
        public void addVersion(MemoryVersion version) {
            tx.addVersion(seal(version, f));
        }

        @Override
        public void putEmbedding(String id, StoredEmbedding embedding) {
            tx.putEmbedding(id, seal(embedding, f));
        }

        @Override
        public void clearEmbedding(String id) {
            tx.clearEmbedding(id);
        }

        @Override
        public int versionCount(String id) {
            return tx.versionCount(id);
        }

        @Override
        public List<MemoryVersion> versions(String id) {
            return tx.versions(id).stream().map(x -> opened(x, f)).toList();
        }

        @Override
        public Optional<StoredEmbedding> embedding(String id) {
            return tx.embedding(id).map(x -> opened(x, f));
        }

        @Override
        public void putTombstone(Tombstone tombstone) {
            tx.putTombstone(seal(tombstone, f));
        }

        @Override
        public Optional<Tombstone> tombstone(String memoryId) {
            return tx.tombstone(memoryId).map(x -> opened(x, f));
        }

        @Override
        public Optional<Tombstone> tombstoneByKey(String zone, String key) {
            return tx.tombstoneByKey(zone, f.sealLookup(key)).map(x -> opened(x, f));
        }

        @Override
        public boolean removeTombstone(String memoryId) {
            return tx.removeTombstone(memoryId);
        }

        @Override
        public int purgeTombstones(Instant deletedBefore) {
            return tx.purgeTombstones(deletedBefore);
        }
    }
}
