package dev.engram.engine;

import dev.engram.analysis.TagVocabulary;
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
    private final dev.engram.engine.view.GraphView graphView;

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
        this.store = store;
        this.index = index;
        // stores keep instants to the millisecond; stamping at that precision keeps records equal after a round trip
        clock = Clock.tick(clock, java.time.Duration.ofMillis(1));
        this.clock = clock;
        ZoneGuard zones = new ZoneGuard(store);
        this.remember = new RememberOperation(store, index, clock, vocabulary, new MemoryIds(), embedder);
        this.recall = new RecallOperation(store, index, embedder, settings, clock, zones);
        this.lifecycle = new LifecycleOperation(store, index, clock, embedder);
        this.backfill = new EmbeddingBackfill(store, index, embedder);
        this.graph = new GraphOperation(store, index, clock);
        this.briefing = new BriefingOperation(store, clock, zones, recall);
        RecallOperation ranked = this.recall;
        this.entities = new dev.engram.engine.graph.EntityGraph(store, index, clock,
                q -> ranked.recall(q, ENTITY_HIT_COST), new MemoryIds()::next);
        this.zoneOperation = new dev.engram.engine.zone.ZoneOperation(store, index, clock, entities);
        this.graphView = new dev.engram.engine.view.GraphView(store, clock, q -> ranked.recall(q, ENTITY_HIT_COST),
                (ref, zone) -> References.require(store, ref, zone));
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

    public RememberResult remember(RememberCommand command) {
        return remember.remember(command);
    }

    /**
     * Recall; {@code cost} prices each result as the caller will print it, for the query's
     * {@code budget_tokens} cut and the result's {@code tokens}.
     */
    public RecallResult recall(RecallQuery query, ResultCost cost) {
        return recall.recall(query, cost);
    }

    public ForgetResult forget(ForgetCommand command) {
        return lifecycle.forget(command);
    }

    public AmendResult amend(AmendCommand command) {
        return lifecycle.amend(command);
    }

    public LinkResult link(LinkCommand command) {
        return graph.link(command);
    }

    public ExploreResult explore(ExploreQuery query) {
        return graph.explore(query);
    }

    /** Pins (priority 1..5) or unpins (0); returns the memory as stored. */
    public Memory pin(PinCommand command) {
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

    /** Every memory of a zone (all zones when null) with its outgoing edges and versions, oldest first. */
    public void export(String zone, Consumer<ExportRecord> sink) {
        store.forEach(zone, m -> sink.accept(new ExportRecord(m,
                store.edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).toList(), store.versions(m.id()))));
    }

    /**
     * Imports records as {@link #export} writes them (ids, times, versions, edges; an edge may point at
     * a record later in the list) under the merge rule of {@link ImportPlan}: nothing stored is lost
     * without {@link ImportPolicy#REPLACE}, and even then the replaced content is kept as a version.
     * All or nothing: a conflict refuses the whole import. A dry run plans the same and writes nothing.
     * Every importer (CLI, profiles) goes through here, so they all follow the same rule.
     */
    public ImportResult importAll(ImportCommand command) {
        Instant now = clock.instant();
        ImportResult result = store.write(tx -> {
            ImportPlan plan = ImportPlan.of(tx, command.records(), command.policy(), now);
            if (!command.dryRun()) plan.apply(tx);
            return plan.result(command.dryRun());
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

    /** Zones holding at least one memory. */
    public Set<String> zones() {
        return store.zones();
    }
}
