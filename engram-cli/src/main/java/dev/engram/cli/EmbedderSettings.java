package dev.engram.cli;

import dev.engram.embed.BundledModel;
import dev.engram.embed.LazyEmbedder;
import dev.engram.embed.OnnxFileEmbedder;
import dev.engram.embed.OpenAiCompatibleConfig;
import dev.engram.embed.OpenAiCompatibleEmbedder;
import dev.engram.embed.PrefixedEmbedder;
import dev.engram.spi.Embedder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Which embedding model gives recall its semantic layer, from the environment:
 * <ul>
 *   <li>{@code ENGRAM_EMBEDDER=e5} (default): the in-jar e5-small-v2 (English, quantized);
 *   <li>{@code minilm}: the in-jar all-MiniLM-L6-v2 (English; the default before e5, smaller and faster);
 *   <li>{@code none}: lexical recall only;
 *   <li>{@code openai}: an OpenAI-compatible endpoint ({@code ENGRAM_EMBED_URL}, {@code ENGRAM_EMBED_MODEL},
 *       {@code ENGRAM_EMBED_KEY}, {@code ENGRAM_EMBED_DIMENSIONS}) — OpenAI, Ollama, vLLM and the like;
 *   <li>{@code onnx}: a user-supplied model ({@code ENGRAM_EMBED_ONNX}, {@code ENGRAM_EMBED_TOKENIZER},
 *       {@code ENGRAM_EMBED_DIMENSIONS}, optional {@code ENGRAM_EMBED_MODEL} as its id and
 *       {@code ENGRAM_EMBED_POOLING} {@code mean} (default) or {@code cls}), e.g. multilingual-e5-small for Korean.
 * </ul>
 * For {@code openai} and {@code onnx}, {@code ENGRAM_EMBED_QUERY_PREFIX} and {@code ENGRAM_EMBED_PASSAGE_PREFIX}
 * put the prefixes an asymmetric model was trained with before queries and stored texts (e5:
 * {@code "query: "} and {@code "passage: "}); taken as given, spaces included.
 * Every model loads in the background, so it never delays the MCP handshake.
 */
record EmbedderSettings(String kind, Map<String, String> env) {
    static final String ENGRAM_EMBEDDER = "ENGRAM_EMBEDDER";

    static EmbedderSettings from(Map<String, String> env) {
        String kind = env.getOrDefault(ENGRAM_EMBEDDER, BundledModel.E5_SMALL_V2.setting()).strip().toLowerCase(Locale.ROOT);
        if (!kind.matches("e5|minilm|none|openai|onnx")) {
            throw new ConfigException(ENGRAM_EMBEDDER, "environment", "'" + kind + "' is not an embedder; use e5, minilm, none, openai or onnx");
        }
        EmbedderSettings s = new EmbedderSettings(kind, Map.copyOf(env));
        if (kind.equals("openai") || kind.equals("onnx")) s.dimensions(); // fail at start-up, not on first use
        if (kind.equals("onnx")) s.pooling();
        return s;
    }

    /** The embedder, loading in the background after {@code delay}; null for {@code none}. */
    Embedder start(java.time.Duration delay) {
        String queryPrefix = env.getOrDefault("ENGRAM_EMBED_QUERY_PREFIX", "");
        String passagePrefix = env.getOrDefault("ENGRAM_EMBED_PASSAGE_PREFIX", "");
        return switch (kind) {
            case "none" -> null;
            case "openai" -> {
                OpenAiCompatibleConfig c = OpenAiCompatibleConfig.of(required("ENGRAM_EMBED_URL"),
                        required("ENGRAM_EMBED_MODEL"), env.getOrDefault("ENGRAM_EMBED_KEY", ""), dimensions());
                OpenAiCompatibleEmbedder e = new OpenAiCompatibleEmbedder(c);
                // the prefixes go on inside the lazy loader, so that the model's measured scale includes them
                yield LazyEmbedder.start(PrefixedEmbedder.modelId(e.modelId(), passagePrefix), e.dimensions(),
                        () -> PrefixedEmbedder.wrap(e, queryPrefix, passagePrefix), delay);
            }
            case "onnx" -> {
                Path model = Path.of(required("ENGRAM_EMBED_ONNX"));
                Path tokenizer = Path.of(required("ENGRAM_EMBED_TOKENIZER"));
                PoolingMode pooling = pooling();
                String id = env.getOrDefault("ENGRAM_EMBED_MODEL", OnnxFileEmbedder.defaultModelId(model, pooling));
                yield LazyEmbedder.start(PrefixedEmbedder.modelId(id, passagePrefix), dimensions(),
                        () -> PrefixedEmbedder.wrap(new OnnxFileEmbedder(id, model, tokenizer, pooling), queryPrefix, passagePrefix), delay);
            }
            default -> LazyEmbedder.bundled(BundledModel.bySetting(kind).orElseThrow(), delay);
        };
    }

    private PoolingMode pooling() {
        String v = env.getOrDefault("ENGRAM_EMBED_POOLING", "mean").strip().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "mean" -> PoolingMode.MEAN;
            case "cls" -> PoolingMode.CLS;
            default -> throw new ConfigException("ENGRAM_EMBED_POOLING", "environment",
                    "'" + v + "' is not a pooling; use mean (sentence-transformers, e5) or cls (bge)");
        };
    }

    private String required(String key) {
        String v = env.get(key);
        if (v == null || v.isBlank()) {
            throw new ConfigException(key, "environment", "is required when " + ENGRAM_EMBEDDER + "=" + kind);
        }
        return v.strip();
    }

    private int dimensions() {
        String v = required("ENGRAM_EMBED_DIMENSIONS");
        try {
            int d = Integer.parseInt(v);
            if (d < 1 || d > 8192) throw new NumberFormatException();
            return d;
        } catch (NumberFormatException e) {
            throw new ConfigException("ENGRAM_EMBED_DIMENSIONS", "environment", "'" + v + "' is not a dimension count 1..8192");
        }
    }
}
