package dev.engram.engine.lifecycle;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.spi.StoreTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;

/** What the lifecycle steps share: the live memories of the cycle's zone, and batched writes that re-check each memory. */
final class Steps {
    /** Memories changed per transaction: small enough to keep a write short, large enough to keep fsyncs few. */
    static final int BATCH = 200;
    /** Findings listed per step; the counts cover every change. */
    static final int MAX_FINDINGS = 100;

    private Steps() {
    }

    /** Every memory of the context's zone (every zone when null) with this status, oldest first. */
    static List<Memory> withStatus(MaintenanceContext c, MemoryStatus status) {
        List<Memory> out = new ArrayList<>();
        c.store().forEach(c.zone(), m -> {
            if (m.status() == status) out.add(m);
        });
        return out;
    }

    /**
     * Applies {@code change} to each memory, re-read inside the transaction so a concurrent write is never
     * overwritten with a stale copy; {@code change} answers the finding to report, or empty when the fresh
     * copy no longer qualifies. Writes nothing in a dry run (then {@code change} gets the copy as read).
     * Returns the findings of the memories changed.
     */
    static List<StepReport.Finding> apply(MaintenanceContext c, List<Memory> targets, BiPredicate<StoreTransaction, Memory> stillQualifies,
                                          BiFunction<StoreTransaction, Memory, StepReport.Finding> change,
                                          java.util.function.Function<Memory, StepReport.Finding> describe) {
        List<StepReport.Finding> out = new ArrayList<>();
        if (c.dryRun()) {
            for (Memory m : targets) out.add(describe.apply(m));
            return out;
        }
        for (int i = 0; i < targets.size(); i += BATCH) {
            List<Memory> batch = targets.subList(i, Math.min(targets.size(), i + BATCH));
            out.addAll(c.store().write(tx -> {
                List<StepReport.Finding> done = new ArrayList<>();
                for (Memory m : batch) {
                    Optional<Memory> fresh = tx.get(m.id());
                    if (fresh.isPresent() && stillQualifies.test(tx, fresh.get())) done.add(change.apply(tx, fresh.get()));
                }
                return done;
            }));
        }
        if (!out.isEmpty()) c.index().catchUpAfterWrite();
        return out;
    }

    static List<StepReport.Finding> listed(List<StepReport.Finding> all) {
        return all.size() <= MAX_FINDINGS ? all : all.subList(0, MAX_FINDINGS);
    }

    static String num(double v) {
        return String.format(java.util.Locale.ROOT, "%.3f", v);
    }
}
