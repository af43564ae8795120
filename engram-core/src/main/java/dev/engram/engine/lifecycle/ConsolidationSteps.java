package dev.engram.engine.lifecycle;

import java.util.List;

/** The consolidation steps of one profile, in the order a cycle runs them: merge, compress, contradictions. */
public final class ConsolidationSteps {
    private ConsolidationSteps() {
    }

    /** @param judge null: contradictions are found by the deterministic check alone */
    public static List<MaintenanceStep> of(ConsolidationPolicy policy, ContradictionJudge judge) {
        return List.of(new MergeStep(policy), new CompressStep(policy), new ContradictionStep(policy, judge));
    }
}
