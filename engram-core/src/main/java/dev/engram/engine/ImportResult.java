package dev.engram.engine;

import dev.engram.engine.zone.ZoneRecords;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an import did ({@code dryRun} false) or would do: one line per record of the file, in file order,
 * how many versions and edges were (would be) added in all, how many edges were left out because
 * their other end is in neither the file nor the store, and the zones whose records it created or completed.
 */
public record ImportResult(List<Line> lines, int versionsAdded, int edgesAdded, int edgesDropped, boolean dryRun,
                          ZoneRecords.Outcome zones) {
    public ImportResult {
        lines = List.copyOf(lines);
        zones = zones == null ? ZoneRecords.Outcome.NONE : zones;
    }

    public ImportResult(List<Line> lines, int versionsAdded, int edgesAdded, int edgesDropped, boolean dryRun) {
        this(lines, versionsAdded, edgesAdded, edgesDropped, dryRun, ZoneRecords.Outcome.NONE);
    }

    /** One record: the memory it names, its outcome, and why (empty when the outcome says it all). */
    public record Line(String id, String key, String zone, ImportOutcome outcome, String detail) {
    }

    /** The same result with what the zone records did. */
    public ImportResult withZones(ZoneRecords.Outcome zones) {
        return new ImportResult(lines, versionsAdded, edgesAdded, edgesDropped, dryRun, zones);
    }

    public int count(ImportOutcome outcome) {
        return (int) lines.stream().filter(l -> l.outcome() == outcome).count();
    }

    /** Every outcome with its count, zeros included, in declaration order. */
    public Map<ImportOutcome, Integer> counts() {
        Map<ImportOutcome, Integer> counts = new EnumMap<>(ImportOutcome.class);
        for (ImportOutcome o : ImportOutcome.values()) counts.put(o, count(o));
        return counts;
    }
}
