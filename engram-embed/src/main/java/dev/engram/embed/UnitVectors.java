package dev.engram.embed;

import dev.engram.error.EmbeddingException;

/** Checks and scales vectors so that every embedder honours the SPI's unit-length contract. */
final class UnitVectors {
    private UnitVectors() {
    }

    /**
     * A unit-length copy of {@code v}; throws when it has the wrong size or no direction (all zeros,
     * NaN), because a zero vector would silently rank as "unrelated to everything".
     */
    static float[] normalized(float[] v, int dimensions, String modelId) {
        if (v.length != dimensions) {
            throw new EmbeddingException("model '" + modelId + "' returned a " + v.length
                    + "-dimensional vector, expected " + dimensions + "; check that the configured dimensions match the model");
        }
        double sumSquares = 0;
        for (float x : v) sumSquares += (double) x * x;
        double norm = Math.sqrt(sumSquares);
        if (!(norm > 0) || Double.isInfinite(norm)) {
            throw new EmbeddingException("model '" + modelId + "' returned a vector with norm " + norm
                    + "; it cannot be compared by cosine");
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) out[i] = (float) (v[i] / norm);
        return out;
    }
}
