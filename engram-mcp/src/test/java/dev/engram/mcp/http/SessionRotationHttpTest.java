package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Memento's session_rotate over Streamable HTTP: a new id that carries the session on, the old one refused. */
class SessionRotationHttpTest {
    private static final String TOKEN = "rotation-token-0123456789";
    private McpHttpServer server;
    private final McpHttpCalls mcp = new McpHttpCalls(() -> server.port(), TOKEN);

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

    @Test
    void aRotatedSessionGoesOnUnderItsNewIdAndTheOldOneIsRefused() throws Exception {
        String first = mcp.initialize();
        mcp.ok(first, "remember", Map.of("content", "Redis NOAUTH means REDIS_PASSWORD is empty", "topic", "redis", "type", "error"));
        Map<String, Object> ctx = mcp.ok(first, "context", Map.of());
        assertEquals(1, ((List<?>) ctx.get("fragments")).size(), ctx.toString());

        HttpResponse<String> rotation = mcp.call(first, "session_rotate", Map.of("reason", "suspected_leak"));
        Map<String, Object> answer = mcp.result(rotation);
        @SuppressWarnings("unchecked")
        Map<String, Object> rotated = (Map<String, Object>) answer.get("structuredContent");
        String second = (String) rotated.get("newSessionId");
        assertTrue(second != null && second.matches("[0-9a-f-]{36}") && !second.equals(first), rotated.toString());
        assertEquals(second, rotation.headers().firstValue("Mcp-Session-Id").orElse(null),
                "the rotating response announces the new id, so a client that reads the header switches on its own");
        assertEquals(true, rotated.get("success"));
        assertEquals("suspected_leak", rotated.get("reason"));
        assertTrue(rotated.containsKey("expiresAt") && rotated.get("expiresAt") == null, "Engram's sessions do not expire by time");

        HttpResponse<String> stale = mcp.call(first, "recall", Map.of("keywords", List.of("redis")));
        assertEquals(404, stale.statusCode(), stale.body());
        assertTrue(stale.body().contains("rotated with session_rotate"), stale.body());
        HttpResponse<String> anonymous = mcp.post(first, "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/list\"}", false);
        assertEquals(401, anonymous.statusCode(), "the token is checked before anything is said about the id");

        // the session carries over: what its context call showed is still left out of its recall (excludeSeen)
        Map<String, Object> seen = mcp.ok(second, "recall", Map.of("keywords", List.of("redis")));
        assertEquals(List.of(), seen.get("fragments"), seen.toString());
        assertEquals(1, ((List<?>) mcp.ok(second, "recall", Map.of("keywords", List.of("redis"), "excludeSeen", false))
                .get("fragments")).size());

        String third = (String) mcp.ok(second, "session_rotate", Map.of()).get("newSessionId");
        assertNotEquals(second, third);
        assertEquals(404, mcp.call(second, "memory_stats", Map.of()).statusCode(), "each rotation retires the id before it");
        assertEquals(404, mcp.call(first, "memory_stats", Map.of()).statusCode());
        assertEquals(1L, ((Number) ((Map<?, ?>) mcp.ok(third, "memory_stats", Map.of()).get("stats")).get("total")).longValue());

        Map<String, Object> refused = mcp.result(mcp.call(third, "session_rotate", Map.of("reason", "x".repeat(257))));
        assertEquals(true, refused.get("isError"));
        assertTrue(refused.toString().contains("reason is 257 characters; send at most 256"), refused.toString());
        assertEquals(true, mcp.ok(third, "memory_stats", Map.of()).get("success"), "a refused rotation leaves the id working");

        HttpResponse<String> deleted = mcp.http().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Authorization", "Bearer " + TOKEN).header("Mcp-Session-Id", third).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals(404, mcp.call(third, "memory_stats", Map.of()).statusCode(), "deleted under its rotated id");
    }

    @Test
    void anotherSessionIsNotTouched() throws Exception {
        String a = mcp.initialize(), b = mcp.initialize();
        String rotated = (String) mcp.ok(a, "session_rotate", Map.of()).get("newSessionId");
        assertEquals(true, mcp.ok(b, "memory_stats", Map.of()).get("success"));
        assertEquals(true, mcp.ok(rotated, "memory_stats", Map.of()).get("success"));
        HttpResponse<String> plain = mcp.call(b, "memory_stats", Map.of());
        assertTrue(plain.headers().firstValue("Mcp-Session-Id").isEmpty(), "only the rotating response carries a new id");
    }
}
