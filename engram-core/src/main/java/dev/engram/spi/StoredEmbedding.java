package dev.engram.spi;

import java.util.Objects;

/**
 * A memory's vector and the model that made it. Vectors of different models are never compared, so
 * the model id travels with every vector.
 */
public record StoredEmbedding(String modelId, float[] vector) {
    public StoredEmbedding {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(vector, "vector");
        if (modelId.isBlank()) throw new IllegalArgumentException("modelId must not be blank");
        if (vector.length == 0) throw new IllegalArgumentException("vector must not be empty");
        vector = vector.clone();
    }

    @Override
    public float[] vector() {
        return vector.clone();
    }

    public int dimensions() {
        return vector.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredEmbedding e && modelId.equals(e.modelId) && java.util.Arrays.equals(vector, e.vector);
    }

    @Override
    public int hashCode() {
        return 31 * modelId.hashCode() + java.util.Arrays.hashCode(vector);
    }

    @Override
    public String toString() {
        return "StoredEmbedding[" + modelId + ", " + vector.length + " dims]";
    }
}
