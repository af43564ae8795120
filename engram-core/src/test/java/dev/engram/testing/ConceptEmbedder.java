package dev.engram.testing;

import dev.engram.analysis.Words;
import dev.engram.spi.Embedder;
import java.util.List;
import java.util.Map;

/**
 * A deterministic stand-in for a sentence-embedding model: each dimension is a concept, and words
 * that mean the same thing map to the same concept, so paraphrases that share no word still land
 * close together. {@link #ready} can be switched to test the loading period.
 */
public final class ConceptEmbedder implements Embedder {
    private static final Map<String, Integer> CONCEPTS = Map.ofEntries(
            Map.entry("car", 0), Map.entry("automobile", 0), Map.entry("vehicle", 0),
            Map.entry("fast", 1), Map.entry("quick", 1), Map.entry("speedy", 1),
            Map.entry("database", 2), Map.entry("db", 2), Map.entry("postgres", 2), Map.entry("datastore", 2),
            Map.entry("slow", 3), Map.entry("sluggish", 3), Map.entry("latency", 3),
            Map.entry("password", 4), Map.entry("credential", 4), Map.entry("secret", 4),
            Map.entry("deploy", 5), Map.entry("release", 5), Map.entry("ship", 5),
            Map.entry("dog", 6), Map.entry("puppy", 6), Map.entry("hound", 6),
            Map.entry("test", 7), Map.entry("tests", 7), Map.entry("spec", 7));
    private static final int CONCEPT_COUNT = 8;
    /** Other words hash into their own buckets, so sentences do not look alike just for sharing "the". */
    private static final int DIMENSIONS = CONCEPT_COUNT + 64;

    private volatile boolean ready = true;

    public void setReady(boolean ready) {
        this.ready = ready;
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public String modelId() {
        return "concepts-v1";
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public float[] embed(String text) {
        if (!ready) throw new IllegalStateException("still loading");
        float[] v = new float[DIMENSIONS];
        for (String w : Words.of(text)) {
            Integer concept = CONCEPTS.get(w);
            v[concept != null ? concept : CONCEPT_COUNT + Math.floorMod(w.hashCode(), DIMENSIONS - CONCEPT_COUNT)] += 1;
        }
        double norm = 0;
        for (float x : v) norm += x * x;
        if (norm == 0) v[DIMENSIONS - 1] = 1;
        else for (int i = 0; i < v.length; i++) v[i] /= (float) Math.sqrt(norm);
        return v;
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(this::embed).toList();
    }
}
