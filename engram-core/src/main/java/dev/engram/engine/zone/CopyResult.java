package dev.engram.engine.zone;

import java.util.List;

/**
 * What a copy (or move) did: the names copied (as named in the target: a renamed entity appears under
 * its new name), the ones skipped with the reason, the relations written in the target, and the
 * relations left out because after the copy they would join an entity to itself (a relation from
 * an entity to its namesake in the target zone, when that namesake is overwritten by the copy).
 */
public record CopyResult(List<String> copied, List<Skipped> skipped, int relationsCopied, List<String> relationsSkipped) {
    public record Skipped(String name, String reason) {
    }

    public CopyResult {
        copied = List.copyOf(copied);
        skipped = List.copyOf(skipped);
        relationsSkipped = List.copyOf(relationsSkipped);
    }

    public CopyResult(List<String> copied, List<Skipped> skipped, int relationsCopied) {
        this(copied, skipped, relationsCopied, List.of());
    }
}
