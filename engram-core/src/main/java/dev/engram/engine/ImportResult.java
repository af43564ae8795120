package dev.engram.engine;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an import did ({@code dryRun} false) or would do: one line per record of the file, in file order,
 * how many versions and edges were (would be) added in all, and how many edges were left out because
 * their other end is in neither the file nor the store.
 */
public record ImportResult(List<Line> lines, int versionsAdded, int edgesAdded, int edgesDropped, boolean dryRun) {
    public ImportResult {
        lines = List.copyOf(lines);
    }

    /** One record: the memory it names, its outcome, and why (empty when the outcome says it all). */
    public record Line(String id, String key, String zone, ImportOutcome outcome, String detail) {
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
