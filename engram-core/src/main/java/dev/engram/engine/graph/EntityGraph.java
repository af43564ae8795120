package dev.engram.engine.graph;

import dev.engram.engine.HardDeletion;
import dev.engram.rank.Freshness;

import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoreTransaction;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Named entities with ordered observations and labelled relations, on ordinary memories: the business
 * rules of both graph profiles (server-memory, brain-tools), once. Profiles parse and render only.
 * <ul>
 *   <li>An entity is an {@link MemoryType#ENTITY} memory with {@code name} (exact, unique per zone) and
 *       {@code entityType}; its key is a free slug of the name; its content is the name followed by the
 *       type in parentheses, so lexical recall finds an entity by its name or its type (server-memory's
 *       search matches both).
 *   <li>Each observation is its own {@link MemoryType#FACT} memory, entityType {@value #OBSERVATION_TYPE},
 *       named {@code "<entity>: <text>"}, content the text exactly (never trimmed), joined to its entity
 *       by an {@link EdgeType#OBSERVATION_OF} edge; observation order is the order of those edges.
 *   <li>A relation is a {@link EdgeType#RELATED} edge labelled with the caller's relation type; its ends
 *       may sit in different zones.
 * </ul>
 * Every write is one {@link MemoryStore#write}, validated before anything is written: a refused call
 * leaves nothing behind. Creation times come from a per-engine monotonic stamp (one millisecond apart
 * within a call), because the store lists memories by creation time and a batch created within one
 * millisecond would otherwise come back in id order, not in the order given.
 */
public final class EntityGraph {
    public static final String OBSERVATION_TYPE = "observation";
    public static final String UNKNOWN_TYPE = "unknown";
    public static final int MAX_INTERVAL_DAYS = Freshness.MAX_REVIEW_INTERVAL_DAYS;
    public static final double MIN_RELEVANCE = Memory.MIN_RELEVANCE;
    public static final double MAX_RELEVANCE = Memory.MAX_RELEVANCE;
    /** Separates an observation's entity name from its text in the observation's own name (brain-tools' form). */
    public static final String OBSERVATION_NAME_SEPARATOR = ": ";
    private static final int MAX_KEY_CHARS = 80;

    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;
    private final Function<RecallQuery, RecallResult> recall;
    private final Supplier<String> ids;
    private final AtomicReference<Instant> lastStamp;
    /** Recorded on the memories this graph writes: who wrote them ({@link #by}); null when unknown. */
    private final String session, branch;

    /**
     * @param recall Engram's ranked recall (the engine's, with the caller's cost function), for {@link #search}
     * @param ids    new memory ids
     */
    public EntityGraph(MemoryStore store, SearchIndex index, Clock clock, Function<RecallQuery, RecallResult> recall,
                       Supplier<String> ids) {
        this(store, index, clock, recall, ids, new AtomicReference<>(Instant.EPOCH), null, null);
    }

    private EntityGraph(MemoryStore store, SearchIndex index, Clock clock, Function<RecallQuery, RecallResult> recall,
                        Supplier<String> ids, AtomicReference<Instant> lastStamp, String session, String branch) {
        this.store = store;
        this.index = index;
        this.clock = clock;
        this.recall = recall;
        this.ids = ids;
        this.lastStamp = lastStamp;
        this.session = session;
        this.branch = branch;
    }

    /**
     * The same graph, recording {@code session} and {@code branch} on every memory it creates (a profile
     * passes the MCP caller's). The creation-time stamp stays shared, so order holds across writers.
     */
    public EntityGraph by(String session, String branch) {
        return new EntityGraph(store, index, clock, recall, ids, lastStamp, session, branch);
    }

    // ---------------------------------------------------------------- writes

    /**
     * Creates the drafts' entities in {@code zone}, in order. With {@link ExistingEntity#SKIP} a name the
     * zone holds (or an earlier draft of this call) is left alone and only new entities are returned; with
     * {@link ExistingEntity#MERGE} it gets the draft's type and interval and any observation it lacks,
     * and every entity is returned. Repeated observation texts are kept once.
     */
    public List<Entity> create(String zone, List<EntityDraft> drafts, ExistingEntity policy) {
        String z = zone(zone);
        validate(drafts);
        List<Entity> result = store.write(tx -> {
            List<String> touched = createIn(tx, z, drafts, policy, Map.of(), new int[3]);
            View view = View.of(tx);
            return touched.stream().map(id -> load(view, tx.get(id).orElseThrow())).toList();
        });
        index.catchUpAfterWrite();
        return result;
    }

    /** {@link #importGraph(String, List, List, List, boolean)} without carried-over stamps. */
    public ImportSummary importGraph(String zone, List<EntityDraft> entities, List<RelationDraft> relations, boolean dryRun) {
        return importGraph(zone, entities, relations, List.of(), dryRun);
    }

    /**
     * A whole graph into {@code zone} in one write, as importers need it: new entities are created,
     * an existing one keeps its type and gains the observations it lacks ({@link ExistingEntity#ADD_OBSERVATIONS}),
     * relations are added with {@link MissingEndpoint#CREATE_UNKNOWN} so a relation to an entity the
     * graph lacks is kept, not dropped. A placeholder such a relation created earlier (type {@value #UNKNOWN_TYPE},
     * no observations) is filled by the draft of that name: it takes the draft's type and interval, and is
     * counted in {@link ImportSummary#placeholdersFilled}, so importing per-zone files one after another ends
     * with the real entities, whatever the order. {@code stamps} (by entity name) are set on the entities this
     * import creates or fills, never on one the store held already; an observation's own stamps are set on the
     * observation this import adds. A relation from an entity to itself, which server-memory and
     * brain-tools store but Engram's edges cannot hold, is skipped and counted rather than refusing the
     * file. Nothing is written when any part is refused; a dry run checks and counts the same and writes nothing.
     */
    public ImportSummary importGraph(String zone, List<EntityDraft> entities, List<RelationDraft> relations,
                                     List<Restored> stamps, boolean dryRun) {
        String z = zone(zone);
        // a relation without zones is the zone's own
        List<RelationDraft> zoned = relations.stream().map(d -> new RelationDraft(d.fromZone() == null ? z : d.fromZone(),
                d.from(), d.toZone() == null ? z : d.toZone(), d.to(), d.type())).toList();
        return importGraphs(List.of(new ZonePart(z, entities, stamps)), zoned, tx -> { }, dryRun);
    }

    /** One zone's entities in {@link #importGraphs}, with the stamps carried over for them (by entity name). */
    public record ZonePart(String zone, List<EntityDraft> entities, List<Restored> stamps) {
        public ZonePart {
            entities = List.copyOf(entities);
            stamps = List.copyOf(stamps);
        }
    }

    /**
     * {@link #importGraph} for a file that spans zones, in one write: {@code before} first (an importer's zone
     * records, written in the same transaction), then every zone's entities, then every relation, so an end in
     * another zone of the file is found rather than created as a placeholder. A relation's missing zone is the
     * default zone. Nothing is written when any part is refused or the store fails part-way; a dry run checks
     * and counts the same (placeholders included) and writes nothing. Returns the totals over all zones.
     */
    public ImportSummary importGraphs(List<ZonePart> parts, List<RelationDraft> relations, Consumer<StoreTransaction> before,
                                      boolean dryRun) {
        List<ZonePart> checked = new ArrayList<>();
        for (ZonePart p : parts) {
            validate(p.entities());
            checked.add(new ZonePart(zone(p.zone()), p.entities(), p.stamps()));
        }
        String dflt = MemoryRules.DEFAULT_ZONE;
        List<RelationDraft> kept = relations.stream().filter(d -> !selfRelation(d, dflt)).toList();
        int selfSkipped = relations.size() - kept.size();
        validateRelations(kept);
        ImportSummary summary;
        try {
            summary = store.write(tx -> {
                before.accept(tx);
                int[] counts = new int[3];
                int existing = 0;
                for (ZonePart p : checked) {
                    Map<String, Restored> byName = new LinkedHashMap<>();
                    for (Restored r : p.stamps()) byName.putIfAbsent(r.name(), r);
                    int created = counts[0], filled = counts[2];
                    List<String> touched = createIn(tx, p.zone(), p.entities(), ExistingEntity.ADD_OBSERVATIONS, byName, counts);
                    existing += touched.size() - (counts[0] - created) - (counts[2] - filled);
                }
                int[] placeholders = new int[1];
                int related = relateIn(tx, dflt, kept, MissingEndpoint.CREATE_UNKNOWN, placeholders).size();
                ImportSummary s = new ImportSummary(counts[0], existing, counts[1], related, placeholders[0], selfSkipped, counts[2]);
                if (dryRun) throw new DryRun(s);
                return s;
            });
        } catch (DryRun d) {
            return d.summary; // the store rolled the write back: an exception leaves nothing written
        }
        index.catchUpAfterWrite();
        return summary;
    }

    /**
     * What {@link #importGraph} did (or, in a dry run, would do). {@code placeholders}: entities created for
     * relation ends the graph lacked; {@code placeholdersFilled}: such entities, from an earlier import, that
     * this one's drafts made real (counted neither as created nor as existing).
     */
    public record ImportSummary(int entitiesCreated, int entitiesExisting, int observationsAdded, int relationsCreated,
                                int placeholders, int selfRelationsSkipped, int placeholdersFilled) {
        public ImportSummary(int entitiesCreated, int entitiesExisting, int observationsAdded, int relationsCreated,
                             int placeholders, int selfRelationsSkipped) {
            this(entitiesCreated, entitiesExisting, observationsAdded, relationsCreated, placeholders, selfRelationsSkipped, 0);
        }
    }

    private static boolean selfRelation(RelationDraft d, String zone) {
        if (d.from() == null || !d.from().equals(d.to())) return false;
        String fz = d.fromZone() == null ? zone : d.fromZone();
        String tz = d.toZone() == null ? zone : d.toZone();
        return fz.equals(tz);
    }

    /** Carries a dry run's counts out of the write it aborts. */
    private static final class DryRun extends RuntimeException {
        final transient ImportSummary summary;

        DryRun(ImportSummary summary) {
            super(null, null, false, false);
            this.summary = summary;
        }
    }

    private static void validate(List<EntityDraft> drafts) {
        for (int i = 0; i < drafts.size(); i++) {
            EntityDraft d = drafts.get(i);
            requireName("entities[" + i + "].name", d.name());
            requireType("entities[" + i + "].entityType", d.entityType());
            for (int j = 0; j < d.observations().size(); j++) {
                requireText("entities[" + i + "].observations[" + j + "]", d.observations().get(j));
            }
            if (d.reviewIntervalDays() != null) requireInterval("entities[" + i + "].reviewIntervalDays", d.reviewIntervalDays());
            if (d.relevance() != null && !(d.relevance() >= MIN_RELEVANCE && d.relevance() <= MAX_RELEVANCE)) {
                throw new InvalidArgumentException("entities[" + i + "].relevanceScore", "must be a number from " + MIN_RELEVANCE
                        + " to " + MAX_RELEVANCE + " (1 is neutral), got " + d.relevance());
            }
        }
    }

    /**
     * Creates or merges each draft; returns the ids of the entities it returns, counts[0] += created, counts[1] +=
     * observations added, counts[2] += placeholders filled (only under {@link ExistingEntity#ADD_OBSERVATIONS}).
     * {@code stamps} by entity name: set on the entities created or filled, and on the observations added.
     */
    private List<String> createIn(StoreTransaction tx, String z, List<EntityDraft> drafts, ExistingEntity policy,
                                  Map<String, Restored> stamps, int[] counts) {
        Map<String, Memory> touched = new LinkedHashMap<>();
        for (EntityDraft d : drafts) {
            Optional<Memory> existing = entityNamed(tx, z, d.name());
            Restored stamp = stamps.get(d.name());
            Map<String, Restored> observationStamps = new LinkedHashMap<>();
            if (stamp != null) stamp.observations().forEach(o -> observationStamps.putIfAbsent(o.name(), o));
            boolean ownStamps;
            Memory m;
            if (existing.isPresent()) {
                m = existing.get();
                if (policy == ExistingEntity.SKIP) continue;
                // an import's relation end, made real by the draft the same or a later import brings
                boolean fill = policy == ExistingEntity.ADD_OBSERVATIONS && isPlaceholder(tx, m) && !bare(d);
                if (policy == ExistingEntity.MERGE || fill) {
                    Memory.Builder b = m.toBuilder().entityType(d.entityType()).content(entityContent(d.name(), d.entityType()));
                    if (d.reviewIntervalDays() != null) b.reviewIntervalDays(d.reviewIntervalDays());
                    if (d.relevance() != null) b.relevance(d.relevance());
                    m = b.updatedAt(clock.instant()).build();
                    tx.update(m);
                }
                if (fill) counts[2]++;
                ownStamps = fill;
            } else {
                Memory revived = revived(tx, z, d);
                m = revived != null ? revived : insertEntity(tx, z, d.name(), d.entityType(), d.reviewIntervalDays());
                if (d.relevance() != null) {
                    m = m.toBuilder().relevance(d.relevance()).build();
                    tx.update(m);
                }
                counts[0]++;
                ownStamps = true;
            }
            counts[1] += addObservations(tx, m, d.observations(), d.reviewIntervalDays(), null, observationStamps).size();
            // after the observations, which mark the entity written now: the file's last write wins
            if (ownStamps && stamp != null) tx.update(stamped(tx.get(m.id()).orElseThrow().toBuilder(), stamp).build());
            touched.put(m.id(), m);
        }
        return List.copyOf(touched.keySet());
    }

    /**
     * What an import creates for a relation end the graph lacks ({@link MissingEndpoint#CREATE_UNKNOWN}): type
     * {@value #UNKNOWN_TYPE} and no observation. Taking a type from a draft loses nothing of it.
     */
    private static boolean isPlaceholder(StoreTransaction tx, Memory entity) {
        return UNKNOWN_TYPE.equals(entity.entityType()) && observationsOf(View.of(tx), entity.id()).isEmpty();
    }

    /** A draft that says no more than a placeholder does. */
    private static boolean bare(EntityDraft d) {
        return UNKNOWN_TYPE.equals(d.entityType()) && d.observations().isEmpty();
    }

    /** The carried-over stamps on a memory being written; relevance clamped, negative counts read as 0. */
    private static Memory.Builder stamped(Memory.Builder b, Restored r) {
        if (r.relevance() != null && !r.relevance().isNaN()) {
            b.relevance(Math.max(MIN_RELEVANCE, Math.min(MAX_RELEVANCE, r.relevance())));
        }
        if (r.verifyCount() != null) b.verifyCount(Math.max(0, r.verifyCount()));
        if (r.lastVerifiedAt() != null) b.lastVerifiedAt(r.lastVerifiedAt());
        if (r.readCount() != null) b.accessCount(Math.max(0, r.readCount()));
        if (r.lastReadAt() != null) b.lastAccessedAt(r.lastReadAt());
        if (r.lastWriteAt() != null) b.updatedAt(r.lastWriteAt());
        if (r.reviewIntervalDays() != null) b.reviewIntervalDays(Freshness.checkedInterval("reviewInterval", r.reviewIntervalDays()));
        return b;
    }

    /** {@link #addObservations(String, List)} for one entity. */
    public List<Added> addObservations(String zone, String name, List<String> texts) {
        return addObservations(zone, List.of(new ObservationDraft(name, texts)));
    }

    /**
     * For one entity, brain-tools' add_observations: each observation has its own freshness. New texts get
     * this review interval ({@code null}: the model's default). A text the entity holds already is saved
     * again, as brain-tools saved its observation entity again: its last write becomes now and it takes
     * {@code reviewIntervalDays} when one is given; its verification (the review clock) is kept.
     */
    public List<Added> addObservations(String zone, String name, List<String> texts, Integer reviewIntervalDays) {
        if (reviewIntervalDays != null) requireInterval("reviewInterval", reviewIntervalDays);
        return addObservations(zone, List.of(new ObservationDraft(name, texts)), reviewIntervalDays, true);
    }

    /**
     * Adds each text the entity does not hold yet, after its others; all or nothing: an unknown entity
     * anywhere in the batch is a {@link NotFoundException} naming it, and nothing is added.
     */
    public List<Added> addObservations(String zone, List<ObservationDraft> drafts) {
        return addObservations(zone, drafts, null, false);
    }

    private List<Added> addObservations(String zone, List<ObservationDraft> drafts, Integer reviewIntervalDays,
                                        boolean rewriteHeld) {
        String z = zone(zone);
        for (int i = 0; i < drafts.size(); i++) {
            ObservationDraft d = drafts.get(i);
            requireName("observations[" + i + "].entityName", d.entityName());
            for (int j = 0; j < d.texts().size(); j++) requireText("observations[" + i + "].contents[" + j + "]", d.texts().get(j));
        }
        List<Added> result = store.write(tx -> {
            List<Added> out = new ArrayList<>();
            for (ObservationDraft d : drafts) {
                Memory entity = entityNamed(tx, z, d.entityName()).orElseThrow(() -> notFound(d.entityName(), z));
                List<String> rewritten = new ArrayList<>();
                List<String> added = addObservations(tx, entity, d.texts(), reviewIntervalDays, rewriteHeld ? rewritten : null,
                        Map.of());
                out.add(new Added(d.entityName(), added, rewritten));
            }
            return out;
        });
        index.catchUpAfterWrite();
        return result;
    }

    /** Removes these texts from the entity; a text it does not hold is ignored, an unknown entity is a {@link NotFoundException}. */
    public void deleteObservations(String zone, String name, List<String> texts) {
        String z = zone(zone);
        requireName("entityName", name);
        if (find(z, name).isEmpty()) throw notFound(name, z);
        deleteObservations(z, List.of(new ObservationDraft(name, texts)));
    }

    /**
     * Removes these texts from each entity, atomically; texts and entities that do not exist are ignored
     * (deleting what is not there leaves it not there, as server-memory does). Returns how many went.
     */
    public int deleteObservations(String zone, List<ObservationDraft> drafts) {
        String z = zone(zone);
        for (int i = 0; i < drafts.size(); i++) requireName("deletions[" + i + "].entityName", drafts.get(i).entityName());
        int removed = store.write(tx -> {
            int n = 0;
            for (ObservationDraft d : drafts) {
                Optional<Memory> entity = entityNamed(tx, z, d.entityName());
                if (entity.isEmpty()) continue;
                Set<String> texts = new HashSet<>(d.texts());
                int here = 0;
                for (Memory o : observationsOf(View.of(tx), entity.get().id())) {
                    if (texts.contains(o.content())) {
                        HardDeletion.delete(tx, o, clock.instant());
                        here++;
                    }
                }
                if (here > 0) tx.update(tx.get(entity.get().id()).orElseThrow().toBuilder().updatedAt(clock.instant()).build());
                n += here;
            }
            return n;
        });
        index.catchUpAfterWrite();
        return removed;
    }

    /**
     * Deletes these entities with their observations and returns the names that existed. Their relations
     * go with them; with {@code cascadeRelations} false an entity that has any is refused instead.
     */
    public List<String> delete(String zone, List<String> names, boolean cascadeRelations) {
        String z = zone(zone);
        for (int i = 0; i < names.size(); i++) requireName("entityNames[" + i + "]", names.get(i));
        List<String> deleted = store.write(tx -> {
            List<String> out = new ArrayList<>();
            for (String name : new LinkedHashSet<>(names)) {
                Optional<Memory> entity = entityNamed(tx, z, name);
                if (entity.isEmpty()) continue;
                String id = entity.get().id();
                long relations = tx.edges(id).stream().filter(EntityGraph::isRelation).count();
                if (!cascadeRelations && relations > 0) {
                    throw new InvalidArgumentException("cascadeRelations", "is false and entity " + MemoryRules.shown(name)
                            + " has " + relations + " relation(s); delete them first, or cascade");
                }
                // tombstones, as a native hard forget: restorable for HardDeletion.RESTORE_WINDOW
                Instant now = clock.instant();
                for (Memory o : observationsOf(View.of(tx), id)) HardDeletion.delete(tx, o, now);
                HardDeletion.delete(tx, entity.get(), now);
                out.add(name);
            }
            return out;
        });
        index.catchUpAfterWrite();
        return deleted;
    }

    /**
     * Adds the relations that do not exist yet (same ends, same type) and returns only those, in order.
     * An end that names no entity refuses the whole call ({@link MissingEndpoint#FAIL}, a
     * {@link NotFoundException} naming it) or is created with type {@value #UNKNOWN_TYPE}.
     */
    public List<Relation> relate(String zone, List<RelationDraft> drafts, MissingEndpoint policy) {
        String z = zone(zone);
        validateRelations(drafts);
        List<Relation> result = store.write(tx -> relateIn(tx, z, drafts, policy, new int[1]));
        index.catchUpAfterWrite();
        return result;
    }

    private static void validateRelations(List<RelationDraft> drafts) {
        for (int i = 0; i < drafts.size(); i++) {
            RelationDraft d = drafts.get(i);
            requireName("relations[" + i + "].from", d.from());
            requireName("relations[" + i + "].to", d.to());
            requireName("relations[" + i + "].relationType", d.type());
            if (d.fromZone() != null) zone(d.fromZone());
            if (d.toZone() != null) zone(d.toZone());
            if (d.from().equals(d.to()) && Objects.equals(d.fromZone(), d.toZone())) {
                // the store's edges join two different memories
                throw new InvalidArgumentException("relations[" + i + "]", "joins " + MemoryRules.shown(d.from())
                        + " to itself; Engram keeps relations between two different entities"
                        + " (record it as an observation of " + MemoryRules.shown(d.from()) + " instead)");
            }
        }
    }

    /** Adds the new relations; placeholders[0] += entities created for missing ends. */
    private List<Relation> relateIn(StoreTransaction tx, String z, List<RelationDraft> drafts, MissingEndpoint policy,
                                    int[] placeholders) {
        List<Relation> out = new ArrayList<>();
        for (RelationDraft d : drafts) {
            String fz = d.fromZone() == null ? z : zone(d.fromZone());
            String tz = d.toZone() == null ? z : zone(d.toZone());
            Memory from = endpoint(tx, fz, d.from(), policy, placeholders);
            Memory to = endpoint(tx, tz, d.to(), policy, placeholders);
            if (from.id().equals(to.id())) {
                throw new InvalidArgumentException("relations", "joins " + MemoryRules.shown(d.from())
                        + " to itself; Engram keeps relations between two different entities");
            }
            boolean exists = tx.edges(from.id()).stream().anyMatch(e -> same(e, from.id(), to.id(), d.type()));
            if (exists) continue;
            tx.addEdge(new Edge(from.id(), to.id(), EdgeType.RELATED, d.type(), stamp()));
            out.add(new Relation(fz, d.from(), tz, d.to(), d.type()));
        }
        return out;
    }

    /** Removes these relations; ones that do not exist (or whose ends do not) are ignored. Returns how many went. */
    public int unrelate(String zone, List<RelationDraft> drafts) {
        String z = zone(zone);
        for (int i = 0; i < drafts.size(); i++) {
            RelationDraft d = drafts.get(i);
            requireName("relations[" + i + "].from", d.from());
            requireName("relations[" + i + "].to", d.to());
            requireName("relations[" + i + "].relationType", d.type());
        }
        int removed = store.write(tx -> {
            int n = 0;
            for (RelationDraft d : drafts) {
                Optional<Memory> from = entityNamed(tx, d.fromZone() == null ? z : zone(d.fromZone()), d.from());
                Optional<Memory> to = entityNamed(tx, d.toZone() == null ? z : zone(d.toZone()), d.to());
                if (from.isPresent() && to.isPresent()
                        && tx.removeEdge(from.get().id(), to.get().id(), EdgeType.RELATED, d.type())) {
                    n++;
                }
            }
            return n;
        });
        index.catchUpAfterWrite();
        return removed;
    }

    /** Sets the entity's last verification to now, counts it, and doubles its review interval (up to 365 days) or sets {@code intervalDays}. */
    public Entity verify(String zone, String name, Integer intervalDays) {
        String z = zone(zone);
        requireName("name", name);
        if (intervalDays != null) requireInterval("intervalDays", intervalDays);
        Memory updated = store.write(tx -> {
            Memory v = verified(entityNamed(tx, z, name).orElseThrow(() -> notFound(name, z)), intervalDays);
            tx.update(v);
            return v;
        });
        return load(View.of(store), updated);
    }

    /**
     * {@link #verify} for one observation, found by its brain-tools name {@code "<entity>: <text>"}
     * ({@link #findObservation}): its own review clock is refreshed, the entity's is not. An unknown
     * name is a {@link NotFoundException}.
     */
    public Observation verifyObservation(String zone, String name, Integer intervalDays) {
        String z = zone(zone);
        requireName("name", name);
        if (intervalDays != null) requireInterval("intervalDays", intervalDays);
        return store.write(tx -> {
            Observation found = observationNamed(View.of(tx), z, name).orElseThrow(() -> notFound(name, z));
            Memory v = verified(found.memory(), intervalDays);
            tx.update(v);
            return new Observation(found.entity(), v);
        });
    }

    /** Verified now, counted, and its interval doubled (up to 365 days) or set to {@code intervalDays}. */
    private Memory verified(Memory m, Integer intervalDays) {
        int interval = intervalDays != null ? intervalDays : Freshness.nextInterval(m.reviewIntervalDays());
        return m.toBuilder().lastVerifiedAt(clock.instant()).verifyCount(m.verifyCount() + 1).reviewIntervalDays(interval).build();
    }

    /**
     * Sets the carried-over stamps of these entities of {@code zone} in one write (brain-tools' import:
     * a stale entity stays stale, an important one important). Unknown names are skipped; relevance is
     * clamped to {@value #MIN_RELEVANCE}..{@value #MAX_RELEVANCE}, a negative count reads as 0. Returns how many were set.
     */
    public int restore(String zone, List<Restored> items) {
        String z = zone(zone);
        int n = store.write(tx -> {
            int set = 0;
            for (Restored r : items) {
                Optional<Memory> found = entityNamed(tx, z, r.name());
                if (found.isEmpty()) continue;
                tx.update(stamped(found.get().toBuilder(), r).build());
                set++;
            }
            return set;
        });
        index.catchUpAfterWrite();
        return n;
    }

    /** Relevance ×10 (at most {@value #MAX_RELEVANCE}) when important, else ÷10 (at least {@value #MIN_RELEVANCE}). */
    public Entity markImportant(String zone, String name, boolean important) {
        String z = zone(zone);
        requireName("name", name);
        Memory updated = store.write(tx -> {
            Memory v = marked(entityNamed(tx, z, name).orElseThrow(() -> notFound(name, z)), important);
            tx.update(v);
            return v;
        });
        index.catchUpAfterWrite();
        return load(View.of(store), updated);
    }

    /** {@link #markImportant} for one observation, found by its brain-tools name ({@link #findObservation}). */
    public Observation markObservationImportant(String zone, String name, boolean important) {
        String z = zone(zone);
        requireName("name", name);
        Observation updated = store.write(tx -> {
            Observation found = observationNamed(View.of(tx), z, name).orElseThrow(() -> notFound(name, z));
            Memory v = marked(found.memory(), important);
            tx.update(v);
            return new Observation(found.entity(), v);
        });
        index.catchUpAfterWrite();
        return updated;
    }

    private Memory marked(Memory m, boolean important) {
        double r = important ? Math.min(MAX_RELEVANCE, m.relevance() * 10) : Math.max(MIN_RELEVANCE, m.relevance() / 10);
        return m.toBuilder().relevance(r).updatedAt(clock.instant()).build();
    }

    // ---------------------------------------------------------------- reads

    public Optional<Entity> find(String zone, String name) {
        if (name == null || name.isBlank()) return Optional.empty();
        View view = View.of(store);
        return view.byName(zone(zone), name).filter(EntityGraph::isEntity).map(m -> load(view, m));
    }

    /**
     * The observation brain-tools named {@code name}: {@code "<entity>: <text>"}, where the entity holds
     * that text as an observation. Entity names may hold ": " themselves, so each separator is tried,
     * leftmost first. A name that is an entity's own is not looked up here: callers try {@link #find} first.
     */
    public Optional<Observation> findObservation(String zone, String name) {
        if (name == null || name.isBlank()) return Optional.empty();
        return observationNamed(View.of(store), zone(zone), name);
    }

    /** {@link #findObservation}, counting a read of the observation, as {@link #open} does of an entity. */
    public Optional<Observation> openObservation(String zone, String name) {
        Optional<Observation> found = findObservation(zone, name);
        found.ifPresent(o -> store.recordAccess(List.of(o.memory().id()), clock.instant()));
        return found;
    }

    /**
     * Deletes the one observation found by its brain-tools name ({@link #findObservation}), as a tombstone
     * like every graph delete; returns whether there was one.
     */
    public boolean deleteObservation(String zone, String name) {
        String z = zone(zone);
        requireName("name", name);
        boolean deleted = store.write(tx -> {
            Optional<Observation> found = observationNamed(View.of(tx), z, name);
            if (found.isEmpty()) return false;
            Instant now = clock.instant();
            HardDeletion.delete(tx, found.get().memory(), now);
            tx.update(tx.get(found.get().entity().id()).orElseThrow().toBuilder().updatedAt(now).build());
            return true;
        });
        index.catchUpAfterWrite();
        return deleted;
    }

    /** The named entities in the order given (each once); unknown names are skipped. Counts a read of each. */
    public List<Entity> open(String zone, List<String> names) {
        String z = zone(zone);
        List<Entity> out = new ArrayList<>();
        for (String name : new LinkedHashSet<>(names)) find(z, name).ifPresent(out::add);
        recordRead(out);
        return out;
    }

    /** Every entity of the zone, oldest first, and every relation touching one of them. */
    public Graph read(String zone) {
        List<Entity> entities = entitiesOf(zone(zone));
        return new Graph(entities, relationsTouching(entities));
    }

    /** Relations whose both ends are among these entities, oldest first. */
    public List<Relation> relationsAmong(Collection<Entity> entities) {
        Set<String> ids = new HashSet<>();
        entities.forEach(e -> ids.add(e.id()));
        return relations(entities, e -> ids.contains(e.fromId()) && ids.contains(e.toId()));
    }

    /** Relations with at least one end among these entities, oldest first (what server-memory's open and search return). */
    public List<Relation> relationsTouching(Collection<Entity> entities) {
        return relations(entities, e -> true);
    }

    /**
     * Engram's ranked recall over the zone's entity and observation memories; each hit stands for its
     * entity, the first (best) hit of an entity places it. At most {@code limit} entities, best first.
     * The hits are recorded as read, as every recall's are.
     */
    public List<Entity> search(String zone, String query, int limit) {
        return search(zone, query, limit, false);
    }

    /**
     * {@link #search(String, String, int)}; with {@code peek} nothing is recorded as read (brain-tools'
     * searches never touched lastRead: only opening an entity does, so a search must not reorder the
     * recently-read list, nor the next search's ranking).
     */
    public List<Entity> search(String zone, String query, int limit, boolean peek) {
        String z = zone(zone);
        if (query == null || query.isBlank()) throw new InvalidArgumentException("query", "is required: a few words to search for");
        if (limit < 1) throw new InvalidArgumentException("limit", "must be at least 1, got " + limit);
        if (!z.equals(MemoryRules.DEFAULT_ZONE) && !store.zones().contains(z)) return List.of();
        // observations outnumber entities, and several hits often stand for one entity: ask for more
        int fetch = Math.min(RecallQuery.MAX_LIMIT, Math.max(limit * 3, limit + 10));
        RecallResult r = recall.apply(RecallQuery.builder(query).zone(z)
                .types(Set.of(MemoryType.ENTITY, MemoryType.FACT)).limit(fetch).peek(peek).build());
        View view = View.of(store);
        Map<String, Memory> hits = new LinkedHashMap<>();
        for (RecalledMemory hit : r.results()) {
            if (hits.size() >= limit) break;
            if (onlyLinked(hit)) continue;
            Memory m = hit.memory();
            if (isEntity(m)) {
                hits.putIfAbsent(m.id(), m);
            } else if (isObservation(m)) {
                parentOf(view, m).ifPresent(p -> hits.putIfAbsent(p.id(), p));
            }
        }
        return hits.values().stream().map(m -> load(view, m)).toList();
    }

    /**
     * Whether recall found this memory only by walking an edge from a hit (an entity's observations and
     * relations link it to its neighbours): a neighbour is context, not a match, so it is no search result.
     */
    private static boolean onlyLinked(RecalledMemory hit) {
        return hit.contributions().stream().noneMatch(c -> c.name().equals(MATCH) && c.value() > 0);
    }

    /** The contribution recall gives for a lexical, semantic or exact match (RecallRanking's name for it). */
    private static final String MATCH = "match";

    /**
     * server-memory's own search, for those who want it unbounded: every entity whose name, type or one
     * of whose observations contains {@code query}, ignoring case, in graph order.
     */
    public List<Entity> matchAll(String zone, String query) {
        String q = query == null ? "" : query.toLowerCase(Locale.ROOT);
        return entitiesOf(zone(zone)).stream().filter(e -> e.name().toLowerCase(Locale.ROOT).contains(q)
                || e.entityType().toLowerCase(Locale.ROOT).contains(q)
                || e.observationTexts().stream().anyMatch(o -> o.toLowerCase(Locale.ROOT).contains(q))).toList();
    }

    /** The zone's entities by last read (else last change), most recent first. */
    public List<Entity> recent(String zone, int limit) {
        if (limit < 1) throw new InvalidArgumentException("limit", "must be at least 1, got " + limit);
        String z = zone(zone);
        List<Memory> ms = new ArrayList<>();
        store.forEach(z, m -> {
            if (isEntity(m)) ms.add(m);
        });
        ms.sort(Comparator.comparing((Memory m) -> m.lastAccessedAt() != null ? m.lastAccessedAt() : m.updatedAt()).reversed());
        View view = View.of(store);
        return ms.stream().limit(limit).map(m -> load(view, m)).toList();
    }

    // ---------------------------------------------------------------- internals

    private List<Entity> entitiesOf(String zone) {
        List<Memory> ms = new ArrayList<>();
        store.forEach(zone, m -> {
            if (isEntity(m)) ms.add(m);
        });
        View view = View.of(store);
        return ms.stream().map(m -> load(view, m)).toList();
    }

    private List<Relation> relations(Collection<Entity> entities, java.util.function.Predicate<Edge> keep) {
        Map<String, Memory> known = new LinkedHashMap<>();
        entities.forEach(e -> known.put(e.id(), e.memory()));
        Set<Edge> edges = new LinkedHashSet<>();
        for (Entity e : entities) {
            for (Edge edge : store.edges(e.id())) if (isRelation(edge) && keep.test(edge)) edges.add(edge);
        }
        List<Edge> sorted = new ArrayList<>(edges);
        sorted.sort(Comparator.comparing(Edge::createdAt));
        List<Relation> out = new ArrayList<>();
        for (Edge edge : sorted) {
            Memory from = known.containsKey(edge.fromId()) ? known.get(edge.fromId()) : store.get(edge.fromId()).orElse(null);
            Memory to = known.containsKey(edge.toId()) ? known.get(edge.toId()) : store.get(edge.toId()).orElse(null);
            if (from == null || to == null || !isEntity(from) || !isEntity(to)) continue;
            out.add(new Relation(from.zone(), from.name(), to.zone(), to.name(), edge.label()));
        }
        return out;
    }

    private void recordRead(List<Entity> entities) {
        if (!entities.isEmpty()) store.recordAccess(entities.stream().map(Entity::id).toList(), clock.instant());
    }

    /**
     * An entity a native forget archived, brought back with the draft's type (and its old observations),
     * or null when the name holds none: the graph profiles cannot see an archived entity, so creating it
     * again revives it rather than refusing the name.
     */
    private Memory revived(StoreTransaction tx, String zone, EntityDraft d) {
        Optional<Memory> archived = tx.getByName(zone, d.name())
                .filter(m -> m.type() == MemoryType.ENTITY && m.status() != MemoryStatus.ACTIVE);
        if (archived.isEmpty()) return null;
        Memory m = archived.get().toBuilder().status(MemoryStatus.ACTIVE).entityType(d.entityType())
                .content(entityContent(d.name(), d.entityType())).updatedAt(clock.instant()).build();
        tx.update(m);
        return m;
    }

    private Memory insertEntity(StoreTransaction tx, String zone, String name, String type, Integer interval) {
        Optional<Memory> taken = tx.getByName(zone, name);
        if (taken.isPresent()) throw nameTaken(name, zone, taken.get());
        Instant t = stamp();
        Memory.Builder b = Memory.builder().id(ids.get()).key(freeKey(tx, zone, name)).zone(zone).type(MemoryType.ENTITY)
                .content(entityContent(name, type)).name(name).entityType(type).quality(0.5)
                .origin(Origin.AGENT).session(session).branch(branch).createdAt(t).updatedAt(t);
        if (interval != null) b.reviewIntervalDays(interval);
        Memory m = b.build();
        tx.insert(m);
        return m;
    }

    /**
     * Adds the texts {@code entity} lacks (each once), in order, with this review interval (null: default) and the
     * stamps an importer carried for the text, if any ({@code stamps} by text); returns them. With {@code rewritten}
     * not null, a text the entity held before this call is saved again (last write now, this review interval when
     * one is given) and listed there, each once.
     */
    private List<String> addObservations(StoreTransaction tx, Memory entity, List<String> texts, Integer reviewIntervalDays,
                                         List<String> rewritten, Map<String, Restored> stamps) {
        Map<String, Memory> before = new LinkedHashMap<>();
        observationsOf(View.of(tx), entity.id()).forEach(o -> before.putIfAbsent(o.content(), o));
        Set<String> held = new HashSet<>(before.keySet());
        List<String> added = new ArrayList<>();
        for (String text : texts) {
            Memory old = before.remove(text);
            if (old != null && rewritten != null) {
                Memory.Builder b = old.toBuilder().updatedAt(clock.instant());
                if (reviewIntervalDays != null) b.reviewIntervalDays(reviewIntervalDays);
                tx.update(b.build());
                rewritten.add(text);
            }
            if (!held.add(text)) continue;
            // no display name: an observation is found through its observation_of edge, and its brain-tools
            // name ("<entity>: <text>") is derived when shown, so an entity may be called "A: b" beside A's "b"
            String keyText = entity.name() + OBSERVATION_NAME_SEPARATOR + text;
            Instant t = stamp();
            Memory.Builder b = Memory.builder().id(ids.get()).key(freeKey(tx, entity.zone(), keyText)).zone(entity.zone())
                    .type(MemoryType.FACT).content(text).entityType(OBSERVATION_TYPE).quality(0.5)
                    .origin(Origin.AGENT).session(session).branch(branch).createdAt(t).updatedAt(t)
                    .reviewIntervalDays(reviewIntervalDays != null ? reviewIntervalDays : Memory.DEFAULT_REVIEW_INTERVAL_DAYS);
            Restored stamp = stamps.get(text);
            Memory o = (stamp == null ? b : stamped(b, stamp)).build();
            tx.insert(o);
            tx.addEdge(new Edge(o.id(), entity.id(), EdgeType.OBSERVATION_OF, null, t));
            added.add(text);
        }
        if (!added.isEmpty()) tx.update(tx.get(entity.id()).orElseThrow().toBuilder().updatedAt(clock.instant()).build());
        return added;
    }

    private Memory endpoint(StoreTransaction tx, String zone, String name, MissingEndpoint policy, int[] placeholders) {
        Optional<Memory> m = entityNamed(tx, zone, name);
        if (m.isPresent()) return m.get();
        if (policy == MissingEndpoint.FAIL) throw notFound(name, zone);
        placeholders[0]++;
        return insertEntity(tx, zone, name, UNKNOWN_TYPE, null);
    }

    /** The entity with this exact name; a memory of that name that is no entity (an observation) counts as none. */
    private static Optional<Memory> entityNamed(StoreTransaction tx, String zone, String name) {
        return tx.getByName(zone, name).filter(EntityGraph::isEntity);
    }

    private static Entity load(View view, Memory entity) {
        return new Entity(entity, observationsOf(view, entity.id()));
    }

    /** The entity's observations in the order their edges were added. */
    private static List<Memory> observationsOf(View view, String entityId) {
        List<Memory> out = new ArrayList<>();
        for (Edge e : view.edges(entityId)) {
            if (e.type() == EdgeType.OBSERVATION_OF && e.toId().equals(entityId)) {
                view.get(e.fromId()).filter(EntityGraph::isObservation).ifPresent(out::add);
            }
        }
        return out;
    }

    /** See {@link #findObservation}. */
    private static Optional<Observation> observationNamed(View view, String zone, String name) {
        int width = OBSERVATION_NAME_SEPARATOR.length();
        for (int at = name.indexOf(OBSERVATION_NAME_SEPARATOR); at >= 0; at = name.indexOf(OBSERVATION_NAME_SEPARATOR, at + 1)) {
            String text = name.substring(at + width);
            if (at == 0 || text.isEmpty()) continue;
            Optional<Memory> parent = view.byName(zone, name.substring(0, at)).filter(EntityGraph::isEntity);
            if (parent.isEmpty()) continue;
            Entity entity = load(view, parent.get());
            for (Memory o : entity.observations()) {
                if (o.content().equals(text)) return Optional.of(new Observation(entity, o));
            }
        }
        return Optional.empty();
    }

    private static Optional<Memory> parentOf(View view, Memory observation) {
        for (Edge e : view.edges(observation.id())) {
            if (e.type() == EdgeType.OBSERVATION_OF && e.fromId().equals(observation.id())) {
                return view.get(e.toId()).filter(EntityGraph::isEntity);
            }
        }
        return Optional.empty();
    }

    static boolean isEntity(Memory m) {
        return m.type() == MemoryType.ENTITY && m.name() != null && m.entityType() != null
                && m.status() == MemoryStatus.ACTIVE;
    }

    static boolean isObservation(Memory m) {
        return OBSERVATION_TYPE.equals(m.entityType()) && m.type() != MemoryType.ENTITY;
    }

    private static boolean isRelation(Edge e) {
        return e.type() == EdgeType.RELATED && e.label() != null;
    }

    private static boolean same(Edge e, String fromId, String toId, String label) {
        return e.type() == EdgeType.RELATED && e.fromId().equals(fromId) && e.toId().equals(toId) && label.equals(e.label());
    }

    /** What lexical recall reads of an entity: its name, and its type when it has one. */
    static String entityContent(String name, String type) {
        return type == null || type.isBlank() ? name : name + " (" + type + ")";
    }

    /** The name's slug, with -2, -3… when the zone holds it already. */
    private static String freeKey(StoreTransaction tx, String zone, String name) {
        String base = MemoryRules.slug(name);
        if (tx.getByKey(zone, base).isEmpty()) return base;
        for (int n = 2; ; n++) {
            String suffix = "-" + n;
            String head = base.length() + suffix.length() > MAX_KEY_CHARS ? base.substring(0, MAX_KEY_CHARS - suffix.length()) : base;
            String key = head + suffix;
            if (tx.getByKey(zone, key).isEmpty()) return key;
        }
    }

    /** Now, or a millisecond after the last stamp if the clock has not moved past it. */
    private Instant stamp() {
        Instant now = clock.instant();
        return lastStamp.updateAndGet(prev -> now.isAfter(prev) ? now : prev.plusMillis(1));
    }

    private static String zone(String zone) {
        return MemoryRules.zone("zone", zone == null ? MemoryRules.DEFAULT_ZONE : zone);
    }

    private static void requireName(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(field, value == null ? "is required" : "is blank; send a name with at least one visible character");
        }
        requireBounded(field, value, "");
    }

    private static void requireType(String field, String value) {
        if (value == null) throw new InvalidArgumentException(field, "is required: a type such as \"person\"");
        // a label, bounded as a name is: it is printed with the entity in every answer that shows it
        requireBounded(field, value, "; send a short type such as \"person\"");
    }

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidArgumentException(field, value == null ? "is required" : "is blank; send the observation's text");
        }
        requireBounded(field, value, "; split it into several observations");
    }

    /** Storable text (no lone surrogate) of at most {@link MemoryRules#MAX_CONTENT_CHARS}; {@code advice} ends the refusal. */
    private static void requireBounded(String field, String value, String advice) {
        MemoryRules.requireWellFormed(field, value);
        if (value.length() > MemoryRules.MAX_CONTENT_CHARS) {
            throw new InvalidArgumentException(field, "is " + value.length() + " characters, over the limit of "
                    + MemoryRules.MAX_CONTENT_CHARS + advice);
        }
    }

    private static void requireInterval(String field, int days) {
        Freshness.checkedInterval(field, days);
    }


    private static NotFoundException notFound(String name, String zone) {
        return new NotFoundException("Entity with name " + name + " not found in zone '" + zone + "'");
    }

    private static InvalidArgumentException nameTaken(String name, String zone, Memory holder) {
        return new InvalidArgumentException("name", MemoryRules.shown(name) + " is taken in zone '" + zone + "' by "
                + (isObservation(holder) ? "an observation" : "memory " + holder.key()) + "; choose another name");
    }

    /** The reads a loader needs, from the store or from inside a transaction (which sees its own writes). */
    private interface View {
        Optional<Memory> get(String id);

        List<Edge> edges(String id);

        Optional<Memory> byName(String zone, String name);

        static View of(StoreTransaction tx) {
            return new View() {
                public Optional<Memory> get(String id) { return tx.get(id); }
                public List<Edge> edges(String id) { return tx.edges(id); }
                public Optional<Memory> byName(String zone, String name) { return tx.getByName(zone, name); }
            };
        }

        static View of(MemoryStore store) {
            return new View() {
                public Optional<Memory> get(String id) { return store.get(id); }
                public List<Edge> edges(String id) { return store.edges(id); }
                public Optional<Memory> byName(String zone, String name) { return store.getByName(zone, name); }
            };
        }
    }
}
