package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.http.TokenSet;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A Streamable HTTP upstream (Engram's own HTTP server on 127.0.0.1, port 0) reached with a bearer header. */
class HttpUpstreamTest {
    private static final String TOKEN = "proxy-upstream-token-0123456789";
    private static McpHttpServer server;
    private static McpSessionOpener opener;

    private static final ToolHandler ECHO = new ToolHandler() {
        @Override
        public Tool definition() {
            return Tool.builder("echo", JsonSchema.input().string("message", "What to echo", "hi").required("message").build())
                    .description("Echoes").annotations(ToolHints.readOnly()).build();
        }

        @Override
        public ToolReply call(ToolArgs args) {
            return new ToolReply("echo: " + args.text("message"), Map.of());
        }
    };

    @BeforeAll
    static void start() throws Exception {
        server = McpHttpServer.start(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of()), new ToolProfile("test", "", List.of(ECHO), List.of(), List.of()), "test",
                McpJsonDefaults.getMapper());
        opener = new McpSessionOpener(McpJsonDefaults.getMapper(), Map.of(), "test", Duration.ofSeconds(10), Duration.ofSeconds(10),
                new ProgressRelay());
    }

    @AfterAll
    static void stop() {
        opener.close();
        server.close();
    }

    private static UpstreamConfig upstream(Map<String, String> headers) {
        return UpstreamConfig.of("web", "web", new UpstreamTransport.Http("http://127.0.0.1:" + server.port() + "/mcp", headers));
    }

    @Test
    void callsAnHttpUpstreamWithItsConfiguredHeaders() {
        try (UpstreamSession s = opener.open(upstream(Map.of("Authorization", "Bearer " + TOKEN)))) {
            assertEquals(List.of("echo"), s.listTools().stream().map(Tool::name).toList());
            var r = s.call(CallToolRequest.builder("echo").arguments(Map.of("message", "over http")).build(), Duration.ofSeconds(10));
            assertEquals("echo: over http", ((TextContent) r.content().get(0)).text());
            assertTrue(s.alive());
        }
    }

    @Test
    void aRejectedTokenIsAClearStartFailure() {
        UpstreamException e = assertThrows(UpstreamException.class,
                () -> opener.open(upstream(Map.of("Authorization", "Bearer wrong-token-0123456789"))));
        assertTrue(e.getMessage().startsWith("upstream 'web' did not start"), e.getMessage());
    }
}
