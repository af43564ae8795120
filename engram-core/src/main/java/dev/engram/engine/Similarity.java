package dev.engram.engine;

import dev.engram.spi.Embedder;

/**
 * Cosines on one scale whatever the model: every similarity threshold of the engine (the semantic
 * layer's noise floor, near-duplicates, the lifecycle's merge, compression and contradiction cosines)
 * was chosen on MiniLM, whose unrelated texts score about 0. Other models lift every pair (e5-small-v2
 * gives unrelated texts about 0.7), so a raw cosine of 0.7 is noise for e5 and a strong match for MiniLM.
 * The rescaled cosine {@code (cos − u) / (1 − u)}, with {@code u} the model's
 * {@link Embedder#unrelatedCosine()}, puts unrelated texts near 0 and identical ones at 1 for every model.
 */
public final class Similarity {
    private Similarity() {
    }

    /** The rescaled cosine of a vector-index hit (the index scores {@code (1 + cos) / 2}). */
    public static double ofIndexScore(double indexScore, double unrelatedCosine) {
        return rescaled(2 * indexScore - 1, unrelatedCosine);
    }

    /** {@code cos} rescaled by the model's unrelated cosine {@code u}; at most 1. */
    public static double rescaled(double cos, double unrelatedCosine) {
        double u = unrelatedCosine;
        if (!(u > 0 && u < 1)) return cos;
        return Math.min(1, (cos - u) / (1 - u));
    }

    /**
     * The unrelated cosine of vectors made by {@code modelId}, when {@code embedder} is that model and has
     * measured it; otherwise NaN: vectors of a model no longer loaded have no known scale, and callers
     * leave them out of similarity decisions rather than guess.
     */
    public static double unrelatedCosine(Embedder embedder, String modelId) {
        if (embedder == null || !embedder.ready() || !embedder.modelId().equals(modelId)) return Double.NaN;
        return embedder.unrelatedCosine();
    }
}
