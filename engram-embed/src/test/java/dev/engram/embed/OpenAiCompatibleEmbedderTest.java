package dev.engram.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.engram.error.EmbeddingException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Against a tiny HTTP server on 127.0.0.1 that answers with canned vectors. */
class OpenAiCompatibleEmbedderTest {
    private interface Reply {
        void answer(HttpExchange exchange) throws IOException;
    }

    private record Seen(String path, String authorization, JsonNode body) {
    }

    private final List<Seen> requests = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) server.stop(0);
    }

    private OpenAiCompatibleConfig serve(Reply reply, String key, int dimensions, Duration timeout, int batchSize)
            throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                requests.add(new Seen(exchange.getRequestURI().getPath(),
                        exchange.getRequestHeaders().getFirst("Authorization"), JsonMapper.builder().build().readTree(body)));
                reply.answer(exchange);
            }
        });
        server.start();
        URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
        return new OpenAiCompatibleConfig(base, "test-embed", key, dimensions, timeout, batchSize);
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void postsModelAndInputWithBearerKeyAndOrdersByIndex() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> send(exchange, 200, """
                {"object":"list","model":"test-embed","data":[
                  {"object":"embedding","index":1,"embedding":[0.0, 3.0, 4.0]},
                  {"object":"embedding","index":0,"embedding":[2.0, 0.0, 0.0]}]}"""),
                "sk-test", 3, Duration.ofSeconds(5), 64);
        OpenAiCompatibleEmbedder embedder = new OpenAiCompatibleEmbedder(config);
        List<float[]> vectors = embedder.embedAll(List.of("first", "second"));

        assertEquals(1, requests.size());
        Seen seen = requests.get(0);
        assertEquals("/v1/embeddings", seen.path());
        assertEquals("Bearer sk-test", seen.authorization());
        assertEquals("test-embed", seen.body().get("model").asString());
        assertEquals(List.of("first", "second"), List.of(seen.body().get("input").get(0).asString(),
                seen.body().get("input").get(1).asString()));
        assertEquals(2, seen.body().get("input").size());

        assertEquals(1.0f, vectors.get(0)[0], 1e-6);   // (2,0,0) scaled to unit length
        assertEquals(0.6f, vectors.get(1)[1], 1e-6);   // (0,3,4) → (0,0.6,0.8)
        assertEquals(0.8f, vectors.get(1)[2], 1e-6);
        assertEquals("openai-compatible:test-embed", embedder.modelId());
        assertEquals(3, embedder.dimensions());
    }

    @Test
    void splitsLargeInputsIntoBatchesAndSendsNoKeyWhenNoneIsConfigured() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> {
            JsonNode input = requests.get(requests.size() - 1).body().get("input");
            StringBuilder data = new StringBuilder();
            for (int i = 0; i < input.size(); i++) {
                if (i > 0) data.append(',');
                data.append("{\"index\":").append(i).append(",\"embedding\":[1.0,").append(input.get(i).asString().length())
                        .append(".0]}");
            }
            send(exchange, 200, "{\"data\":[" + data + "]}");
        }, null, 2, Duration.ofSeconds(5), 2);
        List<float[]> vectors = new OpenAiCompatibleEmbedder(config).embedAll(List.of("a", "bb", "ccc", "dddd", "eeeee"));

        assertEquals(3, requests.size());
        assertNull(requests.get(0).authorization());
        assertEquals(5, vectors.size());
        for (int i = 0; i < 5; i++) {
            double ratio = vectors.get(i)[1] / vectors.get(i)[0];
            assertEquals(i + 1, ratio, 1e-4, "vector " + i + " belongs to input " + i);
        }
    }

    @Test
    void aRejectedKeySaysSoWithoutLeakingIt() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> send(exchange, 401,
                "{\"error\":{\"message\":\"Incorrect API key provided\"}}"), "sk-secret-123", 3, Duration.ofSeconds(5), 64);
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> new OpenAiCompatibleEmbedder(config).embed("x"));
        assertTrue(e.getMessage().contains("rejected the API key (HTTP 401)"), e.getMessage());
        assertTrue(e.getMessage().contains("Incorrect API key provided"), e.getMessage());
        assertFalse(e.getMessage().contains("sk-secret-123"), e.getMessage());
    }

    @Test
    void aSlowServerTimesOutWithTheLimitInTheMessage() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> {
            try {
                Thread.sleep(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            send(exchange, 200, "{\"data\":[]}");
        }, null, 3, Duration.ofMillis(300), 64);
        long start = System.nanoTime();
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> new OpenAiCompatibleEmbedder(config).embed("x"));
        long tookMs = (System.nanoTime() - start) / 1_000_000;
        assertTrue(e.getMessage().contains("did not answer within 300 ms"), e.getMessage());
        assertTrue(tookMs < 2_500, "gave up after " + tookMs + " ms");
    }

    @Test
    void vectorsOfTheWrongDimensionAreRejected() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> send(exchange, 200,
                "{\"data\":[{\"index\":0,\"embedding\":[0.1,0.2,0.3,0.4]}]}"), null, 3, Duration.ofSeconds(5), 64);
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> new OpenAiCompatibleEmbedder(config).embed("x"));
        assertTrue(e.getMessage().contains("4-dimensional vector, expected 3"), e.getMessage());
    }

    @Test
    void serverErrorsAndShortAnswersAreReported() throws IOException {
        OpenAiCompatibleConfig config = serve(exchange -> {
            if (requests.size() == 1) send(exchange, 500, "model not found: test-embed");
            else send(exchange, 200, "{\"data\":[{\"index\":0,\"embedding\":[1,0,0]}]}");
        }, null, 3, Duration.ofSeconds(5), 64);
        OpenAiCompatibleEmbedder embedder = new OpenAiCompatibleEmbedder(config);
        EmbeddingException e500 = assertThrows(EmbeddingException.class, () -> embedder.embed("x"));
        assertTrue(e500.getMessage().contains("HTTP 500") && e500.getMessage().contains("model not found"), e500.getMessage());
        EmbeddingException shortAnswer = assertThrows(EmbeddingException.class, () -> embedder.embedAll(List.of("a", "b")));
        assertTrue(shortAnswer.getMessage().contains("1 embeddings for 2 inputs"), shortAnswer.getMessage());
    }

    @Test
    void nothingListeningIsAConnectionError() {
        OpenAiCompatibleConfig config = OpenAiCompatibleConfig.of("http://127.0.0.1:9/v1", "m", null, 3);
        EmbeddingException e = assertThrows(EmbeddingException.class, () -> new OpenAiCompatibleEmbedder(config).embed("x"));
        assertTrue(e.getMessage().contains("127.0.0.1:9/v1/embeddings"), e.getMessage());
    }
}
