package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Principals;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Principals over the real HTTP server: their tokens, revocation, and what /health and /metrics show whom. */
class PrincipalsHttpTest {
    private static final String OPS = "ops-token-0123456789abcdef";
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine raw = new Engine(store, new InMemorySearchIndex(store), clock);
    private final AtomicReference<ServerStatus> status = new AtomicReference<>(new ServerStatus(null, 3, 0, "ready", "test-model"));
    private McpHttpServer server;
    private String reader;

    @BeforeEach
    void start() throws Exception {
        raw.remember(RememberCommand.builder("The team deploys on Tuesdays").zone("team").build());
        reader = raw.principals().add("reader", new Grants(Map.of("team", Right.READ), null)).token();
        Engine guarded = raw.guarded(Access::current);
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(OPS)), false,
                        List.of(), List.of(), true), NativeProfile.create(new ProfileContext(() -> guarded, "team"),
                        JsonText.standard()), "test", McpJsonDefaults.getMapper(),
                new Principals(store, clock, Duration.ofSeconds(2)), status::get);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawHttp.Response post(String token) throws Exception {
        return RawHttp.send(server.port(), "POST", "/mcp", Map.of("Authorization", "Bearer " + token,
                "Accept", "application/json, text/event-stream", "Content-Type", "application/json"), RawHttp.INITIALIZE);
    }

    private RawHttp.Response get(String path, String token) throws Exception {
        return RawHttp.send(server.port(), "GET", path, token == null ? Map.of() : Map.of("Authorization", "Bearer " + token), null);
    }

    private McpSyncClient client(String token) {
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").httpRequestCustomizer((b, m, u, body, ctx) -> b.header("Authorization", "Bearer " + token))
                .build()).requestTimeout(Duration.ofSeconds(20)).build();
        c.initialize();
        return c;
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void aPrincipalsTokenWorksUntilRevokedThenStopsWithinTheCacheTime() throws Exception {
        assertEquals(200, post(reader).status());
        raw.principals().revoke("reader"); // another process's view: the server's copy is up to 2 s old
        clock.advance(Duration.ofSeconds(2));
        RawHttp.Response after = post(reader);
        assertEquals(401, after.status());
        assertTrue(after.body().contains("not valid"), after.body());
        assertEquals(200, post(OPS).status(), "a configured token keeps working");
    }

    @Test
    void aReaderReadsItsZoneAndIsRefusedWritingIt() {
        McpSyncClient c = client(reader);
        try {
            CallToolResult found = c.callTool(CallToolRequest.builder("recall").arguments(Map.of("query", "deploys")).build());
            assertFalse(found.isError(), text(found));
            assertTrue(text(found).contains("Tuesdays"), text(found));
            CallToolResult write = c.callTool(CallToolRequest.builder("remember")
                    .arguments(Map.of("content", "The team also deploys on Fridays")).build());
            assertTrue(write.isError());
            assertEquals("access denied: this token has no write right on zone 'team'; ask the server's operator for one"
                    + " (engram tokens add NAME --zone team:write)", text(write));
            assertEquals(1, store.count());
            CallToolResult other = c.callTool(CallToolRequest.builder("recall")
                    .arguments(Map.of("query", "deploys", "zone", "elsewhere")).build());
            assertTrue(other.isError());
            assertTrue(text(other).contains("no read right on zone 'elsewhere'"), text(other));
        } finally {
            c.closeGracefully();
        }
        CallToolResult full = ops().callTool(CallToolRequest.builder("remember")
                .arguments(Map.of("content", "Operators may write anywhere", "zone", "ops")).build());
        assertFalse(full.isError(), text(full));
    }

    private McpSyncClient ops() {
        return client(OPS);
    }

    @Test
    void healthSaysOkToAnyoneAndDetailsToOperatorsOnly() throws Exception {
        RawHttp.Response open = get("/health", null);
        assertEquals(200, open.status());
        assertEquals(Map.of("status", "ok"), JsonText.standard().readObject(open.body()));
        assertEquals(Map.of("status", "ok"), JsonText.standard().readObject(get("/health", reader).body()),
                "a zone's reader learns no store-wide numbers");
        Map<String, Object> detail = JsonText.standard().readObject(get("/health", OPS).body());
        assertEquals("ok", detail.get("status"));
        assertEquals(Map.of("reachable", true, "memories", 3L), normalize(detail.get("store")));
        assertEquals(Map.of("lag", 0L), normalize(detail.get("index")));
        assertEquals(Map.of("state", "ready", "model", "test-model"), detail.get("embedder"));
        assertEquals(401, get("/health", "wrong-token").status(), "a wrong token is refused, not ignored");

        status.set(new ServerStatus("the store did not answer (StoreException)", -1, -1, "ready", "test-model"));
        RawHttp.Response degraded = get("/health", null);
        assertEquals(503, degraded.status());
        assertEquals(Map.of("status", "degraded"), JsonText.standard().readObject(degraded.body()));
        Map<String, Object> why = JsonText.standard().readObject(get("/health", OPS).body());
        assertEquals("the store did not answer (StoreException)", ((Map<?, ?>) why.get("store")).get("problem"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> normalize(Object o) {
        Map<String, Object> m = new java.util.LinkedHashMap<>((Map<String, Object>) o);
        m.replaceAll((k, v) -> v instanceof Number n && !(v instanceof Double) ? (Object) n.longValue() : v);
        return m;
    }

    @Test
    void metricsArePrometheusTextForOperators() throws Exception {
        McpSyncClient c = ops();
        try {
            c.callTool(CallToolRequest.builder("recall").arguments(Map.of("query", "deploys", "zone", "team")).build());
            c.callTool(CallToolRequest.builder("recall").arguments(Map.of("query", "deploys", "limit", true)).build());
        } finally {
            c.closeGracefully();
        }
        assertEquals(401, get("/metrics", null).status());
        RawHttp.Response narrow = get("/metrics", reader);
        assertEquals(403, narrow.status());
        assertTrue(narrow.body().contains("read right on every zone"), narrow.body());
        RawHttp.Response m = get("/metrics", OPS);
        assertEquals(200, m.status());
        assertTrue(m.header("Content-Type").startsWith("text/plain; version=0.0.4"), m.headers().toString());
        String body = m.body();
        assertTrue(body.contains("# TYPE engram_tool_calls_total counter"), body);
        assertTrue(body.matches("(?s).*engram_tool_calls_total\\{tool=\"recall\",outcome=\"ok\"} [1-9].*"), body);
        assertTrue(body.matches("(?s).*engram_tool_calls_total\\{tool=\"recall\",outcome=\"error\"} [1-9].*"), body);
        assertTrue(body.contains("# TYPE engram_tool_duration_seconds histogram"), body);
        assertTrue(body.matches("(?s).*engram_tool_duration_seconds_bucket\\{tool=\"recall\",le=\"\\+Inf\"} [1-9].*"), body);
        assertTrue(body.matches("(?s).*engram_tool_duration_seconds_count\\{tool=\"recall\"} [1-9].*"), body);
        assertTrue(body.contains("engram_index_lag 0\n"), body);
        assertTrue(body.contains("engram_memories 3\n"), body);
        assertTrue(body.contains("engram_store_up 1\n"), body);
        assertTrue(body.contains("engram_embedder_ready 1\n"), body);
        assertTrue(body.contains("# TYPE engram_maintenance_runs_total counter\nengram_maintenance_runs_total ")
                && body.contains("engram_maintenance_last_run_seconds "), body);
        assertTrue(body.matches("(?s).*engram_http_responses_total\\{code=\"401\"} [1-9].*"), body);
        for (String line : body.split("\n")) {
            assertTrue(line.startsWith("# HELP ") || line.startsWith("# TYPE ") || line.matches("[a-z_]+(\\{[^}]*})? \\S+"), line);
        }
    }
}
