package dev.engram.embed;

import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The embedding models shipped inside the jar: quantized ONNX exports from langchain4j's model jars on
 * Maven Central, run with Engram's own ONNX Runtime session options ({@link EncoderSessions}) and the
 * pooling and prefixes each was trained with. None of langchain4j's model classes run.
 */
public enum BundledModel {
    /**
     * intfloat/e5-small-v2 (the default): 12 layers, 384 dimensions, mean pooling, trained with
     * {@code "query: "} before searches and {@code "passage: "} before stored texts. Through the tools
     * with plain client ingestion it raised LoCoMo dev R@5 / R@10 over MiniLM (docs/benchmarks.md §6).
     */
    E5_SMALL_V2("e5", "e5-small-v2-q", PoolingMode.MEAN, "query: ", "passage: "),
    /** sentence-transformers/all-MiniLM-L6-v2: 6 layers, 384 dimensions, mean pooling, no prefixes. */
    MINILM("minilm", MiniLmEmbedder.MODEL_ID, PoolingMode.MEAN, "", "");

    public static final int DIMENSIONS = 384;

    private final String setting;
    private final String resource;
    private final PoolingMode pooling;
    private final String queryPrefix;
    private final String passagePrefix;

    BundledModel(String setting, String resource, PoolingMode pooling, String queryPrefix, String passagePrefix) {
        this.setting = setting;
        this.resource = resource;
        this.pooling = pooling;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
    }

    /** The value of {@code ENGRAM_EMBEDDER} that selects it. */
    public String setting() {
        return setting;
    }

    /**
     * The id of its stored vectors; MiniLM keeps the id it always had, so stores written before e5 was
     * bundled keep their vectors when MiniLM is chosen.
     */
    public String modelId() {
        return PrefixedEmbedder.modelId(resource, passagePrefix);
    }

    /** The model named by an {@code ENGRAM_EMBEDDER} value, if it is bundled. */
    public static Optional<BundledModel> bySetting(String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(m -> m.setting.equals(v)).findFirst();
    }

    /** Loads it now on the calling thread (1-3 s; use {@link LazyEmbedder#bundled} on a server). */
    public Embedder load() {
        if (this == MINILM) return new MiniLmEmbedder();
        InProcessEmbedder model = new InProcessEmbedder(EncoderSessions.pooled(EncoderSessions.resource(resource + ".onnx"),
                EncoderSessions.resource(resource + "-tokenizer.json"), pooling), resource, DIMENSIONS);
        return new LatinScriptGate(PrefixedEmbedder.wrap(model, queryPrefix, passagePrefix)); // English only
    }
}
