package dev.engram.spi;

import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * Nearest neighbours of {@code vector} among memories embedded by {@code modelId}, with the same
 * filters as {@link IndexQuery}. Scores are cosine similarities mapped to 0..1, higher is better.
 */
public record VectorQuery(float[] vector, String modelId, Set<String> zones, Set<MemoryType> types, Set<String> tags,
                          Set<MemoryStatus> statuses, Instant from, Instant to, int k) {
    public VectorQuery {
        Objects.requireNonNull(vector, "vector");
        Objects.requireNonNull(modelId, "modelId");
        vector = vector.clone();
        zones = zones == null ? Set.of() : Set.copyOf(zones);
        types = types == null ? Set.of() : Set.copyOf(types);
        tags = tags == null ? Set.of() : Set.copyOf(tags);
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        if (k < 1) throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
}
