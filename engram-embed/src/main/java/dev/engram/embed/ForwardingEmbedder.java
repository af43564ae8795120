package dev.engram.embed;

import dev.engram.spi.Embedder;
import java.util.List;
import java.util.Objects;

/** An embedder that hands every call to {@code model}; a wrapper overrides only what it changes. */
public abstract class ForwardingEmbedder implements Embedder {
    protected final Embedder model;

    protected ForwardingEmbedder(Embedder model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public String modelId() {
        return model.modelId();
    }

    @Override
    public int dimensions() {
        return model.dimensions();
    }

    @Override
    public float[] embed(String text) {
        return model.embed(text);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return model.embedAll(texts);
    }

    @Override
    public float[] embedQuery(String query) {
        return model.embedQuery(query);
    }

    @Override
    public boolean ready() {
        return model.ready();
    }

    @Override
    public double unrelatedCosine() {
        return model.unrelatedCosine();
    }
}
