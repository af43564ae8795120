package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.server.EngramMcpServer;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletSseServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An upstream speaking the older HTTP+SSE transport: the SDK's server-side SSE transport on Jetty,
 * in-process on 127.0.0.1, behind a bearer check. Covers the calls, the headers, and the crash
 * behaviour stdio and Streamable HTTP upstreams have: a server gone during a call fails that call
 * at once (not at the call timeout), one gone between calls is reconnected before the next call.
 */
class SseUpstreamTest {
    private static final String TOKEN = "sse-upstream-token-0123456789";
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(20);

    private final McpSessionOpener opener = new McpSessionOpener(McpJsonDefaults.getMapper(), Map.of(), "test",
            Duration.ofSeconds(10), CALL_TIMEOUT, new ProgressRelay());
    private Running server;

    private record Running(Server jetty, McpSyncServer mcp, int port) {
        void stop() throws Exception {
            mcp.close();
            jetty.stop();
        }
    }

    private static final ToolHandler ECHO = tool("echo", args -> "echo: " + args.text("message"));
    private static final ToolHandler SLOW = tool("slow", args -> {
        try {
            Thread.sleep(15_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "late";
    });

    private static ToolHandler tool(String name, java.util.function.Function<ToolArgs, String> body) {
        return new ToolHandler() {
            @Override
            public Tool definition() {
                return Tool.builder(name, JsonSchema.input().string("message", "What to echo", "hi").build()).description(name).build();
            }

            @Override
            public ToolReply call(ToolArgs args) {
                return new ToolReply(body.apply(args), Map.of());
            }
        };
    }

    private static Running start(int port) throws Exception {
        HttpServletSseServerTransportProvider transport = HttpServletSseServerTransportProvider.builder()
                .jsonMapper(McpJsonDefaults.getMapper()).sseEndpoint("/sse").messageEndpoint("/message").build();
        McpSyncServer mcp = EngramMcpServer.build(McpServer.sync(transport),
                new ToolProfile("sse-test", "", List.of(ECHO, SLOW), List.of(), List.of()), "test");
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        connector.setReuseAddress(true);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, "/*");
        FilterHolder auth = new FilterHolder((jakarta.servlet.Filter) (req, res, chain) -> {
            if (!("Bearer " + TOKEN).equals(((HttpServletRequest) req).getHeader("Authorization"))) {
                ((HttpServletResponse) res).sendError(401);
                return;
            }
            chain.doFilter(req, res);
        });
        auth.setAsyncSupported(true);
        context.addFilter(auth, "/*", EnumSet.of(DispatcherType.REQUEST));
        jetty.setHandler(context);
        jetty.start();
        return new Running(jetty, mcp, connector.getLocalPort());
    }

    @BeforeEach
    void up() throws Exception {
        server = start(0);
    }

    @AfterEach
    void down() throws Exception {
        if (server != null) server.stop();
        opener.close();
    }

    private UpstreamConfig upstream(String token) {
        return UpstreamConfig.of("old", "old", new UpstreamTransport.Sse("http://127.0.0.1:" + server.port() + "/sse",
                Map.of("Authorization", "Bearer " + token)));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void callsAnSseUpstreamWithItsConfiguredHeaders() {
        try (UpstreamSession s = opener.open(upstream(TOKEN))) {
            assertEquals(List.of("echo", "slow"), s.listTools().stream().map(Tool::name).toList());
            var r = s.call(CallToolRequest.builder("echo").arguments(Map.of("message", "over sse")).build(), CALL_TIMEOUT);
            assertEquals("echo: over sse", text(r));
            assertTrue(s.alive());
        }
    }

    @Test
    void aRejectedTokenOrAWrongUrlIsAClearStartFailureAtOnce() throws Exception {
        long t0 = System.nanoTime();
        UpstreamException e = assertThrows(UpstreamException.class, () -> opener.open(upstream("wrong-token-0123456789")));
        assertEquals("upstream 'old' did not start: its event stream answered HTTP 401 (check its headers, e.g. the Authorization token)",
                e.getMessage());
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 5_000, "not the 10 s connect timeout");
        int port = server.port();
        server.stop();
        server = null;
        e = assertThrows(UpstreamException.class, () -> opener.open(UpstreamConfig.of("old", "old",
                new UpstreamTransport.Sse("http://127.0.0.1:" + port + "/sse", Map.of()))));
        assertTrue(e.getMessage().startsWith("upstream 'old' did not start: its event stream could not be opened ("), e.getMessage());
        assertTrue(e.getMessage().contains("could not be opened (connection refused)"), e.getMessage());
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 8_000, "not the connect timeout");
    }

    @Test
    void aServerGoneDuringACallFailsItAtOnceAndTheNextCallReconnects() throws Exception {
        UpstreamConnection c = new UpstreamConnection(upstream(TOKEN), opener, Clock.systemUTC(), CALL_TIMEOUT);
        assertTrue(c.connect());
        int port = server.port();
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(500);
                server.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        stopper.start();
        long t0 = System.nanoTime();
        UpstreamException e = assertThrows(UpstreamException.class, () -> c.call("slow", Map.of(), null));
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        stopper.join();
        assertTrue(e.getMessage().contains("upstream 'old' dropped the connection during the call")
                && e.getMessage().contains("restarts it on the next call"), e.getMessage());
        assertTrue(tookMs < 8_000, "failed at the stream's end, not at the " + CALL_TIMEOUT.toSeconds() + " s timeout: " + tookMs + " ms");
        assertFalse(c.connected());

        server = start(port);
        CallToolResult r = c.call("echo", Map.of("message", "back"), null);
        assertEquals("echo: back", text(r));
        assertEquals(1, c.status().reconnects());
    }

    @Test
    void aServerGoneBetweenCallsIsReconnectedBeforeTheCallIsSent() throws Exception {
        UpstreamConnection c = new UpstreamConnection(upstream(TOKEN), opener, Clock.systemUTC(), CALL_TIMEOUT);
        assertTrue(c.connect());
        assertEquals("echo: one", text(c.call("echo", Map.of("message", "one"), null)));
        int port = server.port();
        server.stop();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (c.connected() && System.nanoTime() < deadline) Thread.sleep(20);
        assertFalse(c.connected(), "the end of the event stream was noticed without a call");
        server = start(port);
        assertEquals("echo: two", text(c.call("echo", Map.of("message", "two"), null)), "nothing was lost: the call went to the new session");
        assertEquals(1, c.status().reconnects());
    }
}
