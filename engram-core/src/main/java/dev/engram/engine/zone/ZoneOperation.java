package dev.engram.engine.zone;

import dev.engram.engine.HardDeletion;

import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.engine.graph.Graph;
import dev.engram.engine.graph.MissingEndpoint;
import dev.engram.engine.graph.Relation;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.engine.graph.Restored;
import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import dev.engram.memory.ZoneInfo;
import dev.engram.rank.Freshness;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Zones as things one manages (brain-tools' memory zones): create with descriptions, list with counts,
 * delete with confirmation, copy and move entities between zones, merge zones, stats. A zone exists
 * when it has a {@link ZoneInfo} or holds memories; {@value MemoryRules#DEFAULT_ZONE} always exists
 * and is never deleted. Copies are built on {@link EntityGraph}: each entity is one write, so a copy
 * interrupted half-way leaves whole entities only; relations may cross zones, and a relation of a
 * copied entity to one that stays behind keeps pointing at it in its zone.
 */
public final class ZoneOperation {
    private final MemoryStore store;
    private final SearchIndex index;
    private final Clock clock;
    private final EntityGraph graph;

    public ZoneOperation(MemoryStore store, SearchIndex index, Clock clock, EntityGraph graph) {
        this.store = Objects.requireNonNull(store, "store");
        this.index = Objects.requireNonNull(index, "index");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.graph = Objects.requireNonNull(graph, "graph");
    }

    public boolean exists(String zone) {
        return MemoryRules.DEFAULT_ZONE.equals(zone) || store.zoneInfo(zone).isPresent() || store.zones().contains(zone);
    }

    /** The zone, checked to exist: a {@link NotFoundException} listing the zones there are otherwise. */
    public String require(String field, String zone) {
        String z = MemoryRules.zone(field, zone);
        if (!exists(z)) {
            throw new NotFoundException("zone '" + z + "' does not exist; create it with create_zone, or use one of: "
                    + String.join(", ", names(store.zoneInfos())));
        }
        return z;
    }

    /** Creates a zone; the default zone and a zone that has descriptions already are refused. */
    public ZoneInfo create(String name, String shortDescription, String description) {
        String z = creatable(name);
        Instant now = clock.instant();
        return store.write(tx -> {
            if (tx.zoneInfo(z).isPresent()) {
                throw new ConflictException("zone '" + z + "' exists already; pick another name or delete it first");
            }
            ZoneInfo info = new ZoneInfo(z, blankToNull(shortDescription), blankToNull(description), now, now);
            tx.putZone(info);
            return info;
        });
    }

    /** A name a zone may be created under: valid, and not the default zone, which always exists. */
    private static String creatable(String name) {
        String z = MemoryRules.newZone("name", name);
        if (z.equals(MemoryRules.DEFAULT_ZONE)) {
            throw new InvalidArgumentException("name", "'default' always exists; choose another zone name");
        }
        return z;
    }

    /**
     * Creates the zone, or describes again one that exists (brain-tools' create_zone upserts its zone
     * metadata): a description sent replaces the one there, one left out (null or blank) is kept, as is
     * the creation time. The default zone is refused as in {@link #create}.
     */
    public ZoneInfo createOrUpdate(String name, String shortDescription, String description) {
        String z = creatable(name);
        Instant now = clock.instant();
        return store.write(tx -> {
            Optional<ZoneInfo> old = tx.zoneInfo(z);
            String shortText = blankToNull(shortDescription), text = blankToNull(description);
            ZoneInfo info = new ZoneInfo(z, shortText != null ? shortText : old.map(ZoneInfo::shortDescription).orElse(null),
                    text != null ? text : old.map(ZoneInfo::description).orElse(null),
                    old.map(ZoneInfo::createdAt).orElse(now), now);
            tx.putZone(info);
            return info;
        });
    }

    /**
     * An importer's zone record: these descriptions, and the dates the other system kept (null: now). The default
     * zone may have one; the name is checked as {@link #create} checks it.
     */
    public ZoneInfo record(String name, String shortDescription, String description, Instant createdAt, Instant updatedAt) {
        String z = z(name);
        Instant now = clock.instant();
        Instant created = createdAt != null ? createdAt : now;
        return new ZoneInfo(z, blankToNull(shortDescription), blankToNull(description), created,
                updatedAt != null ? updatedAt : created.isAfter(now) ? created : now);
    }

    private static String z(String name) {
        String z = MemoryRules.zone("name", name);
        return z.equals(MemoryRules.DEFAULT_ZONE) ? z : MemoryRules.newZone("name", z);
    }

    /** What {@link #importGraph} did (or, in a dry run, would do): the zone records and the graph. */
    public record GraphImport(ZoneRecords.Outcome zones, EntityGraph.ImportSummary graph) {
    }

    /**
     * An importer's file that spans zones, in one write: its zone records under {@link ZoneRecords}' rule (a stored
     * description stays), then every zone's entities, then the relations ({@link EntityGraph#importGraphs}). A refused
     * item or a store failure part-way leaves nothing written, so the same file can simply be imported again; a dry run
     * counts the same and writes nothing.
     */
    public GraphImport importGraph(List<ZoneInfo> zones, List<EntityGraph.ZonePart> parts, List<RelationDraft> relations,
                                   boolean dryRun) {
        ZoneRecords.Outcome[] outcome = {ZoneRecords.Outcome.NONE};
        // the records go in the graph's own write (rolled back with it on a dry run), so they are written for real there
        EntityGraph.ImportSummary s = graph.importGraphs(parts, relations, tx -> outcome[0] = ZoneRecords.write(tx, zones, false),
                dryRun);
        return new GraphImport(outcome[0], s);
    }

    /** What the default zone says of itself when no record describes it: brain-tools' words for it. */
    public static final String DEFAULT_ZONE_DESCRIPTION = "Default knowledge zone";

    /**
     * Every zone, sorted, default first, with its descriptions, dates and counts. A zone without a record (it exists
     * because memories were written to it) dates from its first memory; the default zone, which exists as long as the
     * store does, from the store's first memory or zone record (now, for an empty store), and is described as
     * {@value #DEFAULT_ZONE_DESCRIPTION}, as brain-tools' default zone was from its first start. Such a zone's update
     * time is its creation time: a zone's dates are its record's, which only changes when it is described again.
     */
    public List<ZoneSummary> list() {
        Map<String, int[]> counts = new HashMap<>();
        Map<String, Instant> firstMemory = new HashMap<>();
        store.forEach(null, m -> {
            int[] c = counts.computeIfAbsent(m.zone(), k -> new int[2]);
            c[1]++;
            if (m.type() == MemoryType.ENTITY && m.name() != null) c[0]++;
            firstMemory.merge(m.zone(), m.createdAt(), ZoneOperation::earlier);
        });
        // the records read once: for the store's birth, the zones' names and each zone's dates
        Map<String, ZoneInfo> records = new HashMap<>();
        for (ZoneInfo r : store.zoneInfos()) records.put(r.name(), r);
        Instant storeBorn = clock.instant();
        for (Instant t : firstMemory.values()) storeBorn = earlier(storeBorn, t);
        for (ZoneInfo r : records.values()) storeBorn = earlier(storeBorn, r.createdAt());
        List<ZoneSummary> out = new ArrayList<>();
        for (String z : names(records.values())) {
            Optional<ZoneInfo> info = Optional.ofNullable(records.get(z));
            boolean isDefault = z.equals(MemoryRules.DEFAULT_ZONE);
            int[] c = counts.getOrDefault(z, new int[2]);
            String description = info.map(ZoneInfo::description).orElse(null);
            if (description == null && isDefault) description = DEFAULT_ZONE_DESCRIPTION;
            Instant created = info.map(ZoneInfo::createdAt).orElse(isDefault ? storeBorn : firstMemory.get(z));
            out.add(new ZoneSummary(z, info.map(ZoneInfo::shortDescription).orElse(null), description, created,
                    info.map(ZoneInfo::updatedAt).orElse(created), c[0], c[1]));
        }
        return out;
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** Every zone, the default first, then by name: those memories were written to and those with a record. */
    private List<String> names(java.util.Collection<ZoneInfo> records) {
        Set<String> all = new TreeSet<>(store.zones());
        records.forEach(r -> all.add(r.name()));
        all.remove(MemoryRules.DEFAULT_ZONE);
        List<String> out = new ArrayList<>();
        out.add(MemoryRules.DEFAULT_ZONE);
        out.addAll(all);
        return out;
    }

    /**
     * Deletes the zone and everything in it (entities, observations, native memories, relations touching
     * them, also from other zones). {@code confirm} must be true; the default zone cannot be deleted.
     * Each memory becomes a tombstone, restorable for a week like any hard forget. Returns how many went.
     */
    public int delete(String name, boolean confirm) {
        String z = MemoryRules.zone("name", name);
        if (z.equals(MemoryRules.DEFAULT_ZONE)) {
            throw new InvalidArgumentException("name", "the default zone cannot be deleted; delete its entities instead");
        }
        if (!confirm) {
            throw new InvalidArgumentException("confirm", "must be true to delete zone '" + z
                    + "' and everything in it; send \"confirm\": true");
        }
        require("name", z);
        List<String> ids = new ArrayList<>();
        store.forEach(z, m -> ids.add(m.id()));
        int deleted = store.write(tx -> {
            int n = 0;
            // tombstones, as a native hard forget: each memory restorable for HardDeletion.RESTORE_WINDOW
            java.time.Instant now = clock.instant();
            for (String id : ids) {
                java.util.Optional<dev.engram.memory.Memory> m = tx.get(id);
                if (m.isPresent()) {
                    HardDeletion.delete(tx, m.get(), now);
                    n++;
                }
            }
            tx.removeZone(z);
            return n;
        });
        index.catchUpAfterWrite();
        return deleted;
    }

    /** Copies the named entities; see {@link #copy(List, String, String, boolean, ConflictPolicy)}. */
    public CopyResult copy(List<String> names, String source, String target, boolean copyRelations, boolean overwrite) {
        return copy(names, source, target, copyRelations, overwrite ? ConflictPolicy.OVERWRITE : ConflictPolicy.SKIP);
    }

    /**
     * Copies the named entities (type, review interval, relevance, verification, observations in order) from {@code source} to
     * {@code target}. A name missing from the source is skipped with the reason; a name the target holds
     * follows {@code conflicts}; one overwritten takes the original's type, interval, relevance, verification
     * and observations and keeps the observations of its own. With {@code copyRelations}, every relation touching a copied entity is
     * written again in the target: an end that was copied (or renamed) points at its copy, the other end
     * at the entity of that name in the target when there is one, else at the original in its own zone.
     * A relation that would then join an entity to itself (the original's relation to the namesake it
     * overwrites) is left out and reported in {@link CopyResult#relationsSkipped()}.
     *
     * <p>Everything is planned and checked before the first write, so a copy that cannot be done is
     * refused with nothing changed (the graph offers no one write spanning these steps).
     */
    public CopyResult copy(List<String> names, String source, String target, boolean copyRelations, ConflictPolicy conflicts) {
        Plan plan = plan(names, source, target, copyRelations, conflicts, false);
        return write(plan);
    }

    /** One entity to copy: the original and its name in the target. */
    private record Planned(Entity original, String as) {
    }

    /** A copy worked out and checked, not written yet. */
    private record Plan(String from, String to, List<Planned> entities, List<CopyResult.Skipped> skipped,
                        List<RelationDraft> relations, List<String> relationsSkipped) {
    }

    /**
     * With {@code moving}, the originals will be deleted: a relation between a moved entity and one of the
     * source zone that stays is also written from where that one stays, so it keeps its relation (the
     * copy's relation alone may point at the namesake in the target instead).
     */
    private Plan plan(List<String> names, String source, String target, boolean copyRelations, ConflictPolicy conflicts,
                      boolean moving) {
        String from = require("source_zone", source);
        String to = MemoryRules.newZone("target_zone", target);
        if (from.equals(to)) throw new InvalidArgumentException("target_zone", "is the source zone; send a different zone");
        if (names == null || names.isEmpty()) throw new InvalidArgumentException("names", "is required: the names of the entities to copy");
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i) == null || names.get(i).isBlank()) {
                throw new InvalidArgumentException("names[" + i + "]", "is blank; send the name of an entity of zone '" + from + "'");
            }
        }
        List<Planned> planned = new ArrayList<>();
        List<CopyResult.Skipped> skipped = new ArrayList<>();
        Map<String, String> renamed = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        for (String name : new LinkedHashSet<>(names)) {
            Optional<Entity> e = graph.find(from, name);
            if (e.isEmpty()) {
                skipped.add(new CopyResult.Skipped(name, "not found in source zone '" + from + "'"));
                continue;
            }
            String as = name;
            Optional<Entity> existing = graph.find(to, name);
            if (existing.isPresent()) {
                if (conflicts == ConflictPolicy.SKIP) {
                    skipped.add(new CopyResult.Skipped(name, "already exists in target zone '" + to + "' and overwrite is off"));
                    continue;
                }
                if (conflicts == ConflictPolicy.RENAME) as = freeName(to, name + "_from_" + from, taken);
            }
            taken.add(as);
            renamed.put(name, as);
            planned.add(new Planned(e.get(), as));
        }
        List<RelationDraft> drafts = new ArrayList<>();
        List<String> relationsSkipped = new ArrayList<>();
        if (copyRelations && !planned.isEmpty()) {
            Set<List<String>> seen = new HashSet<>();
            for (Relation r : graph.relationsTouching(planned.stream().map(Planned::original).toList())) {
                String fz = endZone(r.fromZone(), r.from(), from, to, renamed);
                String fn = endName(r.fromZone(), r.from(), from, renamed);
                String tz = endZone(r.toZone(), r.to(), from, to, renamed);
                String tn = endName(r.toZone(), r.to(), from, renamed);
                if (fz.equals(tz) && fn.equals(tn)) {
                    relationsSkipped.add(describe(r) + ": would join " + MemoryRules.shown(fn) + " to itself in zone '" + fz
                            + "' after the copy; Engram keeps relations between two different entities");
                    continue;
                }
                if (seen.add(List.of(fz, fn, tz, tn, r.type()))) {
                    requireEnd(fz, fn, to, taken, r);
                    requireEnd(tz, tn, to, taken, r);
                    drafts.add(new RelationDraft(fz, fn, tz, tn, r.type()));
                }
                if (!moving) continue;
                // the staying end as it is, the moved end at its new place
                String kfz = movedZone(r.fromZone(), r.from(), from, to, renamed), ktz = movedZone(r.toZone(), r.to(), from, to, renamed);
                if (seen.add(List.of(kfz, fn, ktz, tn, r.type()))) drafts.add(new RelationDraft(kfz, fn, ktz, tn, r.type()));
            }
        }
        return new Plan(from, to, planned, skipped, drafts, relationsSkipped);
    }

    /** An end of a relation to write must exist now or be one of the copies; otherwise the copy is refused unwritten. */
    private void requireEnd(String zone, String name, String to, Set<String> copies, Relation r) {
        if (zone.equals(to) && copies.contains(name)) return;
        if (graph.find(zone, name).isEmpty()) {
            throw new ConflictException("cannot copy relation " + describe(r) + ": its end " + MemoryRules.shown(name)
                    + " in zone '" + zone + "' does not exist; nothing was copied. Copy without relations, or create it first");
        }
    }

    private static String describe(Relation r) {
        return r.fromZone() + ":" + r.from() + " -" + r.type() + "-> " + r.toZone() + ":" + r.to();
    }

    private CopyResult write(Plan plan) {
        List<String> copied = new ArrayList<>();
        for (Planned p : plan.entities()) {
            Entity original = p.original();
            // an overwritten entity takes the original's type, interval and observations, and keeps its own
            // observations: brain-tools' overwrite replaced the entity document, not its observation entities
            graph.create(plan.to(), List.of(new EntityDraft(p.as(), original.entityType(), original.observationTexts(),
                    original.memory().reviewIntervalDays())), ExistingEntity.MERGE);
            // the copy is the same knowledge: as important, and as fresh or stale, as the original
            Memory m = original.memory();
            graph.restore(plan.to(), List.of(new Restored(p.as(), m.relevance(), m.verifyCount(), Freshness.verifiedAt(m), null, null)));
            copied.add(p.as());
        }
        int relations = plan.relations().isEmpty() ? 0 : graph.relate(plan.to(), plan.relations(), MissingEndpoint.FAIL).size();
        return new CopyResult(copied, plan.skipped(), relations, plan.relationsSkipped());
    }

    private String endZone(String zone, String name, String from, String to, Map<String, String> renamed) {
        if (zone.equals(from) && renamed.containsKey(name)) return to;
        if (zone.equals(from) && graph.find(to, name).isPresent()) return to;
        return zone;
    }

    /** The zone of a relation's end once the move is done: the target for a moved entity, its own zone otherwise. */
    private static String movedZone(String zone, String name, String from, String to, Map<String, String> renamed) {
        return zone.equals(from) && renamed.containsKey(name) ? to : zone;
    }

    private static String endName(String zone, String name, String from, Map<String, String> renamed) {
        return zone.equals(from) ? renamed.getOrDefault(name, name) : name;
    }

    private String freeName(String zone, String base, Set<String> taken) {
        String name = base;
        for (int i = 2; taken.contains(name) || graph.find(zone, name).isPresent()
                || store.getByName(zone, name).isPresent(); i++) {
            name = base + "_" + i;
        }
        return name;
    }

    /**
     * Copies, then deletes the copied entities from the source. With {@code moveRelations} their relations
     * are written again first (so they survive the move, crossing zones where the other end stays): an
     * entity of the source zone that is not moved keeps its relation to a moved one, now pointing into the
     * target, even when the copy's relation points at its namesake there. The whole move is planned and
     * checked before anything is written.
     */
    public CopyResult move(List<String> names, String source, String target, boolean moveRelations, boolean overwrite) {
        Plan plan = plan(names, source, target, moveRelations, overwrite ? ConflictPolicy.OVERWRITE : ConflictPolicy.SKIP, true);
        CopyResult copy = write(plan);
        List<String> originals = plan.entities().stream().map(p -> p.original().name()).toList();
        if (!originals.isEmpty()) graph.delete(plan.from(), originals, true);
        return copy;
    }

    /**
     * Copies every entity of each source zone into {@code target} under {@code conflicts}, relations
     * included; a source zone that does not exist or holds no entity is reported as failed. With
     * {@code deleteSources}, a merged source zone is deleted afterwards only when everything in it was
     * carried over; one that keeps memories the merge did not copy (entities skipped on a name
     * conflict, native memories that are not entities) is kept and reported with the count.
     */
    public MergeResult merge(List<String> sources, String target, boolean deleteSources, ConflictPolicy conflicts) {
        if (sources == null || sources.isEmpty()) throw new InvalidArgumentException("source_zones", "is required: at least one zone to merge");
        String to = MemoryRules.newZone("target_zone", target);
        if (sources.stream().anyMatch(s -> to.equals(s))) {
            throw new InvalidArgumentException("source_zones", "includes the target zone '" + to + "'; leave it out");
        }
        List<String> merged = new ArrayList<>();
        List<MergeResult.Failed> failed = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        List<MergeResult.Kept> kept = new ArrayList<>();
        int copied = 0, skipped = 0, relations = 0, relationsSkipped = 0;
        for (String source : new LinkedHashSet<>(sources)) {
            String s = MemoryRules.zone("source_zones", source);
            if (!exists(s)) {
                failed.add(new MergeResult.Failed(s, "zone does not exist"));
                continue;
            }
            List<Entity> entities = graph.read(s).entities();
            if (entities.isEmpty()) {
                failed.add(new MergeResult.Failed(s, "zone has no entities"));
                continue;
            }
            CopyResult r = copy(entities.stream().map(Entity::name).toList(), s, to, true, conflicts);
            copied += r.copied().size();
            skipped += r.skipped().size();
            relations += r.relationsCopied();
            relationsSkipped += r.relationsSkipped().size();
            merged.add(s);
            if (!deleteSources) continue;
            if (s.equals(MemoryRules.DEFAULT_ZONE)) {
                kept.add(new MergeResult.Kept(s, memoriesIn(s), "the default zone is never deleted"));
                continue;
            }
            Set<String> skippedNames = new HashSet<>();
            r.skipped().forEach(k -> skippedNames.add(k.name()));
            int carried = 0, skippedMemories = 0;
            for (Entity e : entities) {
                if (skippedNames.contains(e.name())) skippedMemories += 1 + e.observations().size();
                else carried += 1 + e.observations().size();
            }
            int left = memoriesIn(s) - carried;
            if (left > 0) {
                int others = Math.max(0, left - skippedMemories);
                kept.add(new MergeResult.Kept(s, left, left + " memor" + (left == 1 ? "y" : "ies") + " of zone '" + s
                        + "' were not merged: " + r.skipped().size() + " entit" + (r.skipped().size() == 1 ? "y" : "ies")
                        + " skipped on a name conflict (with " + (skippedMemories - r.skipped().size()) + " observations) and "
                        + others + " native memor" + (others == 1 ? "y" : "ies") + " that are not entities; the zone was kept."
                        + " Merge again with overwrite_conflicts 'rename' or 'overwrite', move what is left, or delete_zone it"));
            } else {
                delete(s, true);
                deleted.add(s);
            }
        }
        return new MergeResult(merged, failed, copied, skipped, relations, relationsSkipped, deleted, kept);
    }

    private int memoriesIn(String zone) {
        int[] n = new int[1];
        store.forEach(zone, m -> n[0]++);
        return n[0];
    }

    /** Counts of the zone's entities by type and of the relations touching them by label. */
    public ZoneStats stats(String zone) {
        String z = require("zone", zone);
        Graph g = graph.read(z);
        Map<String, Integer> types = new TreeMap<>();
        int observations = 0;
        for (Entity e : g.entities()) {
            types.merge(e.entityType(), 1, Integer::sum);
            observations += e.observations().size();
        }
        Map<String, Integer> labels = new TreeMap<>();
        g.relations().forEach(r -> labels.merge(r.type(), 1, Integer::sum));
        int[] memories = new int[1];
        store.forEach(z, m -> memories[0]++);
        return new ZoneStats(z, g.entities().size(), observations, g.relations().size(), memories[0], types, labels);
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

}
