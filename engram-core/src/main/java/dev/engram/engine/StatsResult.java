package dev.engram.engine;

import java.util.Map;

/**
 * Store health in numbers. {@code hitRate} is the share of memories recalled at least once;
 * {@code duplicateRate} the share whose content exactly repeats another memory's; quality buckets
 * are low (&lt;0.3), medium (&lt;0.6) and high.
 */
public record StatsResult(String zone, long total, Map<String, Long> byType, Map<String, Long> byZone,
                          Map<String, Long> byStatus, Map<String, Long> byTier, long withTtl, long expired,
                          Map<String, Long> qualityBuckets, double averageQuality, double hitRate,
                          double duplicateRate, long edges, long pinned) {
    public StatsResult {
        byType = Map.copyOf(byType);
        byZone = Map.copyOf(byZone);
        byStatus = Map.copyOf(byStatus);
        byTier = Map.copyOf(byTier);
        qualityBuckets = Map.copyOf(qualityBuckets);
    }
}
