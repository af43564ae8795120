package dev.engram.engine;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The vectors of an engine's most recent queries, by model and text. An agent often asks the same thing again
 * within a session (Memento keeps query embeddings an hour, and suggests a change of query after the third
 * repeat in 30 minutes), and the query's forward pass is the longest part of a recall with the default model
 * (2-4 ms of a 6-8 ms recall over stdio; docs/benchmarks.md), so a repeat skips it. A model gives one text one
 * vector, so nothing here goes stale; the model id is part of the key.
 */
final class RecentQueryVectors {
    /** Queries kept: a session's worth, 384 floats each at about 1.6 KB. */
    static final int CAPACITY = 256;

    private record Key(String modelId, String query) {
    }

    private final Map<Key, float[]> vectors = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, float[]> eldest) {
            return size() > CAPACITY;
        }
    };

    /** A copy of the vector last computed for {@code query} by {@code modelId}, or null. */
    synchronized float[] get(String modelId, String query) {
        float[] v = vectors.get(new Key(modelId, query));
        return v == null ? null : v.clone();
    }

    synchronized void put(String modelId, String query, float[] vector) {
        vectors.put(new Key(modelId, query), vector.clone());
    }

    synchronized int size() {
        return vectors.size();
    }
}
