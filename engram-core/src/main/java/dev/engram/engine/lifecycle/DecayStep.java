package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.rank.NumericImportance;
import java.time.Instant;
import java.util.List;

/**
 * {@code decay}: writes the typed decay back. Each active memory that fades under the policy (not an
 * anchor, not permanent, not of an exempt type, not already at the floor) gets its stored importance set
 * to the faded one and {@link Memory#lastDecayAt()} set to the cycle's instant, so reading it afterwards
 * fades only the time since. The memory's update time stays: fading is not an edit (native tiers and
 * "changed since" answers must not move). A memory whose relevance is a weight above the importance range
 * (a graph profile's ×10) is left alone: writing a faded importance would lose that weight.
 */
public final class DecayStep implements MaintenanceStep {
    private final LifecyclePolicy policy;

    public DecayStep(LifecyclePolicy policy) {
        this.policy = policy;
    }

    @Override
    public String name() {
        return "decay";
    }

    /** The importance {@code m} is written back with at {@code now}, or NaN when it does not fade. */
    double faded(Memory m, Instant now) {
        if (m.status() != MemoryStatus.ACTIVE || m.relevance() > 2 || policy.decay().exempt(m, false)
                || policy.exempt(m, now)) {
            return Double.NaN;
        }
        double stored = NumericImportance.of(m);
        double faded = policy.decay().effective(m, stored, now, false);
        return faded < stored ? faded : Double.NaN;
    }

    @Override
    public StepReport run(MaintenanceContext c) {
        Instant now = c.now();
        List<Memory> live = Steps.withStatus(c, MemoryStatus.ACTIVE);
        List<Memory> fading = live.stream().filter(m -> !Double.isNaN(faded(m, now))).toList();
        List<StepReport.Finding> done = Steps.apply(c, fading, (tx, m) -> !Double.isNaN(faded(m, now)), (tx, m) -> {
            double after = faded(m, now);
            tx.update(m.toBuilder().importance(NumericImportance.level(after)).relevance(NumericImportance.toRelevance(after))
                    .lastDecayAt(now).build());
            return finding(m, after);
        }, m -> finding(m, faded(m, now)));
        return new StepReport(name(), live.size(), done.size(), Steps.listed(done));
    }

    private StepReport.Finding finding(Memory m, double after) {
        return new StepReport.Finding("decayed", List.of(m.id()), "importance " + Steps.num(NumericImportance.of(m)) + " -> "
                + Steps.num(after) + " (" + m.type().wireName() + ", half-life " + policy.decay().halfLifeDays(m.type()) + " days)");
    }
}
