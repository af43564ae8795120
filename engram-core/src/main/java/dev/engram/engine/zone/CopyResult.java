package dev.engram.engine.zone;

import java.util.List;

/**
 * What a copy (or move) did: the names copied (as named in the target: a renamed entity appears under
 * its new name), the ones skipped with the reason, and the relations written in the target.
 */
public record CopyResult(List<String> copied, List<Skipped> skipped, int relationsCopied) {
    public record Skipped(String name, String reason) {
    }

    public CopyResult {
        copied = List.copyOf(copied);
        skipped = List.copyOf(skipped);
    }
}
