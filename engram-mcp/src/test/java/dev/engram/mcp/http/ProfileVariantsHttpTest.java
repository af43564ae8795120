package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.memento.MementoModes;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Memento's X-Memento-Mode presets over HTTP: each header value is its own face of the profile, from tools/list on. */
class ProfileVariantsHttpTest {
    private static final String TOKEN = "variants-token-0123456789";
    private static McpHttpServer server;

    @BeforeAll
    static void start() throws Exception {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        Engine engine = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
        ToolProfile profile = MementoProfile.create(ProfileContext.of(engine, "default"), Clock.systemUTC());
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of()), profile, new ProfileVariants(MementoModes.HEADER, MementoModes.variants(profile)), "test",
                McpJsonDefaults.getMapper());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static McpSyncClient client(String mode) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").httpRequestCustomizer((b, method, uri, body, ctx) -> {
                    b.header("Authorization", "Bearer " + TOKEN);
                    if (mode != null) b.header(MementoModes.HEADER, mode);
                }).build();
        McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        c.initialize();
        return c;
    }

    private static List<String> tools(McpSyncClient c) {
        return c.listTools().tools().stream().map(McpSchema.Tool::name).toList();
    }

    @Test
    void eachPresetListsOnlyItsTools() {
        McpSyncClient all = client(null), recallOnly = client("recall-only"), writeOnly = client("Write-Only"),
                onboarding = client("onboarding"), audit = client("audit");
        try {
            assertEquals(17, tools(all).size());
            List<String> r = tools(recallOnly);
            assertTrue(r.contains("recall") && r.contains("context") && r.contains("tool_feedback"), r.toString());
            for (String w : List.of("remember", "batch_remember", "amend", "forget", "link", "reflect", "memory_consolidate")) {
                assertFalse(r.contains(w), w + " is hidden in recall-only: " + r);
            }
            List<String> w = tools(writeOnly);
            assertTrue(w.contains("remember") && !w.contains("recall") && !w.contains("memory_stats"), w.toString());
            List<String> o = tools(onboarding);
            assertEquals("get_skill_guide", o.get(0));
            assertEquals(17, o.size());
            List<String> a = tools(audit);
            assertTrue(a.contains("memory_consolidate") && !a.contains("remember"), a.toString());

            // a session keeps its preset: its writes are refused as unknown tools, the default session writes
            var refused = org.junit.jupiter.api.Assertions.assertThrows(io.modelcontextprotocol.spec.McpError.class,
                    () -> recallOnly.callTool(CallToolRequest.builder("remember")
                            .arguments(Map.of("content", "x", "topic", "t", "type", "fact")).build()));
            assertTrue(refused.getMessage().contains("Unknown tool"), refused.getMessage());
            var stored = writeOnly.callTool(CallToolRequest.builder("remember")
                    .arguments(Map.of("content", "Staging has three nodes", "topic", "infra", "type", "fact")).build());
            assertFalse(Boolean.TRUE.equals(stored.isError()), stored.toString());
            var found = recallOnly.callTool(CallToolRequest.builder("recall").arguments(Map.of("keywords", List.of("staging"))).build());
            assertTrue(found.structuredContent().toString().contains("Staging has three nodes"), "one store under every preset");
        } finally {
            for (McpSyncClient c : List.of(all, recallOnly, writeOnly, onboarding, audit)) c.closeGracefully();
        }
    }

    @Test
    void whatContextGaveIsLeftOutOfRecallInThatHttpSessionOnly() {
        McpSyncClient a = client(null), b = client("recall-only");
        try {
            var saved = a.callTool(CallToolRequest.builder("remember").arguments(Map.of("content",
                    "Reply to the release channel in plain English", "topic", "etiquette", "type", "preference")).build());
            assertFalse(Boolean.TRUE.equals(saved.isError()), saved.toString());
            String id = (String) ((Map<?, ?>) saved.structuredContent()).get("id");
            var recall = CallToolRequest.builder("recall").arguments(Map.of("keywords", List.of("release", "channel"))).build();
            assertTrue(a.callTool(recall).structuredContent().toString().contains(id), "not seen yet");
            var ctx = a.callTool(CallToolRequest.builder("context").arguments(Map.of()).build());
            assertTrue(ctx.structuredContent().toString().contains(id), ctx.toString());
            assertFalse(a.callTool(recall).structuredContent().toString().contains(id), "context gave it to this session");
            assertTrue(b.callTool(recall).structuredContent().toString().contains(id), "another session has not seen it");
        } finally {
            a.closeGracefully();
            b.closeGracefully();
        }
    }

    @Test
    void aSessionKeepsItsPresetWhenLaterRequestsOmitOrChangeTheHeader() {
        // the header goes with initialize only, then another one: every later request still reaches recall-only
        java.util.concurrent.atomic.AtomicBoolean initialized = new java.util.concurrent.atomic.AtomicBoolean();
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").httpRequestCustomizer((b, method, uri, body, ctx) -> {
                    b.header("Authorization", "Bearer " + TOKEN);
                    if (body != null && body.contains("\"initialize\"")) {
                        b.header(MementoModes.HEADER, "recall-only");
                        initialized.set(true);
                    } else if (initialized.get()) {
                        b.header(MementoModes.HEADER, "write-only");
                    }
                }).build();
        McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        try {
            c.initialize();
            List<String> listed = tools(c);
            assertTrue(listed.contains("recall") && !listed.contains("remember"), listed.toString());
            var refused = org.junit.jupiter.api.Assertions.assertThrows(io.modelcontextprotocol.spec.McpError.class,
                    () -> c.callTool(CallToolRequest.builder("remember")
                            .arguments(Map.of("content", "x", "topic", "t", "type", "fact")).build()));
            assertTrue(refused.getMessage().contains("Unknown tool"), refused.getMessage());
        } finally {
            c.closeGracefully();
        }
    }

    @Test
    void anUnknownPresetIsRefusedAfterAuthentication() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .header(MementoModes.HEADER, "read-only").POST(HttpRequest.BodyPublishers.ofString(init));
        HttpResponse<String> anonymous = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode(), "no token: nothing about modes is told");
        assertFalse(anonymous.body().contains("recall-only"), anonymous.body());
        HttpResponse<String> bad = http.send(b.header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("'read-only' is not a mode") && bad.body().contains("recall-only, write-only"), bad.body());
    }
}
