package dev.engram.embed;

import dev.engram.spi.Embedder;
import java.util.List;
import java.util.Objects;

/**
 * Puts the prefixes an asymmetric model was trained with before its inputs: e5 models expect
 * {@code "query: "} before a search and {@code "passage: "} before a stored text; bge models an
 * instruction before the query only. The passage prefix changes every stored vector, so it is part of
 * the model id; the query prefix changes no stored vector and is not.
 */
public final class PrefixedEmbedder extends ForwardingEmbedder {
    private final String queryPrefix;
    private final String passagePrefix;
    private final String modelId;

    private PrefixedEmbedder(Embedder inner, String queryPrefix, String passagePrefix) {
        super(inner);
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
        this.modelId = modelId(inner.modelId(), passagePrefix);
    }

    /** {@code inner} itself when both prefixes are empty. */
    public static Embedder wrap(Embedder inner, String queryPrefix, String passagePrefix) {
        Objects.requireNonNull(inner, "inner");
        Objects.requireNonNull(queryPrefix, "queryPrefix");
        Objects.requireNonNull(passagePrefix, "passagePrefix");
        if (queryPrefix.isEmpty() && passagePrefix.isEmpty()) return inner;
        return new PrefixedEmbedder(inner, queryPrefix, passagePrefix);
    }

    @Override
    public String modelId() {
        return modelId;
    }


    @Override
    public float[] embed(String text) {
        return model.embed(passagePrefix + Objects.requireNonNull(text, "text"));
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return model.embedAll(texts.stream().map(t -> passagePrefix + t).toList());
    }

    @Override
    public float[] embedQuery(String query) {
        return model.embed(queryPrefix + Objects.requireNonNull(query, "query"));
    }



    /** The model id {@link #wrap} gives {@code innerId} with this passage prefix. */
    public static String modelId(String innerId, String passagePrefix) {
        return passagePrefix.isEmpty() ? innerId : innerId + "+passage:" + passagePrefix.strip();
    }
}
