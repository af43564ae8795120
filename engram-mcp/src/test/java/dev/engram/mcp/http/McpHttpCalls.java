package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.engram.mcp.json.JsonText;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/** JSON-RPC calls over {@code /mcp} with java.net.http, one session id per call, for tests that follow a session's id. */
final class McpHttpCalls {
    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonText json = JsonText.standard();
    private final AtomicInteger ids = new AtomicInteger(1);
    private final IntSupplier port;
    private final String token;

    McpHttpCalls(IntSupplier port, String token) {
        this.port = port;
        this.token = token;
    }

    JsonText json() {
        return json;
    }

    HttpClient http() {
        return http;
    }

    /** A POST to {@code /mcp}, with the bearer token when {@code auth} and the session header when given. */
    HttpResponse<String> post(String session, String body, boolean auth) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port.getAsInt() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (auth) b.header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session);
        return send(b.build());
    }

    /**
     * Sends {@code request}, once more when it went out on a pooled connection the server had closed meanwhile (the JDK
     * client then reads no bytes at all: the request never reached the server). The server may close a kept-alive
     * connection after refusing a request whose body it did not read; a client that reuses it sees this EOF, and the JDK
     * client retries only idempotent methods itself. CI met it once after a 404.
     */
    HttpResponse<String> send(HttpRequest request) throws Exception {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            if (e.getMessage() == null || !e.getMessage().contains("received no bytes")) throw e;
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        }
    }

    /** initialize and the initialized notification; the session id the server answered with. */
    String initialize() throws Exception {
        HttpResponse<String> r = post(null, RawHttp.INITIALIZE, true);
        assertEquals(200, r.statusCode(), r.body());
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", true).statusCode());
        return session;
    }

    /** A JSON-RPC request with the next id. */
    HttpResponse<String> request(String session, String method, Map<String, Object> params) throws Exception {
        return post(session, json.write(Map.of("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", method, "params", params)), true);
    }

    HttpResponse<String> call(String session, String tool, Map<String, Object> args) throws Exception {
        return request(session, "tools/call", Map.of("name", tool, "arguments", args));
    }

    /** The result of an SSE answer. */
    @SuppressWarnings("unchecked")
    Map<String, Object> result(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        String data = r.body().lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no data line in " + r.body()));
        return (Map<String, Object>) json.readObject(data).get("result");
    }

    /** A tool call that must succeed: its structured content. */
    @SuppressWarnings("unchecked")
    Map<String, Object> ok(String session, String tool, Map<String, Object> args) throws Exception {
        Map<String, Object> result = result(call(session, tool, args));
        assertFalse(Boolean.TRUE.equals(result.get("isError")), tool + ": " + result);
        return (Map<String, Object>) result.get("structuredContent");
    }
}
