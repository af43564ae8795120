package dev.engram.engine.lifecycle;

import java.util.List;

/** What one step did (or, in a dry run, would do): how many memories it looked at, how many it changed, and why. */
public record StepReport(String step, int examined, int changed, List<Finding> findings) {
    public StepReport {
        findings = List.copyOf(findings);
    }

    /**
     * One change or discovery: {@code kind} says what (decayed, tier, archived, purged, merged, compressed,
     * anchored, contradiction, …), {@code memoryIds} which memories (for a pair, the older first), {@code detail}
     * a sentence an agent or operator can act on.
     */
    public record Finding(String kind, List<String> memoryIds, String detail) {
        public Finding {
            memoryIds = List.copyOf(memoryIds);
        }
    }
}
