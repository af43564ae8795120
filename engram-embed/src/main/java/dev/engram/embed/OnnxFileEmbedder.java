package dev.engram.embed;

import dev.engram.error.EmbeddingException;
import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.DimensionAwareEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A user-supplied BERT-style encoder exported to ONNX, with its HuggingFace {@code tokenizer.json}
 * and the pooling it was trained with (mean for sentence-transformers and e5, CLS for bge): the way to run multilingual models (multilingual-e5-small, paraphrase-multilingual-
 * MiniLM-L12-v2) that are too big to ship in the jar. The model id is the caller's: it must change
 * whenever the file does, since vectors of different models must never be compared.
 */
public final class OnnxFileEmbedder implements Embedder {
    private final InProcessEmbedder delegate;

    /** A mean-pooled model, loaded now on the calling thread. */
    public OnnxFileEmbedder(String modelId, Path modelFile, Path tokenizerFile) {
        this(modelId, modelFile, tokenizerFile, PoolingMode.MEAN);
    }

    /** Loads the model now, on the calling thread; the dimension is read off one probe embedding. */
    public OnnxFileEmbedder(String modelId, Path modelFile, Path tokenizerFile, PoolingMode pooling) {
        Objects.requireNonNull(modelId, "modelId");
        Objects.requireNonNull(pooling, "pooling");
        requireReadable("model file", modelFile);
        requireReadable("tokenizer file", tokenizerFile);
        DimensionAwareEmbeddingModel model;
        try {
            model = EncoderSessions.pooled(modelFile, tokenizerFile, pooling);
        } catch (IOException | RuntimeException e) {
            throw new EmbeddingException("cannot load ONNX model " + modelFile + " with tokenizer " + tokenizerFile
                    + ": " + e.getMessage() + "; the model must be a sentence-transformer export taking input_ids"
                    + " and attention_mask", e);
        }
        this.delegate = new InProcessEmbedder(model, modelId, model.dimension());
    }

    /**
     * The id a model file gets when the user names none: its file name, and {@code :cls} for CLS pooling
     * (the same file pooled two ways makes different vectors).
     */
    public static String defaultModelId(Path modelFile, PoolingMode pooling) {
        return "onnx:" + modelFile.getFileName() + (pooling == PoolingMode.CLS ? ":cls" : "");
    }

    private static void requireReadable(String what, Path file) {
        Objects.requireNonNull(file, what);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new EmbeddingException(what + " " + file.toAbsolutePath() + " does not exist or is not readable");
        }
    }

    @Override
    public String modelId() {
        return delegate.modelId();
    }

    @Override
    public int dimensions() {
        return delegate.dimensions();
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
