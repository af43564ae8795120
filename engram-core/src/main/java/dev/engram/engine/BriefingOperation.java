package dev.engram.engine;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.rank.RecallRanking;
import dev.engram.rank.TierPolicy;
import dev.engram.spi.MemoryStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Stats and the session-start context briefing; both read the whole zone once. */
final class BriefingOperation {
    /** Per-section caps keep one noisy section from eating the whole budget. */
    private static final int SECTION_MAX = 8;

    private final MemoryStore store;
    private final Clock clock;
    private final ZoneGuard zones;
    private final RecallOperation recall;

    BriefingOperation(MemoryStore store, Clock clock, ZoneGuard zones, RecallOperation recall) {
        this.store = store;
        this.clock = clock;
        this.zones = zones;
        this.recall = recall;
    }

    StatsResult stats(String zone) {
        if (zone != null) zones.requireKnown(zone);
        Instant now = clock.instant();
        Map<String, Long> byType = new TreeMap<>(), byZone = new TreeMap<>(), byStatus = new TreeMap<>(),
                byTier = new TreeMap<>(), quality = new TreeMap<>();
        long[] counts = new long[6]; // total, withTtl, expired, accessed, edges, pinned
        double[] qualitySum = {0};
        Map<String, Integer> contents = new HashMap<>();
        store.forEach(zone, m -> {
            counts[0]++;
            byType.merge(m.type().wireName(), 1L, Long::sum);
            byZone.merge(m.zone(), 1L, Long::sum);
            byStatus.merge(m.status().wireName(), 1L, Long::sum);
            byTier.merge(TierPolicy.tierOf(m, now).wireName(), 1L, Long::sum);
            quality.merge(m.quality() < 0.3 ? "low" : m.quality() < 0.6 ? "medium" : "high", 1L, Long::sum);
            qualitySum[0] += m.quality();
            if (m.expiresAt() != null) counts[1]++;
            if (m.expiredAt(now)) counts[2]++;
            if (m.accessCount() > 0) counts[3]++;
            if (m.pinned()) counts[5]++;
            contents.merge(m.zone() + "\u0000" + m.content().strip().toLowerCase(java.util.Locale.ROOT), 1, Integer::sum);
        });
        counts[4] = store.edgeCount(zone);
        long duplicates = contents.values().stream().filter(n -> n > 1).mapToLong(n -> n - 1).sum();
        long total = counts[0];
        return new StatsResult(zone, total, byType, byZone, byStatus, byTier, counts[1], counts[2], quality,
                total == 0 ? 0 : round(qualitySum[0] / total), total == 0 ? 0 : round((double) counts[3] / total),
                total == 0 ? 0 : round((double) duplicates / total), counts[4], counts[5]);
    }

    ContextResult context(ContextQuery q, ResultCost cost) {
        zones.requireKnown(q.zone());
        Instant now = clock.instant();
        List<Memory> active = new ArrayList<>();
        store.forEach(q.zone(), m -> {
            if (m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now)) active.add(m);
        });
        Set<String> used = new HashSet<>();
        int[] tokens = {0};
        List<Memory> pinned = take(active.stream().filter(Memory::pinned)
                .sorted(Comparator.comparingInt(Memory::pinPriority).reversed()).toList(), used, tokens, q.budgetTokens(), cost);
        List<Memory> warnings = take(active.stream().filter(m -> m.type() == MemoryType.WARNING)
                .sorted(byImportance(now)).toList(), used, tokens, q.budgetTokens(), cost);
        List<Memory> relevant = List.of();
        if (q.task() != null) {
            List<Memory> hits = recall.recall(new RecallQuery(q.task(), 5, null, null, null, null, false, q.zone(),
                    null, null, null, null, null, null), cost).results().stream().map(RecalledMemory::memory).toList();
            relevant = take(hits, used, tokens, q.budgetTokens(), cost);
        }
        List<Memory> important = take(active.stream().filter(m -> m.importance() != null && m.importance().rank() >= 3)
                .sorted(byImportance(now)).toList(), used, tokens, q.budgetTokens(), cost);
        List<Memory> recent = take(active.stream().sorted(Comparator.comparing(Memory::updatedAt).reversed()).toList(),
                used, tokens, q.budgetTokens(), cost);
        return new ContextResult(q.zone(), pinned, warnings, important, recent, relevant, active.size(), tokens[0]);
    }

    private static Comparator<Memory> byImportance(Instant now) {
        return Comparator.comparingDouble((Memory m) -> m.importance() != null ? m.importance().rank()
                : 1 + RecallRanking.automaticImportance(m, now)).reversed().thenComparing(Memory::updatedAt, Comparator.reverseOrder());
    }

    /** Greedy per section: a memory that does not fit is skipped, a later, shorter one may still fit. */
    private static List<Memory> take(List<Memory> ordered, Set<String> used, int[] tokens, int budget, ResultCost cost) {
        List<Memory> out = new ArrayList<>();
        for (Memory m : ordered) {
            if (out.size() == SECTION_MAX) break;
            if (used.contains(m.id())) continue;
            int c = cost.briefingLine(m);
            if (tokens[0] + c > budget) continue;
            tokens[0] += c;
            used.add(m.id());
            out.add(m);
        }
        return out;
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
