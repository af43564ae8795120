package dev.engram.embed;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how to call an OpenAI-compatible {@code /embeddings} endpoint (OpenAI, Ollama, vLLM,
 * LM Studio…). {@code baseUrl} is the API root, e.g. {@code https://api.openai.com/v1} or
 * {@code http://127.0.0.1:11434/v1}; {@code apiKey} may be null for local servers;
 * {@code dimensions} is what the model returns (checked on every answer); {@code batchSize} caps the
 * texts per request.
 */
public record OpenAiCompatibleConfig(URI baseUrl, String model, String apiKey, int dimensions, Duration timeout,
                                     int batchSize) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_BATCH_SIZE = 64;

    public OpenAiCompatibleConfig {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String scheme = baseUrl.getScheme();
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new IllegalArgumentException("baseUrl must be an http or https URL, got " + baseUrl);
        }
        if (model == null || model.isBlank()) throw new IllegalArgumentException("model is required, e.g. text-embedding-3-small");
        model = model.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
        if (dimensions < 1) throw new IllegalArgumentException("dimensions must be >= 1, got " + dimensions);
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        if (batchSize < 1 || batchSize > 2048) throw new IllegalArgumentException("batchSize must be 1..2048, got " + batchSize);
    }

    public static OpenAiCompatibleConfig of(String baseUrl, String model, String apiKey, int dimensions) {
        return new OpenAiCompatibleConfig(URI.create(baseUrl), model, apiKey, dimensions, DEFAULT_TIMEOUT, DEFAULT_BATCH_SIZE);
    }

    /** The embeddings URL: base URL with {@code /embeddings} appended (one slash between). */
    URI embeddingsUri() {
        String base = baseUrl.toString();
        return URI.create(base.endsWith("/") ? base + "embeddings" : base + "/embeddings");
    }
}
