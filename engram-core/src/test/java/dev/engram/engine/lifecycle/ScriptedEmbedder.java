package dev.engram.engine.lifecycle;

import dev.engram.spi.Embedder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An embedder whose vectors the test sets: {@link #at} places a text at a chosen cosine from a base direction; any
 * other text gets its own direction (orthogonal to every other), so only what the test arranges is close.
 */
final class ScriptedEmbedder implements Embedder {
    static final int DIMENSIONS = 64;
    private final Map<String, float[]> vectors = new HashMap<>();
    private int nextFree = 32;

    /** {@code text} at cosine {@code cos} from direction {@code base} (0..15), leaning towards its own dimension. */
    ScriptedEmbedder at(String text, int base, double cos) {
        float[] v = new float[DIMENSIONS];
        v[base] = (float) cos;
        v[16 + vectors.size() % 16] = (float) Math.sqrt(Math.max(0, 1 - cos * cos));
        vectors.put(text, v);
        return this;
    }

    @Override
    public String modelId() {
        return "scripted-v1";
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public synchronized float[] embed(String text) {
        return vectors.computeIfAbsent(text, t -> {
            float[] v = new float[DIMENSIONS];
            v[nextFree++ % DIMENSIONS] = 1;
            return v;
        }).clone();
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(this::embed).toList();
    }
}
