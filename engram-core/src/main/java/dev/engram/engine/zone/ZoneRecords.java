package dev.engram.engine.zone;

import dev.engram.memory.MemoryRules;
import dev.engram.memory.ZoneInfo;
import dev.engram.spi.StoreTransaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How an import brings zone records (descriptions, dates) into a store, for every importer: a zone the store has no
 * record of gets the file's; a stored record keeps its own descriptions (a zone's description has no versions, so the
 * file never overwrites one) and only gains the ones it lacks, and the earlier creation time. The default zone may
 * carry a record too (brain-tools' "Default knowledge zone").
 */
public final class ZoneRecords {
    /** The zones that had no record and got one, and the ones whose record gained a description or an earlier date. */
    public record Outcome(List<String> created, List<String> completed) {
        public Outcome {
            created = List.copyOf(created);
            completed = List.copyOf(completed);
        }

        public static final Outcome NONE = new Outcome(List.of(), List.of());
    }

    private ZoneRecords() {
    }

    /** Writes the records in {@code tx} (nothing with {@code dryRun}, which reports the same outcome). */
    public static Outcome write(StoreTransaction tx, List<ZoneInfo> incoming, boolean dryRun) {
        List<String> created = new ArrayList<>();
        List<String> completed = new ArrayList<>();
        for (ZoneInfo in : incoming) {
            MemoryRules.zone("zones.name", in.name());
            Optional<ZoneInfo> stored = tx.zoneInfo(in.name());
            ZoneInfo merged = stored.map(s -> merge(s, in)).orElse(in);
            if (stored.isPresent() && merged.equals(stored.get())) continue;
            (stored.isPresent() ? completed : created).add(in.name());
            if (!dryRun) tx.putZone(merged);
        }
        return new Outcome(created, completed);
    }

    /** The stored record with what it lacks taken from the incoming one. */
    static ZoneInfo merge(ZoneInfo stored, ZoneInfo incoming) {
        boolean gains = stored.shortDescription() == null && incoming.shortDescription() != null
                || stored.description() == null && incoming.description() != null;
        return new ZoneInfo(stored.name(),
                stored.shortDescription() != null ? stored.shortDescription() : incoming.shortDescription(),
                stored.description() != null ? stored.description() : incoming.description(),
                incoming.createdAt().isBefore(stored.createdAt()) ? incoming.createdAt() : stored.createdAt(),
                gains && incoming.updatedAt().isAfter(stored.updatedAt()) ? incoming.updatedAt() : stored.updatedAt());
    }
}
