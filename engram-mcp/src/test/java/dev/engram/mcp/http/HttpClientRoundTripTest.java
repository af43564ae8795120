package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official Java client against our HTTP server on port 0, with a bearer token. */
class HttpClientRoundTripTest {
    private static final String TOKEN = "round-trip-token-0123456789";
    private static McpHttpServer server;
    private static McpSyncClient client;

    @BeforeAll
    static void start() throws Exception {
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)),
                false, List.of(), List.of()), TestEngines.nativeProfile(Clock.systemUTC()), "test",
                McpJsonDefaults.getMapper());
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + server.port()).endpoint("/mcp")
                .httpRequestCustomizer((b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + TOKEN))
                .build();
        client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
    }

    @AfterAll
    static void stop() {
        client.closeGracefully();
        server.close();
    }

    private static CallToolResult call(String tool, Map<String, Object> args) {
        return client.callTool(CallToolRequest.builder(tool).arguments(args).build());
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void listsTheNineToolsWithSchemas() {
        List<McpSchema.Tool> tools = client.listTools().tools();
        assertEquals(9, tools.size());
        tools.forEach(t -> {
            assertNotNull(t.outputSchema(), t.name());
            assertNotNull(t.annotations(), t.name());
        });
    }

    @Test
    void aBadRecallComesBackAsAToolError() {
        CallToolResult r = call("recall", Map.of("query", "redis", "limit", true));
        assertTrue(r.isError());
        assertEquals("limit must be an integer, got boolean true (e.g. \"limit\": 5)", text(r));
    }

    @Test
    @SuppressWarnings("unchecked")
    void rememberThenRecallOverHttp() {
        CallToolResult stored = call("remember", Map.of("content", "Use zod for request validation in the API layer",
                "type", "decision", "key", "use-zod-http", "tags", "api, validation"));
        assertFalse(stored.isError(), text(stored));
        CallToolResult r = call("recall", Map.of("query", "request validation zod", "explain", true));
        assertFalse(r.isError(), text(r));
        Map<String, Object> structured = (Map<String, Object>) r.structuredContent();
        List<Map<String, Object>> results = (List<Map<String, Object>>) structured.get("results");
        assertFalse(results.isEmpty(), String.valueOf(structured));
        Map<String, Object> first = results.get(0);
        for (String field : List.of("id", "key", "type", "score", "content")) assertNotNull(first.get(field), field);
        assertEquals("use-zod-http", first.get("key"));
        assertTrue(text(r).startsWith("[1] decision/use-zod-http ("), text(r));
    }

    @Test
    void primerAndStatsResources() {
        McpSchema.TextResourceContents primer = (McpSchema.TextResourceContents) client.readResource(
                new McpSchema.ReadResourceRequest("engram://primer")).contents().get(0);
        assertEquals("text/markdown", primer.mimeType());
        assertTrue(primer.text().startsWith("# Engram briefing · zone default"), primer.text());
        McpSchema.TextResourceContents stats = (McpSchema.TextResourceContents) client.readResource(
                new McpSchema.ReadResourceRequest("engram://stats")).contents().get(0);
        assertEquals("application/json", stats.mimeType());
        assertTrue(JsonText.standard().readObject(stats.text()).get("total") instanceof Number, stats.text());
    }
}
