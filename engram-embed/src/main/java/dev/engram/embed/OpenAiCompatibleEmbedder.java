package dev.engram.embed;

import dev.engram.error.EmbeddingException;
import dev.engram.spi.Embedder;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Embeddings from an OpenAI-compatible HTTP endpoint: {@code POST {baseUrl}/embeddings} with
 * {@code {"model": …, "input": [texts]}} and a bearer key. Answers are checked (count, order by
 * {@code index}, dimensions) and scaled to unit length, since not every server normalises. Errors
 * name the URL and what to fix; the key never appears in a message or log.
 */
public final class OpenAiCompatibleEmbedder implements Embedder {
    private static final int MAX_BODY_IN_MESSAGE = 300;

    private final OpenAiCompatibleConfig config;
    private final HttpClient http;
    private final ObjectMapper json = JsonMapper.builder().build();

    public OpenAiCompatibleEmbedder(OpenAiCompatibleConfig config) {
        this(config, HttpClient.newBuilder().connectTimeout(config.timeout()).build());
    }

    OpenAiCompatibleEmbedder(OpenAiCompatibleConfig config, HttpClient http) {
        this.config = Objects.requireNonNull(config, "config");
        this.http = Objects.requireNonNull(http, "http");
    }

    /** {@code openai-compatible:<model>}; the endpoint is not part of it, the model name is. */
    @Override
    public String modelId() {
        return "openai-compatible:" + config.model();
    }

    @Override
    public int dimensions() {
        return config.dimensions();
    }

    @Override
    public float[] embed(String text) {
        return embedAll(List.of(Objects.requireNonNull(text, "text"))).get(0);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (int from = 0; from < texts.size(); from += config.batchSize()) {
            out.addAll(request(texts.subList(from, Math.min(texts.size(), from + config.batchSize()))));
        }
        return out;
    }

    private List<float[]> request(List<String> batch) {
        String body = json.writeValueAsString(Map.of("model", config.model(), "input", batch));
        HttpRequest.Builder request = HttpRequest.newBuilder(config.embeddingsUri())
                .timeout(config.timeout())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (config.apiKey() != null) request.header("Authorization", "Bearer " + config.apiKey());
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new EmbeddingException("embedding endpoint " + config.embeddingsUri() + " did not answer within "
                    + config.timeout().toMillis() + " ms; check that the server is up, or raise the timeout", e);
        } catch (ConnectException e) {
            throw new EmbeddingException("cannot connect to embedding endpoint " + config.embeddingsUri()
                    + "; check the base URL and that the server is running", e);
        } catch (IOException e) {
            throw new EmbeddingException("embedding request to " + config.embeddingsUri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddingException("interrupted while waiting for " + config.embeddingsUri(), e);
        }
        return parse(response, batch.size());
    }

    private List<float[]> parse(HttpResponse<String> response, int expected) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new EmbeddingException("embedding endpoint " + config.embeddingsUri() + " rejected the API key (HTTP "
                    + status + ")" + (config.apiKey() == null ? "; no key is configured" : "; check the configured key")
                    + ": " + excerpt(response.body()));
        }
        if (status / 100 != 2) {
            throw new EmbeddingException("embedding endpoint " + config.embeddingsUri() + " answered HTTP " + status
                    + " for model '" + config.model() + "': " + excerpt(response.body()));
        }
        JsonNode data;
        try {
            data = json.readTree(response.body()).get("data");
        } catch (JacksonException e) {
            throw new EmbeddingException("embedding endpoint " + config.embeddingsUri() + " answered with invalid JSON: "
                    + excerpt(response.body()), e);
        }
        if (data == null || !data.isArray() || data.size() != expected) {
            throw new EmbeddingException("embedding endpoint " + config.embeddingsUri() + " answered with "
                    + (data == null || !data.isArray() ? "no data array" : data.size() + " embeddings") + " for "
                    + expected + " inputs: " + excerpt(response.body()));
        }
        float[][] ordered = new float[expected][];
        int position = 0;
        for (JsonNode item : data) {
            // servers may return items out of order; "index" says which input each belongs to
            int index = item.has("index") ? item.get("index").asInt() : position;
            JsonNode vector = item.get("embedding");
            if (index < 0 || index >= expected || ordered[index] != null || vector == null || !vector.isArray()) {
                throw new EmbeddingException("embedding endpoint " + config.embeddingsUri()
                        + " answered with a malformed data[" + position + "]: " + excerpt(item.toString()));
            }
            float[] v = new float[vector.size()];
            for (int i = 0; i < v.length; i++) v[i] = vector.get(i).floatValue();
            ordered[index] = UnitVectors.normalized(v, config.dimensions(), modelId());
            position++;
        }
        return List.of(ordered);
    }

    private static String excerpt(String body) {
        if (body == null || body.isBlank()) return "(empty body)";
        String flat = body.strip().replaceAll("\\s+", " ");
        return flat.length() <= MAX_BODY_IN_MESSAGE ? flat : flat.substring(0, MAX_BODY_IN_MESSAGE) + "…";
    }
}
