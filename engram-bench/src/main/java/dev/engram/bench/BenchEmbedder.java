package dev.engram.bench;

import dev.engram.embed.BundledModel;
import dev.engram.embed.LazyEmbedder;
import dev.engram.embed.OnnxFileEmbedder;
import dev.engram.embed.PrefixedEmbedder;
import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

/**
 * The embedders a benchmark can run with ({@code --embedder NAME}). Besides the default MiniLM, two
 * stronger small English models from Maven Central run exactly as a user's model would
 * ({@code ENGRAM_EMBEDDER=onnx} with the same pooling and prefixes): their files are copied out of
 * the langchain4j jars and loaded by {@link OnnxFileEmbedder}.
 */
public enum BenchEmbedder {
    MINILM("minilm", BundledModel.MINILM, null),
    /** intfloat/e5-small-v2 as the server bundles it (mean pooling, "query: " / "passage: " prefixes). */
    E5_SMALL_V2("e5-small-v2", BundledModel.E5_SMALL_V2, null),
    /** BAAI/bge-small-en-v1.5: CLS pooling, an instruction before queries only (the model card's); bench-only. */
    BGE_SMALL_EN_V15("bge-small-en-v1.5", null, new OnnxSpec("bge-small-en-v1.5-q", PoolingMode.CLS,
            "Represent this sentence for searching relevant passages: ", ""));

    /** A model the bench carries on its own classpath, as {@code ENGRAM_EMBEDDER=onnx} would load it. */
    private record OnnxSpec(String resource, PoolingMode pooling, String queryPrefix, String passagePrefix) {
    }

    private final String flag;
    /** The server's model of this name, when the jar bundles it; else {@link #spec} says how to load it. */
    private final BundledModel bundled;
    private final OnnxSpec spec;

    BenchEmbedder(String flag, BundledModel bundled, OnnxSpec spec) {
        this.flag = flag;
        this.bundled = bundled;
        this.spec = spec;
    }

    public String flag() {
        return flag;
    }

    /** Whether Engram's jar carries this model, so that a server can be started with it. */
    public boolean bundled() {
        return bundled != null;
    }

    /** The server's {@code ENGRAM_EMBEDDER} for this model; only the bundled ones have one. */
    public String serverSetting() {
        if (bundled == null) throw new IllegalArgumentException(flag + " is not bundled in the jar");
        return bundled.setting();
    }

    /** The preset named {@code flag}; the message lists the names when there is none. */
    public static BenchEmbedder named(String flag) {
        return Arrays.stream(values()).filter(e -> e.flag.equals(flag.strip().toLowerCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--embedder must be one of "
                        + Arrays.stream(values()).map(BenchEmbedder::flag).toList() + ", got '" + flag + "'"));
    }

    /** Loads the model and waits for it (a benchmark times nothing before its model is ready). */
    public Embedder load() {
        LazyEmbedder lazy;
        if (bundled != null) {
            lazy = LazyEmbedder.bundled(bundled, Duration.ZERO); // as the server loads it
        } else {
            Path dir = copyOut();
            Path model = dir.resolve(spec.resource() + ".onnx");
            Path tokenizer = dir.resolve(spec.resource() + "-tokenizer.json");
            String id = OnnxFileEmbedder.defaultModelId(model, spec.pooling()); // the id ENGRAM_EMBEDDER=onnx would give it
            lazy = LazyEmbedder.start(PrefixedEmbedder.modelId(id, spec.passagePrefix()), 384, () -> PrefixedEmbedder.wrap(
                    new OnnxFileEmbedder(id, model, tokenizer, spec.pooling()), spec.queryPrefix(), spec.passagePrefix()),
                    Duration.ZERO);
        }
        if (!lazy.awaitReady(Duration.ofMinutes(5))) {
            throw new IllegalStateException(flag + " did not load: " + lazy.failure().map(Throwable::toString).orElse("timeout"));
        }
        return lazy;
    }

    private Path copyOut() {
        try {
            Path dir = Files.createTempDirectory("engram-bench-model");
            dir.toFile().deleteOnExit();
            for (String name : new String[] {spec.resource() + ".onnx", spec.resource() + "-tokenizer.json"}) {
                try (InputStream in = BenchEmbedder.class.getResourceAsStream("/" + name)) {
                    if (in == null) throw new IllegalStateException(name + " is not on the bench classpath; rebuild engram-bench");
                    Path file = dir.resolve(name);
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    file.toFile().deleteOnExit();
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy out " + spec.resource(), e);
        }
    }
}
