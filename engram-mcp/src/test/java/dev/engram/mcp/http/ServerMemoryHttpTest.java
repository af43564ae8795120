package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.servermemory.ServerMemoryProfile;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code engram serve --profile server-memory}: over HTTP the answers read as over stdio. */
class ServerMemoryHttpTest {
    private static final String TOKEN = "server-memory-token-0123456789";
    private static McpHttpServer server;

    @BeforeAll
    static void start() throws Exception {
        var profile = ServerMemoryProfile.create(ProfileContext.of(TestEngines.inMemory(Clock.systemUTC()), "default"),
                JsonText.standard());
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of()), profile, "test", McpJsonDefaults.getMapper());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static McpSyncClient client() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").httpRequestCustomizer((b, method, uri, body, ctx) -> b.header("Authorization", "Bearer " + TOKEN))
                .build();
        McpSyncClient c = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        c.initialize();
        return c;
    }

    /** The SDK's own text is "Unknown tool: invalid_tool_name" whatever was called; stdio names the tool (StdioTransportTest). */
    @Test
    void anUnknownToolIsNamedAsOverStdio() {
        McpSyncClient c = client();
        try {
            McpError refused = assertThrows(McpError.class,
                    () -> c.callTool(CallToolRequest.builder("no_such_tool").arguments(Map.of()).build()));
            assertEquals("Unknown tool: no_such_tool; call tools/list for the tools this server has", refused.getMessage());
            assertEquals(-32602, refused.getJsonRpcError().code());
            var graph = c.callTool(CallToolRequest.builder("read_graph").arguments(Map.of()).build());
            assertFalse(Boolean.TRUE.equals(graph.isError()), graph.toString());
            assertEquals(Map.of("entities", List.of(), "relations", List.of()), graph.structuredContent(), "other answers as they were");
        } finally {
            c.closeGracefully();
        }
    }
}
