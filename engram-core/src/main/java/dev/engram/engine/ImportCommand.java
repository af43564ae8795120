package dev.engram.engine;

import dev.engram.memory.ZoneInfo;
import java.util.List;

/**
 * Import these records (as {@link Engine#export} writes them) and these zone records (as {@link Engine#zoneRecords}
 * reads them) under {@code policy}; with {@code dryRun} the same plan is computed and reported, and nothing is written.
 * Zone records follow {@link dev.engram.engine.zone.ZoneRecords}' rule whatever the policy: a zone's description has
 * no versions to keep an overwritten one in, so a stored description always stays.
 */
public record ImportCommand(List<ExportRecord> records, ImportPolicy policy, boolean dryRun, List<ZoneInfo> zones) {
    public ImportCommand {
        records = List.copyOf(records);
        policy = policy == null ? ImportPolicy.KEEP_NEWER : policy;
        zones = zones == null ? List.of() : List.copyOf(zones);
    }

    /** Records without zone records (a file written before exports carried them, a profile's own import). */
    public ImportCommand(List<ExportRecord> records, ImportPolicy policy, boolean dryRun) {
        this(records, policy, dryRun, List.of());
    }

    /** The safe default: keep newer stored memories, and write. */
    public static ImportCommand of(List<ExportRecord> records) {
        return new ImportCommand(records, ImportPolicy.KEEP_NEWER, false);
    }
}
