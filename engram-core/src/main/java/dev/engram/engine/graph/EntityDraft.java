package dev.engram.engine.graph;

import java.util.List;

/**
 * An entity to create: its exact name, free-text type and observations in order. {@code
 * reviewIntervalDays} null means the model's default (brain-tools' 7 days). Checked by {@link EntityGraph}.
 */
public record EntityDraft(String name, String entityType, List<String> observations, Integer reviewIntervalDays) {
    public EntityDraft {
        observations = observations == null ? List.of() : List.copyOf(observations);
    }

    public EntityDraft(String name, String entityType, List<String> observations) {
        this(name, entityType, observations, null);
    }
}
