package dev.engram.engine.view;

import dev.engram.memory.Importance;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Tier;
import dev.engram.rank.FreshnessLabel;
import java.time.Instant;
import java.util.List;

/**
 * One memory as a viewer draws it: identity, what colours it (tier, freshness), what sizes it (degree)
 * and a short snippet; the full memory is one {@code detail} call away.
 * {@code importance} is null when the memory has none set (automatic).
 */
public record GraphNode(String id, String key, String name, MemoryType type, MemoryStatus status, Importance importance,
                        boolean pinned, int degree, Tier tier, FreshnessLabel freshness, double freshnessValue,
                        List<String> tags, Instant updatedAt, String snippet) {
    public GraphNode {
        tags = List.copyOf(tags);
    }
}
