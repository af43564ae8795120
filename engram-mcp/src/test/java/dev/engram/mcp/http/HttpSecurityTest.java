package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class HttpSecurityTest {
    private static final String TOKEN = "test-token-0123456789abcdef";
    private static McpHttpServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, "/mcp",
                TokenSet.of(List.of("other-token-zzzzzzzzzzzz", TOKEN)), false, List.of(), List.of());
        server = McpHttpServer.start(settings, TestEngines.nativeProfile(Clock.systemUTC()), "test",
                McpJsonDefaults.getMapper());
        port = server.port();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    /** Every error body is a plain JSON-RPC error: no Java stack trace, no exception dump. */
    private static Map<String, Object> assertCleanError(RawHttp.Response r) {
        assertFalse(r.body().contains("at org."), r.body());
        assertFalse(r.body().contains("at java."), r.body());
        assertFalse(r.body().contains("stackTrace"), r.body());
        assertFalse(r.body().contains("Exception"), r.body());
        Map<String, Object> json = JsonText.standard().readObject(r.body());
        assertEquals("2.0", json.get("jsonrpc"));
        assertTrue(json.get("error") instanceof Map<?, ?> e && e.get("code") instanceof Number
                && e.get("message") instanceof String, r.body());
        return json;
    }

    @Test
    void noTokenIsRejectedWithAChallenge() throws Exception {
        RawHttp.Response r = RawHttp.send(port, "POST", "/mcp", Map.of(), RawHttp.INITIALIZE);
        assertEquals(401, r.status());
        assertTrue(r.header("WWW-Authenticate").startsWith("Bearer"), r.headers().toString());
        assertCleanError(r);
        assertTrue(r.body().contains("Authorization: Bearer"), r.body());
        assertEquals(null, r.header("Server"), "no version banner");
    }

    @Test
    void wrongTokenIsRejected() throws Exception {
        RawHttp.Response r = RawHttp.send(port, "POST", "/mcp", bearer("test-token-0123456789abcdeX"), RawHttp.INITIALIZE);
        assertEquals(401, r.status());
        assertNotNull(r.header("WWW-Authenticate"));
        assertCleanError(r);
        assertEquals(401, RawHttp.send(port, "POST", "/mcp", Map.of("Authorization", "Basic " + TOKEN),
                RawHttp.INITIALIZE).status());
    }

    @Test
    void goodTokenOpensASession() throws Exception {
        RawHttp.Response r = RawHttp.send(port, "POST", "/mcp", bearer(TOKEN), RawHttp.INITIALIZE);
        assertEquals(200, r.status(), r.body());
        assertNotNull(r.header("Mcp-Session-Id"));
        assertTrue(r.body().contains("\"serverInfo\""), r.body());
        assertEquals(200, RawHttp.send(port, "POST", "/mcp", bearer("other-token-zzzzzzzzzzzz"), RawHttp.INITIALIZE).status());
    }

    @Test
    void foreignHostIsRejected() throws Exception {
        RawHttp.Response r = RawHttp.send(port, "POST", "/mcp",
                Map.of("Authorization", "Bearer " + TOKEN, "Host", "evil.example"), RawHttp.INITIALIZE);
        assertTrue(r.status() == 421 || r.status() == 403, "status " + r.status());
        assertCleanError(r);
    }

    @Test
    void foreignOriginIsRejected() throws Exception {
        RawHttp.Response r = RawHttp.send(port, "POST", "/mcp",
                Map.of("Authorization", "Bearer " + TOKEN, "Origin", "http://evil.example"), RawHttp.INITIALIZE);
        assertEquals(403, r.status());
        assertCleanError(r);
        assertEquals(200, RawHttp.send(port, "POST", "/mcp",
                Map.of("Authorization", "Bearer " + TOKEN, "Origin", "http://localhost:3000"), RawHttp.INITIALIZE).status());
    }

    /**
     * Jetty's per-connection header cache matched a cached Authorization value case-insensitively: on a
     * reused connection 'Bearer SECRET' passed as the 'Bearer secret' sent before it.
     */
    @Test
    void everyRequestOnAKeepAliveConnectionIsJudgedOnItsOwnToken() throws Exception {
        String upper = TOKEN.toUpperCase(java.util.Locale.ROOT);
        String mixed = TOKEN.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + TOKEN.substring(1);
        List<String> sent = List.of(TOKEN, upper, mixed, TOKEN.substring(0, TOKEN.length() - 1), TOKEN + "x", "wrong",
                TOKEN, TOKEN.substring(0, 4));
        List<RawHttp.Response> responses = RawHttp.keepAlive(port, sent.stream().map(HttpSecurityTest::bearer).toList(),
                RawHttp.INITIALIZE);
        List<Integer> statuses = responses.stream().map(RawHttp.Response::status).toList();
        assertEquals(List.of(200, 401, 401, 401, 401, 401, 200, 401), statuses, "tokens sent: case, prefix, suffix variants");
    }

    @Test
    void malformedParamsGetAJsonRpcErrorNamingTheFieldNotAJavaClass() throws Exception {
        RawHttp.Response init = RawHttp.send(port, "POST", "/mcp", bearer(TOKEN), RawHttp.INITIALIZE);
        String session = init.header("Mcp-Session-Id");
        Map<String, String> headers = Map.of("Authorization", "Bearer " + TOKEN, "Mcp-Session-Id", session);
        for (String body : List.of("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":[1]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":\"q\"}}")) {
            RawHttp.Response r = RawHttp.send(port, "POST", "/mcp", headers, body);
            assertEquals(200, r.status(), r.body());
            Map<String, Object> json = assertCleanError(r);
            assertEquals(5, ((Number) json.get("id")).intValue());
            Map<?, ?> error = (Map<?, ?>) json.get("error");
            assertEquals(-32602, ((Number) error.get("code")).intValue());
            assertTrue(((String) error.get("message")).contains("params."), r.body());
        }
        RawHttp.Response batch = RawHttp.send(port, "POST", "/mcp", headers, "[]");
        assertEquals(400, batch.status());
        assertEquals(-32600, ((Number) ((Map<?, ?>) assertCleanError(batch).get("error")).get("code")).intValue());
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        RawHttp.Response r = RawHttp.sendDeclared(port, bearer(TOKEN), McpHttpServer.MAX_BODY_BYTES + 1L,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"aaaa");
        assertEquals(413, r.status());
        assertTrue(((String) ((Map<?, ?>) assertCleanError(r).get("error")).get("message")).contains("limit is "
                + McpHttpServer.MAX_BODY_BYTES), r.body());
    }

    @Test
    void protocolErrorsCarryNoStackTrace() throws Exception {
        // each of these made the SDK serialize a whole McpError with its stack trace (gotcha 1)
        RawHttp.Response noSession = RawHttp.send(port, "GET", "/mcp", bearer(TOKEN), null);
        assertEquals(400, noSession.status());
        assertCleanError(noSession);

        RawHttp.Response garbage = RawHttp.send(port, "POST", "/mcp", bearer(TOKEN), "{not json");
        assertEquals(400, garbage.status());
        assertCleanError(garbage);

        RawHttp.Response unknownSession = RawHttp.send(port, "POST", "/mcp",
                Map.of("Authorization", "Bearer " + TOKEN, "Mcp-Session-Id", "no-such-session"),
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(404, unknownSession.status());
        assertCleanError(unknownSession);

        RawHttp.Response badAccept = RawHttp.send(port, "POST", "/mcp",
                Map.of("Authorization", "Bearer " + TOKEN, "Accept", "text/html"), RawHttp.INITIALIZE);
        assertEquals(400, badAccept.status());
        assertCleanError(badAccept);

        RawHttp.Response otherPath = RawHttp.send(port, "GET", "/admin", bearer(TOKEN), null);
        assertEquals(404, otherPath.status());
        assertCleanError(otherPath);
    }

    @Test
    void noAuthServesWithoutTokenOnLoopback() throws Exception {
        HttpServerSettings open = new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.none(), true, List.of(), List.of());
        try (McpHttpServer s = McpHttpServer.start(open, TestEngines.nativeProfile(Clock.systemUTC()), "test",
                McpJsonDefaults.getMapper())) {
            assertEquals(200, RawHttp.send(s.port(), "POST", "/mcp", Map.of(), RawHttp.INITIALIZE).status());
        }
    }
}
