package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import java.time.Instant;
import java.util.List;

/**
 * {@code anchor}: auto-anchor. An active memory read at least {@link AutoAnchor#minReads()} times whose
 * importance (faded to now) is at least {@link AutoAnchor#minImportance()} is pinned at
 * {@link AutoAnchor#priority()}: from then on it is exempt from decay and collection and leads recall.
 */
public final class AnchorStep implements MaintenanceStep {
    private final LifecyclePolicy policy;

    public AnchorStep(LifecyclePolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "anchor";
    }

    boolean qualifies(Memory m, Instant now) {
        AutoAnchor a = policy.anchor();
        return a.enabled() && m.status() == MemoryStatus.ACTIVE && !m.pinned() && m.accessCount() >= a.minReads()
                && policy.importance(m, now) >= a.minImportance();
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        Instant now = c.now();
        List<Memory> live = Steps.withStatus(c, MemoryStatus.ACTIVE);
        List<Memory> anchoring = live.stream().filter(m -> qualifies(m, now)).toList();
        List<StepReport.Finding> done = Steps.apply(c, anchoring, (tx, m) -> qualifies(m, now), (tx, m) -> {
            tx.update(m.toBuilder().pinPriority(policy.anchor().priority()).build());
            return finding(m, now);
        }, m -> finding(m, now));
        return new StepReport(name(), live.size(), done.size(), Steps.listed(done));
    }

    private StepReport.Finding finding(Memory m, Instant now) {
        return new StepReport.Finding("anchored", List.of(m.id()), "read " + m.accessCount() + " times, importance "
                + Steps.num(policy.importance(m, now)) + ": now an anchor (never decays, never collected)");
    }
}
