package dev.engram.engine.lifecycle;

import java.time.Instant;
import java.util.List;

/**
 * What one maintenance cycle did (or, in a dry run, would do): the policy, the zone ({@code null}: every
 * zone), the process that ran it ({@code owner}), when, and each step's report in the order they ran.
 */
public record MaintenanceReport(String policy, String zone, boolean dryRun, String owner, Instant startedAt,
                                Instant finishedAt, List<StepReport> steps) {
    public MaintenanceReport {
        steps = List.copyOf(steps);
    }

    /** Memories changed (or that would be) over every step. */
    public int changed() {
        return steps.stream().mapToInt(StepReport::changed).sum();
    }
}
