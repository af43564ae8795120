package dev.engram.engine.zone;

import java.util.List;

/** What a merge did per source zone, and in total. */
public record MergeResult(List<String> mergedZones, List<Failed> failedZones, int entitiesCopied, int entitiesSkipped,
                          int relationsCopied) {
    public record Failed(String zone, String reason) {
    }

    public MergeResult {
        mergedZones = List.copyOf(mergedZones);
        failedZones = List.copyOf(failedZones);
    }
}
