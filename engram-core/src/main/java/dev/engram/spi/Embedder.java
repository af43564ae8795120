package dev.engram.spi;

import java.util.List;

/**
 * Turns text into a dense vector for semantic recall.
 * <ul>
 *   <li>Every vector has {@link #dimensions()} components and unit length (L2 norm 1, within float
 *       rounding), so cosine similarity is a plain dot product.
 *   <li>The same {@link #modelId()} always yields comparable vectors, across processes and restarts.
 *       Vectors made under different model ids are never compared: a caller that finds a stored
 *       vector of another model id re-embeds instead (the id names model and any pre-processing, e.g.
 *       {@code minilm-l6-v2-q}, {@code openai:text-embedding-3-small}).
 *   <li>{@link #embedAll} returns one vector per text, in input order; it may batch or parallelise.
 *   <li>Failures (model missing, endpoint down, wrong dimensions) throw an unchecked exception whose
 *       message says what to fix; an implementation never returns a zero or partial vector instead.
 * </ul>
 * Implementations are thread-safe.
 */
public interface Embedder {

    /** Stable name of the model and its pre-processing; part of every stored vector's identity. */
    String modelId();

    /** Number of components of every vector this embedder returns. */
    int dimensions();

    /** The unit-length vector of one text. */
    float[] embed(String text);

    /** One unit-length vector per text, in input order. */
    List<float[]> embedAll(List<String> texts);

    /**
     * The vector of a search query, compared with the vectors {@link #embed} and {@link #embedAll} made of
     * stored memories. The same as {@code embed} unless the model was trained with different prefixes for
     * queries and passages (e5: {@code "query: "} / {@code "passage: "}; bge: an instruction before the
     * query), where leaving them out costs retrieval quality.
     */
    default float[] embedQuery(String query) {
        return embed(query);
    }

    /**
     * The cosine this model gives two unrelated texts: the median over a fixed set of unrelated pairs,
     * measured when the model loads. Models differ here: MiniLM puts unrelated texts near 0, e5 near 0.7,
     * bge near 0.35, so a threshold on raw cosines means something else for each. Every similarity
     * threshold is applied to cosines rescaled by it ({@code (cos − u) / (1 − u)}, see
     * {@code dev.engram.engine.Similarity}), which keeps the thresholds chosen with MiniLM meaningful for
     * any model. 0 (no rescaling) unless the implementation measured it.
     */
    default double unrelatedCosine() {
        return 0;
    }

    /**
     * Whether {@link #embed} can answer now. An embedder that loads in the background returns false
     * until it is loaded (and forever if loading failed); callers then stay lexical. Never blocks.
     */
    default boolean ready() {
        return true;
    }
}
