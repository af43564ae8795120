package dev.engram.llm;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A local OpenAI-compatible {@code /v1/chat/completions} for tests: answers each request with the
 * content the test's function gives for the request body (or a raw status and body), and records
 * the bodies and Authorization headers it saw.
 */
public final class FakeChatEndpoint implements AutoCloseable {
    public record Reply(int status, String body, long delayMillis) {
    }

    private final HttpServer server;
    public final List<String> bodies = new CopyOnWriteArrayList<>();
    public final List<String> authorizations = new CopyOnWriteArrayList<>();

    private FakeChatEndpoint(Function<String, Reply> replies) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            bodies.add(body);
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            Reply r = replies.apply(body);
            if (r.delayMillis() > 0) {
                try {
                    Thread.sleep(r.delayMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] out = r.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(r.status(), out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        });
        server.start();
    }

    /** Answers every request with {@code content} as the assistant's message. */
    public static FakeChatEndpoint answering(Function<String, String> content) throws IOException {
        return new FakeChatEndpoint(body -> new Reply(200, completion(content.apply(body)), 0));
    }

    public static FakeChatEndpoint raw(Function<String, Reply> replies) throws IOException {
        return new FakeChatEndpoint(replies);
    }

    /** A chat completion whose first choice says {@code content}, JSON-escaped. */
    public static String completion(String content) {
        String escaped = content.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
        return "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"" + escaped + "\"},\"finish_reason\":\"stop\"}]}";
    }

    /** The API root to configure, e.g. {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public Map<String, String> environment(String model) {
        return Map.of(LlmConfig.URL, baseUrl(), LlmConfig.MODEL, model);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
