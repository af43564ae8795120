package dev.engram.engine.zone;

import java.util.List;

/**
 * What a merge did per source zone, and in total. With source deletion asked for, {@code deletedZones}
 * are the sources that went (everything in them was merged) and {@code keptZones} the ones kept, each
 * with how many of its memories the merge did not carry over and why.
 */
public record MergeResult(List<String> mergedZones, List<Failed> failedZones, int entitiesCopied, int entitiesSkipped,
                          int relationsCopied, int relationsSkipped, List<String> deletedZones, List<Kept> keptZones) {
    public record Failed(String zone, String reason) {
    }

    public record Kept(String zone, int memoriesLeft, String reason) {
    }

    public MergeResult {
        mergedZones = List.copyOf(mergedZones);
        failedZones = List.copyOf(failedZones);
        deletedZones = List.copyOf(deletedZones);
        keptZones = List.copyOf(keptZones);
    }

    public MergeResult(List<String> mergedZones, List<Failed> failedZones, int entitiesCopied, int entitiesSkipped,
                       int relationsCopied) {
        this(mergedZones, failedZones, entitiesCopied, entitiesSkipped, relationsCopied, 0, List.of(), List.of());
    }
}
