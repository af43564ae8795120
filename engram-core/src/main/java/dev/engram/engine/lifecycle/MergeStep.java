package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code merge}: near-duplicates become one memory ({@link DuplicateMerge}'s rule: which stays, what moves, the
 * others archived and restorable). Two passes over the active memories of the zone, pinned ones (anchors) left
 * alone as Memento leaves them:
 * <ol>
 *   <li>content hash: the same type and the same content after {@link DuplicateMerge#normalized normalisation};</li>
 *   <li>meaning: the same type and topic ({@link ConsolidationPolicy#topicOf}) and embedding cosine at or above
 *       {@link ConsolidationPolicy#mergeCosine()}, among each memory's {@link ConsolidationPolicy#neighbours()}
 *       nearest, unless the deterministic {@link ContradictionCheck} finds the two disagree (a number, date or
 *       version, or the polarity): such a pair is a contradiction, left to the {@code contradictions} step.</li>
 * </ol>
 * At most {@link ConsolidationPolicy#maxPerCycle()} merges per run. After a complete run, the next one's second
 * pass starts only from memories written or changed since (a store mark per zone). A dry run plans the same and
 * writes nothing.
 */
public final class MergeStep implements MaintenanceStep {
    private final ConsolidationPolicy policy;

    public MergeStep(ConsolidationPolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "merge";
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        c.index().catchUp();
        List<Memory> memories = Neighbours.active(c).stream().filter(m -> !m.pinned()).toList();
        Map<String, List<Memory>> byHash = new LinkedHashMap<>();
        for (Memory m : memories) {
            byHash.computeIfAbsent(m.zone() + "\0" + m.type() + "\0" + DuplicateMerge.normalized(m.content()),
                    k -> new ArrayList<>()).add(m);
        }
        Map<String, String> hashOf = new HashMap<>();
        byHash.forEach((h, group) -> group.forEach(m -> hashOf.put(m.id(), h)));
        List<DuplicateMerge.Merge> merges = new ArrayList<>(DuplicateMerge.plan(memories,
                m -> byHash.get(hashOf.get(m.id())), (a, b) -> 1.0, "hash", policy.maxPerCycle()));

        Set<String> gone = new HashSet<>();
        merges.forEach(mg -> gone.add(mg.dropped().id()));
        Set<String> eligible = new HashSet<>();
        memories.forEach(m -> eligible.add(m.id()));
        Instant since = Neighbours.lastRun(c, name());
        // the semantic pass starts from what changed since the last complete run; its neighbours may be any
        List<Memory> rest = memories.stream().filter(m -> !gone.contains(m.id()) && Neighbours.changedSince(m, since)).toList();
        Map<String, Double> cosine = new HashMap<>();
        merges.addAll(DuplicateMerge.plan(rest, m -> {
            List<Memory> near = new ArrayList<>();
            for (Neighbours.Near n : Neighbours.byVector(c, m, Set.of(m.type()), policy.neighbours())) {
                Memory o = n.memory();
                if (n.similarity() < policy.mergeCosine() || !eligible.contains(o.id()) || gone.contains(o.id())
                        || o.type() != m.type() || !policy.topicOf(o).equals(policy.topicOf(m))) continue;
                // "max 40 connections" and "max 80 connections" embed almost alike: a contradiction, not a duplicate,
                // and merging would archive one of the two values unseen; the contradictions step reports the pair
                if (ContradictionCheck.compare(o.content(), m.content()).isPresent()) continue;
                cosine.put(pair(m, o), n.similarity());
                near.add(o);
            }
            return near;
        }, (a, b) -> cosine.getOrDefault(pair(a, b), -1.0), "meaning", policy.maxPerCycle() - merges.size()));

        List<StepReport.Finding> findings = new ArrayList<>();
        int changed = 0;
        for (DuplicateMerge.Merge mg : merges) {
            boolean done = c.dryRun() || DuplicateMerge.apply(c.store(), mg, c.now()).isPresent();
            if (!done) continue;
            changed++;
            findings.add(new StepReport.Finding("merged", List.of(mg.kept().id(), mg.dropped().id()),
                    "'" + mg.dropped().key() + "' " + (c.dryRun() ? "would merge" : "merged") + " into '" + mg.kept().key()
                            + "' (" + (mg.basis().equals("hash") ? "same content" : "cosine " + mg.similarity())
                            + "); archived, restorable with forget action=restore"));
        }
        if (changed > 0 && !c.dryRun()) c.index().catchUpAfterWrite();
        if (merges.size() < policy.maxPerCycle()) Neighbours.ran(c, name());
        return new StepReport(name(), memories.size(), changed, findings);
    }

    private static String pair(Memory a, Memory b) {
        return a.id().compareTo(b.id()) < 0 ? a.id() + " " + b.id() : b.id() + " " + a.id();
    }
}
