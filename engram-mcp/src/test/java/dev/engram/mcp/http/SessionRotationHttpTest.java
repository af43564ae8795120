package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Memento's session_rotate over Streamable HTTP: a new id that carries the session on, the old one refused. */
class SessionRotationHttpTest {
    private static final String TOKEN = "rotation-token-0123456789";
    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonText json = JsonText.standard();
    private final AtomicInteger ids = new AtomicInteger(1);
    private McpHttpServer server;

    @BeforeEach
    void start() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), Clock.systemUTC());
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of()), profile, "test", McpJsonDefaults.getMapper());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> post(String session, String body, boolean auth) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (auth) b.header("Authorization", "Bearer " + TOKEN);
        if (session != null) b.header("Mcp-Session-Id", session);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String initialize() throws Exception {
        HttpResponse<String> r = post(null, RawHttp.INITIALIZE, true);
        assertEquals(200, r.statusCode(), r.body());
        String session = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(202, post(session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", true).statusCode());
        return session;
    }

    private HttpResponse<String> call(String session, String tool, Map<String, Object> args) throws Exception {
        return post(session, json.write(Map.of("jsonrpc", "2.0", "id", ids.incrementAndGet(), "method", "tools/call",
                "params", Map.of("name", tool, "arguments", args))), true);
    }

    /** The tool result of an SSE answer. */
    @SuppressWarnings("unchecked")
    private Map<String, Object> result(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        String data = r.body().lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).strip()).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no data line in " + r.body()));
        return (Map<String, Object>) json.readObject(data).get("result");
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String session, String tool, Map<String, Object> args) throws Exception {
        Map<String, Object> result = result(call(session, tool, args));
        assertFalse(Boolean.TRUE.equals(result.get("isError")), tool + ": " + result);
        return (Map<String, Object>) result.get("structuredContent");
    }

    @Test
    void aRotatedSessionGoesOnUnderItsNewIdAndTheOldOneIsRefused() throws Exception {
        String first = initialize();
        ok(first, "remember", Map.of("content", "Redis NOAUTH means REDIS_PASSWORD is empty", "topic", "redis", "type", "error"));
        Map<String, Object> ctx = ok(first, "context", Map.of());
        assertEquals(1, ((List<?>) ctx.get("fragments")).size(), ctx.toString());

        HttpResponse<String> rotation = call(first, "session_rotate", Map.of("reason", "suspected_leak"));
        Map<String, Object> answer = result(rotation);
        @SuppressWarnings("unchecked")
        Map<String, Object> rotated = (Map<String, Object>) answer.get("structuredContent");
        String second = (String) rotated.get("newSessionId");
        assertTrue(second != null && second.matches("[0-9a-f-]{36}") && !second.equals(first), rotated.toString());
        assertEquals(second, rotation.headers().firstValue("Mcp-Session-Id").orElse(null),
                "the rotating response announces the new id, so a client that reads the header switches on its own");
        assertEquals(true, rotated.get("success"));
        assertEquals("suspected_leak", rotated.get("reason"));
        assertTrue(rotated.containsKey("expiresAt") && rotated.get("expiresAt") == null, "Engram's sessions do not expire by time");

        HttpResponse<String> stale = call(first, "recall", Map.of("keywords", List.of("redis")));
        assertEquals(404, stale.statusCode(), stale.body());
        assertTrue(stale.body().contains("rotated with session_rotate"), stale.body());
        HttpResponse<String> anonymous = post(first, "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\"}", false);
        assertEquals(401, anonymous.statusCode(), "the token is checked before anything is said about the id");

        // the session carries over: what its context call showed is still left out of its recall (excludeSeen)
        Map<String, Object> seen = ok(second, "recall", Map.of("keywords", List.of("redis")));
        assertEquals(List.of(), seen.get("fragments"), seen.toString());
        assertEquals(1, ((List<?>) ok(second, "recall", Map.of("keywords", List.of("redis"), "excludeSeen", false))
                .get("fragments")).size());

        String third = (String) ok(second, "session_rotate", Map.of()).get("newSessionId");
        assertNotEquals(second, third);
        assertEquals(404, call(second, "memory_stats", Map.of()).statusCode(), "each rotation retires the id before it");
        assertEquals(404, call(first, "memory_stats", Map.of()).statusCode());
        assertEquals(1L, ((Number) ((Map<?, ?>) ok(third, "memory_stats", Map.of()).get("stats")).get("total")).longValue());

        Map<String, Object> refused = result(call(third, "session_rotate", Map.of("reason", "x".repeat(257))));
        assertEquals(true, refused.get("isError"));
        assertTrue(refused.toString().contains("reason is 257 characters; send at most 256"), refused.toString());
        assertEquals(true, ok(third, "memory_stats", Map.of()).get("success"), "a refused rotation leaves the id working");

        HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Authorization", "Bearer " + TOKEN).header("Mcp-Session-Id", third).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals(404, call(third, "memory_stats", Map.of()).statusCode(), "deleted under its rotated id");
    }

    @Test
    void anotherSessionIsNotTouched() throws Exception {
        String a = initialize(), b = initialize();
        String rotated = (String) ok(a, "session_rotate", Map.of()).get("newSessionId");
        assertEquals(true, ok(b, "memory_stats", Map.of()).get("success"));
        assertEquals(true, ok(rotated, "memory_stats", Map.of()).get("success"));
        HttpResponse<String> plain = call(b, "memory_stats", Map.of());
        assertTrue(plain.headers().firstValue("Mcp-Session-Id").isEmpty(), "only the rotating response carries a new id");
    }
}
