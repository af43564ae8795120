package dev.engram.embed;

import dev.engram.spi.Embedder;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A loaded langchain4j ONNX model behind the {@link Embedder} contract (checked size, unit length). */
final class InProcessEmbedder implements Embedder {
    private final EmbeddingModel model;
    private final String modelId;
    private final int dimensions;

    InProcessEmbedder(EmbeddingModel model, String modelId, int dimensions) {
        this.model = Objects.requireNonNull(model, "model");
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        if (dimensions < 1) throw new IllegalArgumentException("dimensions must be >= 1, got " + dimensions);
        this.dimensions = dimensions;
    }

    @Override
    public String modelId() {
        return modelId;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public float[] embed(String text) {
        Objects.requireNonNull(text, "text");
        return UnitVectors.normalized(model.embed(text).content().vector(), dimensions, modelId);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        if (texts.isEmpty()) return List.of();
        List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
        List<Embedding> embeddings = model.embedAll(segments).content();
        List<float[]> out = new ArrayList<>(embeddings.size());
        for (Embedding e : embeddings) out.add(UnitVectors.normalized(e.vector(), dimensions, modelId));
        return out;
    }
}
