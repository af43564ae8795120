package dev.engram.engine;

import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.lifecycle.DuplicateMerge;
import dev.engram.memory.Memory;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The memory engine: one method per operation, each taking a command or query record and returning
 * a result record. Thread-safe; several engines (in several processes) may share one store.
 * Bad input throws {@link dev.engram.error.EngramUserException} before anything is written.
 */
public final class Engine {
    /** Word-set Jaccard at or above which two memories of one zone and type count as near-duplicates. */
    public static final double NEAR_DUPLICATE_JACCARD = 0.7;
    /**
     * Embedding cosine at or above which two memories of one zone and type count as near-duplicates.
     * Measured with the in-jar model (`engram-bench nearduplicates`, docs/benchmarks.md): the same fact
     * said twice scored 0.645-0.967, a different fact on the same topic 0.319-0.570; 0.62 sits in the
     * gap, where precision and recall were both 1.0 on those 32 pairs.
     */
    public static final double NEAR_DUPLICATE_COSINE = 0.62;
    /** Write-time contradiction check: the existing memories compared with a new one (a few index hits, any type). */
    public static final int WRITE_CONFLICT_CANDIDATES = 5;
    /** At most this many conflicts are reported per remember (toon's top 3). */
    public static final int MAX_WRITE_CONFLICTS = 3;
    /** toon's contradiction-on-write: word-set Jaccard at which new content overlaps a warning (a landmine). */
    public static final double WARNING_OVERLAP = 0.22;
    /** toon's contradiction-on-write: word-set Jaccard at which new content overlaps a critical or high memory. */
    public static final double STRONG_OVERLAP = 0.30;
    /** How long after a hard forget {@code forget action=restore} still brings the memory back. */
    public static final java.time.Duration RESTORE_WINDOW = HardDeletion.RESTORE_WINDOW;

    private final MemoryStore store;
    private final SearchIndex index;
    private final RememberOperation remember;
    private final RecallOperation recall;
    private final LifecycleOperation lifecycle;
    private final GraphOperation graph;
    private final BriefingOperation briefing;
    private final EmbeddingBackfill backfill;
    private final dev.engram.engine.graph.EntityGraph entities;
    private final Clock clock;
    private final dev.engram.engine.zone.ZoneOperation zoneOperation;
    private final TagVocabulary vocabulary;
    private final Embedder embedder;
    private final RecallSettings settings;
    /** Null for an engine over the raw store; else the rights every store and index access is seen through. */
    private final java.util.function.Supplier<dev.engram.access.Grants> grants;
    private final dev.engram.engine.lifecycle.Maintenance maintenance;
    private final dev.engram.engine.view.GraphView graphView;
    private final dev.engram.engine.session.SessionRegistry sessions;
    /** Which memories each session's context primed lately; shared with the guarded view of this engine. */
    private final ContextActivation activation;

    /** A lexical engine: no embedder, built-in tag vocabulary, default recall settings. */
    public Engine(MemoryStore store, SearchIndex index, Clock clock) {
        this(store, index, clock, TagVocabulary.builtInOnly(), null, RecallSettings.defaults());
    }

    /**
     * @param embedder null for a lexical-only engine; one that is not {@link Embedder#ready() ready}
     *                 yet makes recall lexical (and say so) and remember store no vector until it is
     */
    public Engine(MemoryStore store, SearchIndex index, Clock clock, TagVocabulary vocabulary, Embedder embedder,
                  RecallSettings settings) {
        this(store, index, clock, vocabulary, embedder, settings, null, new ContextActivation());
    }

    private Engine(MemoryStore store, SearchIndex index, Clock clock, TagVocabulary vocabulary, Embedder embedder,
                   RecallSettings settings, java.util.function.Supplier<dev.engram.access.Grants> grants,
                   ContextActivation activation) {
        this.activation = activation;
        this.vocabulary = vocabulary;
        this.embedder = embedder;
        this.settings = settings;
        this.grants = grants;
        if (grants != null) {
            dev.engram.access.GuardedStore guarded = new dev.engram.access.GuardedStore(store, grants);
            store = guarded;
            index = new dev.engram.access.GuardedIndex(index, guarded);
        }
        this.store = store;
        this.index = index;
        // stores keep instants to the millisecond; stamping at that precision keeps records equal after a round trip
        clock = Clock.tick(clock, java.time.Duration.ofMillis(1));
        this.clock = clock;
        ZoneGuard zones = new ZoneGuard(store, grants);
        this.remember = new RememberOperation(store, index, clock, vocabulary, new MemoryIds(), embedder);
        this.recall = new RecallOperation(store, index, embedder, settings, clock, zones, activation);
        this.lifecycle = new LifecycleOperation(store, index, clock, embedder);
        this.backfill = new EmbeddingBackfill(store, index, embedder);
        this.graph = new GraphOperation(store, index, clock);
        this.briefing = new BriefingOperation(store, clock, zones, recall);
        RecallOperation ranked = this.recall;
        this.entities = new dev.engram.engine.graph.EntityGraph(store, index, clock,
                q -> ranked.recall(q, ENTITY_HIT_COST), new MemoryIds()::next);
        this.zoneOperation = new dev.engram.engine.zone.ZoneOperation(store, index, clock, entities);
        this.maintenance = new dev.engram.engine.lifecycle.Maintenance(store, index, embedder, clock);
        MemoryStore seen = store; // the guarded store on a guarded engine
        this.graphView = new dev.engram.engine.view.GraphView(seen, clock, q -> ranked.recall(q, ENTITY_HIT_COST),
                (ref, zone) -> References.require(seen, ref, zone));
        this.sessions = dev.engram.engine.session.SessionRegistry.local(store, clock);
    }

    /** The agent sessions working on this store now, across processes (heartbeats, soft conflicts). */
    public dev.engram.engine.session.SessionRegistry sessions() {
        return sessions;
    }

    /**
     * The memory lifecycle: maintenance cycles (decay written back, auto-anchor, garbage collection, …)
     * under a {@link dev.engram.engine.lifecycle.LifecyclePolicy}, and feedback-adaptive importance.
     */
    public dev.engram.engine.lifecycle.Maintenance maintenance() {
        return maintenance;
    }

    /**
     * This engine seen through {@code grants}, read at every store and index access (a server passes
     * {@link dev.engram.access.Access#current}, the rights of the call on the current thread): the
     * returned engine holds only {@link dev.engram.access.GuardedStore} and
     * {@link dev.engram.access.GuardedIndex}, so every operation, including the graph profiles' and
     * zone administration, is filtered and checked there. Shares this engine's store, index and settings.
     */
    /**
     * A write names the right it needs before its first read: a caller without it hears "no write right", not the
     * read right the write's own lookups would be refused first (which would not let it write either).
     */
    private void requireWrite(String zone) {
        if (grants != null && zone != null) grants.get().require(dev.engram.access.Right.WRITE, zone);
    }

    public Engine guarded(java.util.function.Supplier<dev.engram.access.Grants> grants) {
        java.util.Objects.requireNonNull(grants, "grants");
        if (this.grants != null) throw new IllegalStateException("this engine is guarded already");
        return new Engine(store, index, clock, vocabulary, embedder, settings, grants, activation); // one priming window per session
    }

    /** The graph profiles cut search by entity count, not by tokens: every hit costs the same. */
    private static final ResultCost ENTITY_HIT_COST = new ResultCost() {
        @Override
        public int recalled(RecalledMemory result, RecallMode mode, int rank) {
            return 1;
        }

        @Override
        public int briefingLine(Memory memory) {
            return 1;
        }
    };

    /** Named entities, observations and labelled relations: what the graph profiles (server-memory, brain) stand on. */
    public dev.engram.engine.graph.EntityGraph entities() {
        return entities;
    }

    /** Zones as things one manages: create, list, delete, copy and move entities, merge, stats (brain profile). */
    public dev.engram.engine.zone.ZoneOperation zoneAdmin() {
        return zoneOperation;
    }

    /** The graph in bounded pieces, as the viewer draws it: top nodes, neighbours, search, shortest path. */
    public dev.engram.engine.view.GraphView graphView() {
        return graphView;
    }

    /** A one-time job's mark ({@link MemoryStore#mark}). */
    public java.util.Optional<String> mark(String name) {
        return store.mark(name);
    }

    public void setMark(String name, String value) {
        store.write(tx -> {
            tx.putMark(name, value);
            return null;
        });
    }

    /**
     * Replaces a mark with {@code change} of its current value (empty when unset), read and written in one
     * store write: several processes updating one mark never lose each other's changes.
     */
    public String updateMark(String name, java.util.function.UnaryOperator<String> change) {
        return store.write(tx -> {
            String value = change.apply(tx.mark(name).orElse(""));
            tx.putMark(name, value);
            return value;
        });
    }

    /**
     * The notes written with memory {@code id} of {@code zone} ({@link RememberCommand#notes()}), by name; empty when it
     * has none, or is not a memory of that zone this engine may read.
     */
    public java.util.Map<String, String> notes(String zone, String id) {
        if (id == null) return java.util.Map.of();
        java.util.Optional<Memory> m = store.get(id);
        if (m.isEmpty() || (zone != null && !m.get().zone().equals(zone))) return java.util.Map.of();
        return store.mark(MemoryNotes.MARK + m.get().id()).map(MemoryNotes::decode).orElseGet(java.util.Map::of);
    }

    public RememberResult remember(RememberCommand command) {
        requireWrite(command.zone());
        return remember.remember(command);
    }

    /**
     * Remembers these memories in one transaction, all or nothing: each is checked and embedded before anything is
     * written, then all are stored together, so a storage failure part way leaves none of them. Each result is what
     * {@link #remember} answers (merge, conflicts with stored memories and with the batch's earlier items, links).
     */
    /** What {@link #remember} would report as conflicts for {@code command}, writing nothing (a dry run). */
    public java.util.List<RememberResult.Conflict> conflictsOf(RememberCommand command) {
        return remember.conflictsOf(command);
    }

    public java.util.List<RememberResult> rememberAll(java.util.List<RememberCommand> commands) {
        commands.forEach(c -> requireWrite(c.zone()));
        return remember.rememberAll(java.util.List.copyOf(commands));
    }

    /**
     * Recall; {@code cost} prices each result as the caller will print it, for the query's
     * {@code budget_tokens} cut and the result's {@code tokens}.
     */
    public RecallResult recall(RecallQuery query, ResultCost cost) {
        return recall.recall(query, cost);
    }

    public ForgetResult forget(ForgetCommand command) {
        requireWrite(command.zone());
        return lifecycle.forget(command);
    }

    public AmendResult amend(AmendCommand command) {
        requireWrite(command.zone());
        return lifecycle.amend(command);
    }

    public LinkResult link(LinkCommand command) {
        requireWrite(command.zone());
        return graph.link(command);
    }

    public ExploreResult explore(ExploreQuery query) {
        return graph.explore(query);
    }

    /** Pins (priority 1..5) or unpins (0); returns the memory as stored. */
    public Memory pin(PinCommand command) {
        requireWrite(command.zone());
        return lifecycle.pin(command);
    }

    /** Stats for one zone, or for the whole store when {@code zone} is null. */
    public StatsResult stats(String zone) {
        return briefing.stats(zone);
    }

    /** The session briefing; {@code cost} prices each line as the caller will print it (also for the task's recall). */
    public ContextResult context(ContextQuery query, ResultCost cost) {
        return briefing.context(query, cost);
    }

    /**
     * Every memory of a zone (all zones when null) with its outgoing edges, versions, notes and the spellings of its
     * hashed tags, oldest first: everything {@link #importAll} needs to rebuild it in another store.
     */
    public void export(String zone, Consumer<ExportRecord> sink) {
        store.forEach(zone, m -> {
            ExportRecord r = exportRecord(m);
            sink.accept(new ExportRecord(m, r.edges(), r.versions(), MemoryNotes.of(store, m.id()), TagWords.of(store, m.tags())));
        });
    }

    /**
     * The records of the zones someone created or described (descriptions, creation and change dates), of one zone or
     * of all when {@code zone} is null, sorted by name: what an export carries beside the memories, so an empty zone
     * and a zone's descriptions survive export → import ({@link ImportCommand#zones}).
     */
    public java.util.List<dev.engram.memory.ZoneInfo> zoneRecords(String zone) {
        return store.zoneInfos().stream().filter(z -> zone == null || z.name().equals(zone))
                .sorted(java.util.Comparator.comparing(dev.engram.memory.ZoneInfo::name)).toList();
    }

    /**
     * As {@link #export}, without notes and tag words: what a profile's scan of a zone reads (it asks for one
     * memory's notes when it shows them), one mark read per memory cheaper.
     */
    public void records(String zone, Consumer<ExportRecord> sink) {
        store.forEach(zone, m -> sink.accept(exportRecord(m)));
    }

    /**
     * One memory of {@code zone}, any status, as {@link #export} writes it (outgoing edges, versions): the memory
     * with id {@code ref} if it is in that zone, else the one with key {@code ref} there. Reads that one memory,
     * its edges and versions (a few point lookups), so a tool naming a memory never pays for the whole zone.
     */
    public java.util.Optional<ExportRecord> record(String zone, String ref) {
        java.util.Optional<Memory> m = store.get(ref).filter(x -> x.zone().equals(zone));
        if (m.isEmpty()) m = store.getByKey(zone, ref);
        return m.map(this::exportRecord);
    }

    private ExportRecord exportRecord(Memory m) {
        return new ExportRecord(m, outgoingEdges(m), store.versions(m.id()));
    }

    /** The edges {@code m} is the source of, as an export line carries them. */
    private java.util.List<dev.engram.memory.Edge> outgoingEdges(Memory m) {
        return store.edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).toList();
    }

    /**
     * As {@link #export}, without past versions: for formats that keep none (toon-memory's data.toon). The
     * zone's edges come from one read ({@link MemoryStore#outgoingEdges}) instead of one per memory, since
     * the toon profile rewrites its data.toon this way after every write. A memory written between the two
     * reads may lack its edges, as it could before between one memory's read and the next.
     */
    public void exportCurrent(String zone, Consumer<ExportRecord> sink) {
        java.util.Map<String, java.util.List<dev.engram.memory.Edge>> edges = store.outgoingEdges(zone);
        store.forEach(zone, m -> sink.accept(new ExportRecord(m, edges.getOrDefault(m.id(), java.util.List.of()), java.util.List.of())));
    }

    /**
     * Imports records as {@link #export} writes them (ids, times, versions, edges; an edge may point at
     * a record later in the list) under the merge rule of {@link ImportPlan}: nothing stored is lost
     * without {@link ImportPolicy#REPLACE}, and even then the replaced content is kept as a version.
     * All or nothing: a conflict refuses the whole import. A dry run plans the same and writes nothing.
     * The command's zone records are written in the same transaction ({@link dev.engram.engine.zone.ZoneRecords}).
     * Every importer (CLI, profiles) goes through here, so they all follow the same rule.
     */
    public ImportResult importAll(ImportCommand command) {
        Instant now = clock.instant();
        ImportResult result = store.write(tx -> {
            // zones first, in the same transaction: a zone record and the zone's memories come in together or not at all
            dev.engram.engine.zone.ZoneRecords.Outcome zones =
                    dev.engram.engine.zone.ZoneRecords.write(tx, command.zones(), command.dryRun());
            ImportPlan plan = ImportPlan.of(tx, command.records(), command.policy(), now);
            if (!command.dryRun()) plan.apply(tx);
            return plan.result(command.dryRun()).withZones(zones);
        });
        if (!command.dryRun()) index.catchUp();
        return result;
    }

    /**
     * Embeds up to {@code max} memories that lack a vector of the current model, in one batch; returns
     * how many it embedded (0 when nothing is missing, or no embedder is ready). Call until it returns
     * 0 to reindex after a model change.
     */
    public int embedMissing(int max) {
        return backfill.embedMissing(max);
    }

    /**
     * The store's principals (tokens bound to zones), kept in a store-wide mark. Only on an unguarded
     * engine: a guarded one must not see, let alone change, who may do what.
     */
    public dev.engram.access.Principals principals() {
        if (grants != null) throw new IllegalStateException("a guarded engine has no access to the principals");
        return new dev.engram.access.Principals(store, clock, dev.engram.access.Principals.DEFAULT_TTL);
    }

    /** Memories in the store (every zone and status, as the caller may see them); one cheap query. */
    public long memoryCount() {
        return store.count();
    }

    /** Store changes this process's search index has not applied yet (0 when it is caught up). */
    /**
     * The store's latest change number (its change feed's head): unchanged means no memory, edge or vector
     * was written since, by any process. Access counts and marks are not changes.
     */
    public long changeSeq() {
        return store.headSeq();
    }

    /** The store's encryption at rest, when it offers one (toon's memory_encrypt / memory_decrypt). */
    public java.util.Optional<dev.engram.spi.StoreEncryption> encryption() {
        return store.encryption();
    }

    public long indexLag() {
        return Math.max(0, store.headSeq() - index.indexedSeq());
    }

    /**
     * Merges duplicates among the zone's active memories by {@code mode} (every pair compared: for a profile's
     * consolidate tool, e.g. toon's identical and similar modes), under {@link DuplicateMerge}'s rule: the kept one
     * takes the others' tags and links, the others are archived (restorable), nothing is deleted. Returns the merges
     * done, or in a dry run the merges planned, writing nothing. {@code above}: the WORDS mode's Jaccard threshold.
     */
    public java.util.List<DuplicateMerge.Merge> mergeDuplicates(String zone, DuplicateMerge.Mode mode, double above,
                                                               boolean dryRun) {
        Instant now = clock.instant();
        java.util.List<Memory> active = new java.util.ArrayList<>();
        store.forEach(zone, m -> {
            if (m.status() == dev.engram.memory.MemoryStatus.ACTIVE && !m.expiredAt(now)) active.add(m);
        });
        java.util.List<DuplicateMerge.Merge> plan = DuplicateMerge.plan(active, DuplicateMerge.rest(active),
                DuplicateMerge.likeness(mode, above), mode == DuplicateMerge.Mode.IDENTICAL ? "hash" : "words", Integer.MAX_VALUE);
        if (dryRun) return plan;
        java.util.List<DuplicateMerge.Merge> done = plan.stream()
                .filter(m -> DuplicateMerge.apply(store, m, now).isPresent()).toList();
        if (!done.isEmpty()) index.catchUpAfterWrite();
        return done;
    }

    /** Zones holding at least one memory. */
    public Set<String> zones() {
        return store.zones();
    }
}
