package dev.engram.engine.lifecycle;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.rank.NumericImportance;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code contradictions}: pairs of memories that cannot both be right, found and flagged, never settled by force.
 * <ul>
 *   <li><b>candidates</b>: for each active memory, its {@link ConsolidationPolicy#neighbours()} nearest of the same
 *       topic: by vector at cosine above {@link ConsolidationPolicy#contradictionCosine()}, or, when it has no
 *       vector, by words at Jaccard {@link ConsolidationPolicy#contradictionJaccard()} or more;</li>
 *   <li><b>deterministic check first</b> ({@link ContradictionCheck}): values that disagree about one subject, or
 *       opposite polarity;</li>
 *   <li><b>then the judge</b>, when one is configured, on pairs the check left undecided (at most
 *       {@link ConsolidationPolicy#maxPerCycle()} calls per run); a judge that fails leaves the pair undecided;</li>
 *   <li><b>a confirmed contradiction</b>: a {@code contradicts} edge from the newer to the older, the older's
 *       importance multiplied by {@link ConsolidationPolicy#contradictionFactor()} (not below
 *       {@link ConsolidationPolicy#importanceFloor()}), and a finding naming the pair to settle. Nothing is archived
 *       or deleted: which one is right is the agent's or the user's call.</li>
 * </ul>
 * Idempotent: a pair already joined by {@code contradicts} (or one superseding the other) is not reported again.
 * Incremental: after a complete run (no pair left for later), the next compares only memories written or changed
 * since (a store mark per zone), each with all its neighbours.
 */
public final class ContradictionStep implements MaintenanceStep {
    private static final Logger log = LoggerFactory.getLogger(ContradictionStep.class);
    private final ConsolidationPolicy policy;
    private final ContradictionJudge judge;

    /** @param judge null: the deterministic check alone */
    public ContradictionStep(ConsolidationPolicy policy, ContradictionJudge judge) {
        this.policy = policy;
        this.judge = judge;
    }

    @Override
    public String name() {
        return "contradictions";
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        c.index().catchUp();
        List<Memory> memories = Neighbours.active(c);
        Instant since = Neighbours.lastRun(c, name());
        Set<String> compared = new HashSet<>();
        Set<String> lowered = new HashSet<>();
        List<StepReport.Finding> findings = new ArrayList<>();
        int changed = 0, judged = 0, undecided = 0;
        boolean complete = true;
        for (Memory m : memories) {
            if (changed >= policy.maxPerCycle()) {
                complete = false;
                break;
            }
            if (!Neighbours.changedSince(m, since)) continue;
            List<Neighbours.Near> near = Neighbours.byVector(c, m, Set.of(), policy.neighbours());
            boolean byVector = !near.isEmpty() || c.store().embedding(m.id()).isPresent();
            if (!byVector) near = Neighbours.byWords(c, m, Set.of(), policy.neighbours());
            for (Neighbours.Near n : near) {
                if (changed >= policy.maxPerCycle()) break;
                Memory o = n.memory();
                boolean close = n.byVector() ? n.similarity() > policy.contradictionCosine()
                        : n.similarity() >= policy.contradictionJaccard();
                if (!close || !policy.topicOf(o).equals(policy.topicOf(m))) continue;
                if (!compared.add(m.id().compareTo(o.id()) < 0 ? m.id() + " " + o.id() : o.id() + " " + m.id())) continue;
                if (settled(c, m, o)) continue;
                boolean mOlder = m.createdAt().isBefore(o.createdAt())
                        || m.createdAt().equals(o.createdAt()) && m.id().compareTo(o.id()) < 0;
                Memory older = mOlder ? m : o, newer = mOlder ? o : m;
                String why;
                Optional<ContradictionCheck.Finding> f = ContradictionCheck.compare(older.content(), newer.content());
                if (f.isPresent()) {
                    why = f.get().basis().wireName() + " (" + f.get().detail() + ")";
                } else if (judge != null && judged < policy.maxPerCycle()) {
                    judged++;
                    ContradictionJudge.Verdict v;
                    try {
                        v = judge.judge(older.content(), newer.content());
                    } catch (RuntimeException e) {
                        log.warn("contradiction judge failed on {} / {}; pair left undecided: {}", older.id(), newer.id(), e.toString());
                        undecided++;
                        continue;
                    }
                    if (v != ContradictionJudge.Verdict.CONTRADICTION) continue;
                    why = "the judge's verdict";
                } else {
                    continue;
                }
                // an older memory contradicted twice in one run is lowered once
                boolean lower = !lowered.contains(older.id());
                double before = NumericImportance.of(older);
                double after = !lower ? before
                        : Math.max(policy.importanceFloor(), Math.round(before * policy.contradictionFactor() * 1000) / 1000.0);
                if (!c.dryRun() && !confirm(c, older, newer, lower ? after : null)) continue;
                lowered.add(older.id());
                changed++;
                findings.add(new StepReport.Finding("contradiction", List.of(older.id(), newer.id()),
                        "to settle: '" + older.key() + "' (\"" + shorten(older.content()) + "\") and '" + newer.key()
                                + "' (\"" + shorten(newer.content()) + "\") contradict by " + why + "; "
                                + (c.dryRun() ? "would link them and lower" : "linked them (contradicts) and lowered")
                                + " the older's importance " + (lower ? before + " → " + after : "(already lowered this run)")
                                + "; keep the right one and forget or amend the other"));
            }
        }
        if (undecided > 0) {
            findings.add(new StepReport.Finding("undecided", List.of(), undecided
                    + " candidate pair(s) left undecided: the judge did not answer; the next run asks again"));
        }
        if (changed > 0 && !c.dryRun()) c.index().catchUpAfterWrite();
        // the next run compares only what changed after this one, unless this one left pairs for later
        if (complete && undecided == 0 && changed < policy.maxPerCycle()) Neighbours.ran(c, name());
        return new StepReport(name(), memories.size(), changed, findings);
    }

    /** Already flagged, or one supersedes the other: nothing new to report. */
    private static boolean settled(MaintenanceContext c, Memory a, Memory b) {
        for (Edge e : c.store().edges(a.id())) {
            if (!e.other(a.id()).equals(b.id())) continue;
            if (e.type() == EdgeType.CONTRADICTS || e.type() == EdgeType.SUPERSEDES) return true;
        }
        return false;
    }

    /** The edge, and the older's importance set to {@code importance} unless that is null; false if either is gone. */
    private static boolean confirm(MaintenanceContext c, Memory older, Memory newer, Double importance) {
        return c.store().write(tx -> {
            Memory o = tx.get(older.id()).orElse(null);
            if (o == null || o.status() != MemoryStatus.ACTIVE || tx.get(newer.id()).isEmpty()) return false;
            tx.addEdge(new Edge(newer.id(), older.id(), EdgeType.CONTRADICTS, c.now()));
            if (importance != null && NumericImportance.of(o) != importance) {
                tx.update(o.toBuilder().importance(NumericImportance.level(importance))
                        .relevance(NumericImportance.toRelevance(importance)).updatedAt(c.now()).build());
            }
            return true;
        });
    }

    private static String shorten(String s) {
        String flat = s.strip().replaceAll("\\s+", " ");
        return flat.length() <= 80 ? flat : flat.substring(0, 79) + "…";
    }
}
