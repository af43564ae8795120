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
                    + String.join(", ", names()));
        }
        return z;
    }

    /** Creates a zone; the default zone and a zone that has descriptions already are refused. */
    public ZoneInfo create(String name, String shortDescription, String description) {
        String z = MemoryRules.newZone("name", name);
        if (z.equals(MemoryRules.DEFAULT_ZONE)) {
            throw new InvalidArgumentException("name", "'default' always exists; choose another zone name");
        }
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

    /** Every zone, sorted, default first, with its descriptions and counts. */
    public List<ZoneSummary> list() {
        Map<String, int[]> counts = new HashMap<>();
        store.forEach(null, m -> {
            int[] c = counts.computeIfAbsent(m.zone(), k -> new int[2]);
            c[1]++;
            if (m.type() == MemoryType.ENTITY && m.name() != null) c[0]++;
        });
        List<ZoneSummary> out = new ArrayList<>();
        for (String z : names()) {
            Optional<ZoneInfo> info = store.zoneInfo(z);
            int[] c = counts.getOrDefault(z, new int[2]);
            out.add(new ZoneSummary(z, info.map(ZoneInfo::shortDescription).orElse(null),
                    info.map(ZoneInfo::description).orElse(null), info.map(ZoneInfo::createdAt).orElse(null),
                    info.map(ZoneInfo::updatedAt).orElse(null), c[0], c[1]));
        }
        return out;
    }

    private List<String> names() {
        Set<String> all = new TreeSet<>(store.zones());
        store.zoneInfos().forEach(i -> all.add(i.name()));
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
        index.catchUpSoon();
        return deleted;
    }

    /** Copies the named entities; see {@link #copy(List, String, String, boolean, ConflictPolicy)}. */
    public CopyResult copy(List<String> names, String source, String target, boolean copyRelations, boolean overwrite) {
        return copy(names, source, target, copyRelations, overwrite ? ConflictPolicy.OVERWRITE : ConflictPolicy.SKIP);
    }

    /**
     * Copies the named entities (type, review interval, relevance, verification, observations in order) from {@code source} to
     * {@code target}. A name missing from the source is skipped with the reason; a name the target holds
     * follows {@code conflicts}. With {@code copyRelations}, every relation touching a copied entity is
     * written again in the target: an end that was copied (or renamed) points at its copy, the other end
     * at the entity of that name in the target when there is one, else at the original in its own zone.
     */
    public CopyResult copy(List<String> names, String source, String target, boolean copyRelations, ConflictPolicy conflicts) {
        String from = require("source_zone", source);
        String to = MemoryRules.newZone("target_zone", target);
        if (from.equals(to)) throw new InvalidArgumentException("target_zone", "is the source zone; send a different zone");
        if (names == null || names.isEmpty()) throw new InvalidArgumentException("names", "is required: the names of the entities to copy");
        List<String> copied = new ArrayList<>();
        List<CopyResult.Skipped> skipped = new ArrayList<>();
        Map<String, String> renamed = new LinkedHashMap<>();
        List<Entity> originals = new ArrayList<>();
        for (String name : new LinkedHashSet<>(names)) {
            Optional<Entity> e = graph.find(from, name);
            if (e.isEmpty()) {
                skipped.add(new CopyResult.Skipped(name, "not found in source zone '" + from + "'"));
                continue;
            }
            Entity original = e.get();
            String as = name;
            Optional<Entity> existing = graph.find(to, name);
            if (existing.isPresent()) {
                if (conflicts == ConflictPolicy.SKIP) {
                    skipped.add(new CopyResult.Skipped(name, "already exists in target zone '" + to + "' and overwrite is off"));
                    continue;
                }
                if (conflicts == ConflictPolicy.RENAME) {
                    as = freeName(to, name + "_from_" + from);
                } else {
                    List<String> stale = new ArrayList<>(existing.get().observationTexts());
                    stale.removeAll(original.observationTexts());
                    if (!stale.isEmpty()) graph.deleteObservations(to, name, stale);
                }
            }
            graph.create(to, List.of(new EntityDraft(as, original.entityType(), original.observationTexts(),
                    original.memory().reviewIntervalDays())), ExistingEntity.MERGE);
            // the copy is the same knowledge: as important, and as fresh or stale, as the original
            Memory m = original.memory();
            graph.restore(to, List.of(new Restored(as, m.relevance(), m.verifyCount(), Freshness.verifiedAt(m), null, null)));
            renamed.put(name, as);
            originals.add(original);
            copied.add(as);
        }
        int relations = 0;
        if (copyRelations && !originals.isEmpty()) {
            List<RelationDraft> drafts = new ArrayList<>();
            for (Relation r : graph.relationsTouching(originals)) {
                drafts.add(new RelationDraft(endZone(r.fromZone(), r.from(), from, to, renamed),
                        endName(r.fromZone(), r.from(), from, renamed), endZone(r.toZone(), r.to(), from, to, renamed),
                        endName(r.toZone(), r.to(), from, renamed), r.type()));
            }
            relations = graph.relate(to, drafts, MissingEndpoint.FAIL).size();
        }
        return new CopyResult(copied, skipped, relations);
    }

    private String endZone(String zone, String name, String from, String to, Map<String, String> renamed) {
        if (zone.equals(from) && renamed.containsKey(name)) return to;
        if (zone.equals(from) && graph.find(to, name).isPresent()) return to;
        return zone;
    }

    private static String endName(String zone, String name, String from, Map<String, String> renamed) {
        return zone.equals(from) ? renamed.getOrDefault(name, name) : name;
    }

    private String freeName(String zone, String base) {
        String name = base;
        for (int i = 2; graph.find(zone, name).isPresent() || store.getByName(zone, name).isPresent(); i++) name = base + "_" + i;
        return name;
    }

    /**
     * Copies, then deletes the copied entities from the source. With {@code moveRelations} their relations
     * are written again first (so they survive the move, crossing zones where the other end stays).
     */
    public CopyResult move(List<String> names, String source, String target, boolean moveRelations, boolean overwrite) {
        CopyResult copy = copy(names, source, target, moveRelations, overwrite);
        List<String> originals = new ArrayList<>();
        for (String n : new LinkedHashSet<>(names)) {
            if (copy.skipped().stream().noneMatch(s -> s.name().equals(n))) originals.add(n);
        }
        if (!originals.isEmpty()) graph.delete(MemoryRules.zone("source_zone", source), originals, true);
        return copy;
    }

    /**
     * Copies every entity of each source zone into {@code target} under {@code conflicts}, relations
     * included; a source zone that does not exist or holds no entity is reported as failed. With
     * {@code deleteSources}, each merged source zone is deleted afterwards.
     */
    public MergeResult merge(List<String> sources, String target, boolean deleteSources, ConflictPolicy conflicts) {
        if (sources == null || sources.isEmpty()) throw new InvalidArgumentException("source_zones", "is required: at least one zone to merge");
        String to = MemoryRules.newZone("target_zone", target);
        if (sources.stream().anyMatch(s -> to.equals(s))) {
            throw new InvalidArgumentException("source_zones", "includes the target zone '" + to + "'; leave it out");
        }
        List<String> merged = new ArrayList<>();
        List<MergeResult.Failed> failed = new ArrayList<>();
        int copied = 0, skipped = 0, relations = 0;
        for (String source : new LinkedHashSet<>(sources)) {
            String s = MemoryRules.zone("source_zones", source);
            if (!exists(s)) {
                failed.add(new MergeResult.Failed(s, "zone does not exist"));
                continue;
            }
            List<String> names = graph.read(s).entities().stream().map(Entity::name).toList();
            if (names.isEmpty()) {
                failed.add(new MergeResult.Failed(s, "zone has no entities"));
                continue;
            }
            CopyResult r = copy(names, s, to, true, conflicts);
            copied += r.copied().size();
            skipped += r.skipped().size();
            relations += r.relationsCopied();
            merged.add(s);
            if (deleteSources && !s.equals(MemoryRules.DEFAULT_ZONE)) delete(s, true);
        }
        return new MergeResult(merged, failed, copied, skipped, relations);
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
