package dev.engram.embed;

import dev.engram.spi.Embedder;
import java.util.List;

/**
 * The default embedder: quantized all-MiniLM-L6-v2 shipped inside the jar (no network, English only).
 * Construction loads the model, about 1.5 s on a quiet 2-core machine and longer under load, so the
 * server builds it through {@link LazyEmbedder#minilm()} and never on the handshake path.
 */
public final class MiniLmEmbedder implements Embedder {
    public static final String MODEL_ID = "all-minilm-l6-v2-q";
    public static final int DIMENSIONS = 384;

    private final InProcessEmbedder delegate;

    /** Loads the model now, on the calling thread. */
    public MiniLmEmbedder() {
        // the files of langchain4j's AllMiniLmL6V2QuantizedEmbeddingModel, in a session of our own options
        this.delegate = new InProcessEmbedder(EncoderSessions.meanPooled(EncoderSessions.resource(MODEL_ID + ".onnx"),
                EncoderSessions.resource(MODEL_ID + "-tokenizer.json")), MODEL_ID, DIMENSIONS);
    }

    @Override
    public String modelId() {
        return MODEL_ID;
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public float[] embed(String text) {
        return delegate.embed(text);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        return delegate.embedAll(texts);
    }
}
