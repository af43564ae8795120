package dev.engram.engine.graph;

import java.util.List;

/**
 * An entity to create: its exact name, free-text type and observations in order. {@code
 * reviewIntervalDays} null means the model's default (brain-tools' 7 days); {@code relevance} null keeps
 * the entity's relevance (1 for a new one), else sets it ({@value EntityGraph#MIN_RELEVANCE}..{@value
 * EntityGraph#MAX_RELEVANCE}, brain-tools' relevanceScore). Checked by {@link EntityGraph}.
 */
public record EntityDraft(String name, String entityType, List<String> observations, Integer reviewIntervalDays,
                          Double relevance) {
    public EntityDraft {
        observations = observations == null ? List.of() : List.copyOf(observations);
    }

    public EntityDraft(String name, String entityType, List<String> observations, Integer reviewIntervalDays) {
        this(name, entityType, observations, reviewIntervalDays, null);
    }

    public EntityDraft(String name, String entityType, List<String> observations) {
        this(name, entityType, observations, null, null);
    }
}
