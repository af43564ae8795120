package dev.engram.engine;

import java.util.List;

/**
 * Import these records (as {@link Engine#export} writes them) under {@code policy}; with {@code dryRun}
 * the same plan is computed and reported, and nothing is written.
 */
public record ImportCommand(List<ExportRecord> records, ImportPolicy policy, boolean dryRun) {
    public ImportCommand {
        records = List.copyOf(records);
        policy = policy == null ? ImportPolicy.KEEP_NEWER : policy;
    }

    /** The safe default: keep newer stored memories, and write. */
    public static ImportCommand of(List<ExportRecord> records) {
        return new ImportCommand(records, ImportPolicy.KEEP_NEWER, false);
    }
}
