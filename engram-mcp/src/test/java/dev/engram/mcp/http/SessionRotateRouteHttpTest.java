package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

/**
 * Memento's {@code POST /session/rotate} beside {@code /mcp}: the session_rotate tool's rotation from outside a tool call
 * (one ledger for both), its auth and errors, and {@code memory://active-session} showing the current id after either.
 */
class SessionRotateRouteHttpTest {
    private static final String TOKEN = "rotate-route-token-0123456789";
    private McpHttpServer server;
    private final McpHttpCalls mcp = new McpHttpCalls(() -> server.port(), TOKEN);

    @BeforeEach
    void start() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), Clock.systemUTC());
        server = McpHttpServer.builder(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of()), profile, "test", McpJsonDefaults.getMapper()).sessionRotateRoute(true).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** {@code POST /session/rotate}; {@code body} null sends none. */
    private HttpResponse<String> rotate(String session, String body, boolean auth, String origin) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/session/rotate"))
                .POST(body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", "application/json");
        if (auth) b.header("Authorization", "Bearer " + TOKEN);
        if (session != null) b.header("Mcp-Session-Id", session);
        if (origin != null) b.header("Origin", origin);
        return mcp.send(b.build());
    }

    /** memory://active-session, read over the session presented as {@code session}. */
    private Map<String, Object> activeSession(String session) throws Exception {
        Map<String, Object> result = mcp.result(mcp.request(session, "resources/read", Map.of("uri", "memory://active-session")));
        Map<?, ?> contents = (Map<?, ?>) ((List<?>) result.get("contents")).get(0);
        return mcp.json().readObject((String) contents.get("text"));
    }

    private Map<String, Object> body(HttpResponse<String> r) {
        assertEquals("application/json", r.headers().firstValue("Content-Type").orElse("").replaceAll(";.*", ""), r.body());
        return mcp.json().readObject(r.body());
    }

    /** The client name RawHttp.INITIALIZE sends, as memory://active-session prefixes the id with it. */
    private static String shown(Map<String, Object> active, String id) {
        String s = (String) active.get("sessionId");
        assertTrue(s.endsWith("/" + id) || s.equals(id), "active-session shows " + s + ", expected the id " + id);
        return s;
    }

    @Test
    void theRouteRotatesTheSessionTheToolWouldAndActiveSessionFollows() throws Exception {
        String first = mcp.initialize();
        mcp.ok(first, "remember", Map.of("content", "Redis NOAUTH means REDIS_PASSWORD is empty", "topic", "redis", "type", "error"));
        shown(activeSession(first), first);

        HttpResponse<String> r = rotate(first, "{\"reason\": \"suspected_leak\"}", true, null);
        assertEquals(200, r.statusCode(), r.body());
        Map<String, Object> rotated = body(r);
        String second = (String) rotated.get("newSessionId");
        assertEquals(first, rotated.get("oldSessionId"));
        assertTrue(second != null && second.matches("[0-9a-f-]{36}") && !second.equals(first), rotated.toString());
        assertEquals("suspected_leak", rotated.get("reason"));
        assertTrue(rotated.containsKey("expiresAt") && rotated.get("expiresAt") == null, rotated.toString());
        assertEquals(second, r.headers().firstValue("Mcp-Session-Id").orElse(null));

        assertEquals(404, mcp.post(first, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}", true).statusCode(),
                "the MCP endpoint refuses the retired id, as after the tool");
        Map<String, Object> active = activeSession(second);
        shown(active, second);
        assertEquals(1L, ((Number) active.get("fragmentsWritten")).longValue(), "what the session wrote carries over: " + active);

        // the tool and the route share one ledger: the tool rotates the route's id, the route the tool's
        String third = (String) mcp.ok(second, "session_rotate", Map.of()).get("newSessionId");
        shown(activeSession(third), third);
        HttpResponse<String> stale = rotate(second, null, true, null);
        assertEquals(404, stale.statusCode(), stale.body());
        assertEquals("not_found", body(stale).get("error"));
        HttpResponse<String> again = rotate(third, null, true, null);
        assertEquals(200, again.statusCode(), again.body());
        Map<String, Object> fourth = body(again);
        assertEquals("user_request", fourth.get("reason"), "no body: Memento's default reason");
        String current = (String) fourth.get("newSessionId");
        shown(activeSession(current), current);
        assertEquals(1L, ((Number) ((Map<?, ?>) mcp.ok(current, "memory_stats", Map.of()).get("stats")).get("total")).longValue());
    }

    @Test
    void activeSessionShowsTheToolsNewIdNotTheRetiredOne() throws Exception {
        String first = mcp.initialize();
        String second = (String) mcp.ok(first, "session_rotate", Map.of("reason", "suspected_leak")).get("newSessionId");
        Map<String, Object> active = activeSession(second);
        String s = shown(active, second);
        assertFalse(s.contains(first), "the retired id is not shown: " + active);
    }

    @Test
    void refusalsSayWhatIsWrong() throws Exception {
        String session = mcp.initialize();

        HttpResponse<String> anonymous = rotate(session, null, false, null);
        assertEquals(401, anonymous.statusCode(), "the token is checked before anything else");
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").isPresent());

        HttpResponse<String> noId = rotate(null, null, true, null);
        assertEquals(400, noId.statusCode(), noId.body());
        assertEquals("bad_request", body(noId).get("error"));
        assertTrue(((String) body(noId).get("error_description")).contains("Mcp-Session-Id header is required"), noId.body());

        HttpResponse<String> unknown = rotate("0f8e3c52-1d5b-4a39-9a7e-5b0c2d4e6f70", null, true, null);
        assertEquals(404, unknown.statusCode(), unknown.body());
        assertTrue(((String) body(unknown).get("error_description")).contains("no open session has this id"), unknown.body());

        HttpResponse<String> notJson = rotate(session, "reason=leak", true, null);
        assertEquals(400, notJson.statusCode(), notJson.body());
        assertTrue(((String) body(notJson).get("error_description")).contains("body is not a JSON object"), notJson.body());

        HttpResponse<String> number = rotate(session, "{\"reason\": 5}", true, null);
        assertEquals(400, number.statusCode(), number.body());
        assertTrue(((String) body(number).get("error_description")).contains("reason must be a string"), number.body());

        HttpResponse<String> longer = rotate(session, mcp.json().write(Map.of("reason", "r".repeat(257))), true, null);
        assertEquals(400, longer.statusCode(), longer.body());
        assertEquals("reason is 257 characters; send at most 256", body(longer).get("error_description"));

        HttpResponse<String> large = rotate(session, "{\"reason\": \"" + "x".repeat(5000) + "\"}", true, null);
        assertEquals(413, large.statusCode(), large.body());

        HttpResponse<String> foreign = rotate(session, null, true, "https://evil.example");
        assertEquals(403, foreign.statusCode(), foreign.body());
        assertEquals("forbidden", body(foreign).get("error"));

        HttpResponse<String> get = mcp.http().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/session/rotate")).header("Authorization", "Bearer " + TOKEN).header("Mcp-Session-Id", session).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, get.statusCode(), get.body());
        assertEquals("POST", get.headers().firstValue("Allow").orElse(null));

        assertEquals(true, mcp.ok(session, "memory_stats", Map.of()).get("success"), "every refusal left the id working");
        HttpResponse<String> local = rotate(session, "{}", true, "http://localhost:3000");
        assertEquals(200, local.statusCode(), "a loopback origin is allowed, as on /mcp: " + local.body());
    }

    @Test
    void aDeletedSessionIsUnknownToTheRoute() throws Exception {
        String session = mcp.initialize();
        HttpResponse<String> deleted = mcp.http().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Authorization", "Bearer " + TOKEN).header("Mcp-Session-Id", session).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, deleted.statusCode(), deleted.body());
        HttpResponse<String> r = rotate(session, null, true, null);
        assertEquals(404, r.statusCode(), r.body());
        assertNotEquals(null, body(r).get("error_description"));
    }

    @Test
    void withoutTheRouteThePathIsNotServedAndTheMcpPathCannotBeTheRoute() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), Clock.systemUTC());
        try (McpHttpServer plain = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)),
                false, List.of(), List.of()), profile, "test", McpJsonDefaults.getMapper())) {
            HttpResponse<String> r = mcp.http().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plain.port()
                    + "/session/rotate")).header("Authorization", "Bearer " + TOKEN).header("Mcp-Session-Id", "x")
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            // no route: the request meets the MCP server's own checks (here the body check), never a rotation
            assertTrue(r.statusCode() == 400 || r.statusCode() == 404, r.statusCode() + " " + r.body());
            assertTrue(r.body().contains("\"jsonrpc\"") && !r.body().contains("newSessionId"), r.body());
        }
        var clash = assertThrows(IllegalArgumentException.class, () -> McpHttpServer.builder(new HttpServerSettings("127.0.0.1", 0,
                "/session/rotate", TokenSet.of(List.of(TOKEN)), false, List.of(), List.of()), profile, "test",
                McpJsonDefaults.getMapper()).sessionRotateRoute(true).start());
        assertTrue(clash.getMessage().contains("choose another path"), clash.getMessage());
    }
}
