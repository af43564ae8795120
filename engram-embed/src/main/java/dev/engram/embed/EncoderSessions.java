package dev.engram.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.engram.error.EmbeddingException;
import dev.langchain4j.model.embedding.DimensionAwareEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The ONNX Runtime sessions behind the in-process embedders, all with the same options: one thread per
 * inference, which does not spin while it waits. ONNX Runtime's default (a thread per core, spinning)
 * embedded a 200-character memory in 6.8 ms on an idle 2-core machine but took 14.6 ms p50 and 22.4 ms p95
 * with one other busy thread, the index catch-up that follows every write; one thread took 8.7 / 10.8 ms
 * there. Batches still use every core: langchain4j embeds a batch's texts in parallel on its executor.
 * Every graph optimisation is on (ONNX Runtime's fused attention and layer-norm kernels): an e5-small-v2
 * query took 0.88-0.96× the time of the default level, four rounds alternated in one process.
 */
final class EncoderSessions {
    private EncoderSessions() {
    }

    /** A sentence-transformer model from its ONNX bytes and HuggingFace {@code tokenizer.json}, mean-pooled. */
    static DimensionAwareEmbeddingModel meanPooled(byte[] onnx, byte[] tokenizerJson) {
        return pooled(onnx, tokenizerJson, PoolingMode.MEAN);
    }

    /** A model from its ONNX bytes and HuggingFace {@code tokenizer.json}, pooled the way it was trained. */
    static DimensionAwareEmbeddingModel pooled(byte[] onnx, byte[] tokenizerJson, PoolingMode pooling) {
        return pooled((environment, options) -> environment.createSession(onnx, options),
                new ByteArrayInputStream(tokenizerJson), pooling);
    }

    /**
     * A model from files, pooled the way it was trained (mean for sentence-transformers and e5, CLS for
     * bge). ONNX Runtime reads the model itself: no copy on the Java heap (user models run
     * to hundreds of MB), and external weights next to the file ({@code model.onnx_data}) are found.
     */
    static DimensionAwareEmbeddingModel pooled(Path onnx, Path tokenizerJson, PoolingMode pooling) throws IOException {
        try (InputStream tokenizer = Files.newInputStream(tokenizerJson)) {
            return pooled((environment, options) -> environment.createSession(onnx.toString(), options), tokenizer, pooling);
        }
    }

    @FunctionalInterface
    private interface SessionOpener {
        OrtSession open(OrtEnvironment environment, OrtSession.SessionOptions options) throws OrtException;
    }

    private static DimensionAwareEmbeddingModel pooled(SessionOpener opener, InputStream tokenizerJson, PoolingMode pooling) {
        OnnxRuntimeLibraries.prepare();
        try (OrtSession.SessionOptions options = new OrtSession.SessionOptions()) {
            options.setIntraOpNumThreads(1);
            options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
            options.addConfigEntry("session.intra_op.allow_spinning", "0");
            OrtEnvironment environment = OrtEnvironment.getEnvironment();
            OnnxBertBiEncoder encoder = new OnnxBertBiEncoder(environment, opener.open(environment, options),
                    tokenizerJson, pooling);
            return new EncoderModel(encoder);
        } catch (OrtException e) {
            throw new EmbeddingException("ONNX Runtime cannot load the model: " + e.getMessage(), e);
        }
    }

    /** {@code resource} of this class loader, read whole; the model files ship in the jar. */
    static byte[] resource(String name) {
        try (InputStream in = EncoderSessions.class.getResourceAsStream("/" + name)) {
            if (in == null) throw new EmbeddingException("model resource " + name + " is missing from the classpath");
            return in.readAllBytes();
        } catch (IOException e) {
            throw new EmbeddingException("cannot read model resource " + name + ": " + e.getMessage(), e);
        }
    }

    private static final class EncoderModel extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;

        EncoderModel(OnnxBertBiEncoder encoder) {
            super(null); // langchain4j's default executor: a batch's texts are embedded in parallel
            this.encoder = encoder;
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }
    }
}
