package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Principals;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Rate limits, the request size limit, request logs and graceful shutdown over the real HTTP server. */
class OperationsHttpTest {
    private static final String OPS = "ops-token-0123456789abcdef";
    private static final String OTHER = "other-token-0123456789abcdef";
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine raw = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
    private final Queue<String> log = new ConcurrentLinkedQueue<>();
    private final CountDownLatch slowEntered = new CountDownLatch(1);
    private final CountDownLatch slowRelease = new CountDownLatch(1);
    private final List<McpSyncClient> clients = new ArrayList<>();
    private McpHttpServer server;

    private McpHttpServer start(ServerLimits limits, boolean noAuth) throws Exception {
        Engine guarded = raw.guarded(Access::current);
        ToolProfile nativeProfile = NativeProfile.create(new ProfileContext(() -> guarded, "team"), JsonText.standard());
        List<ToolHandler> tools = new ArrayList<>(nativeProfile.tools());
        tools.add(slowTool());
        ToolProfile profile = new ToolProfile(nativeProfile.name(), nativeProfile.instructions(), tools,
                nativeProfile.resources(), nativeProfile.prompts());
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, "/mcp",
                noAuth ? TokenSet.none() : TokenSet.of(List.of(OPS, OTHER)), noAuth, List.of(), List.of(), !noAuth)
                .withLimits(limits);
        server = McpHttpServer.builder(settings, profile, "test", McpJsonDefaults.getMapper())
                .principals(noAuth ? null : new Principals(store)).requestLog(log::add).start();
        return server;
    }

    /** A tool that holds its call until the test lets it go: an in-flight request at a moment the test picks. */
    private ToolHandler slowTool() {
        Tool tool = Tool.builder("slow", JsonSchema.input().string("note", "Anything", "x").build()).description("test hook").build();
        return new ToolHandler() {
            @Override
            public Tool definition() {
                return tool;
            }

            @Override
            public ToolReply call(ToolArgs args) {
                slowEntered.countDown();
                try {
                    if (!slowRelease.await(20, TimeUnit.SECONDS)) throw new IllegalStateException("never released");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return new ToolReply("done", Map.of("done", true));
            }
        };
    }

    @AfterEach
    void stop() {
        slowRelease.countDown();
        clients.forEach(c -> {
            try {
                c.closeGracefully();
            } catch (RuntimeException ignored) {
                // the server may be gone already
            }
        });
        if (server != null) server.close();
    }

    private McpSyncClient client(String token) {
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                .endpoint("/mcp").httpRequestCustomizer((b, m, u, body, ctx) -> {
                    if (token != null) b.header("Authorization", "Bearer " + token);
                }).build()).requestTimeout(Duration.ofSeconds(20)).build();
        c.initialize();
        clients.add(c);
        return c;
    }

    private RawHttp.Response initialize(String token) throws Exception {
        return RawHttp.send(server.port(), "POST", "/mcp", token == null ? Map.of()
                : Map.of("Authorization", "Bearer " + token), RawHttp.INITIALIZE);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    /** The log line matching {@code which}; lines are written when a request ends, a moment after its answer. */
    private String logLine(Predicate<String> which) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            for (String line : log) if (which.test(line)) return line;
            Thread.sleep(10);
        }
        throw new AssertionError("no such log line in " + log);
    }

    @Test
    void aTokenOverItsRateGets429WithRetryAfterWhileOtherTokensAndHealthGoOn() throws Exception {
        start(ServerLimits.DEFAULT.withRate(0.001, 2), false); // one token per 1000 s: the third request waits
        assertEquals(200, initialize(OPS).status());
        assertEquals(200, initialize(OPS).status());
        RawHttp.Response refused = initialize(OPS);
        assertEquals(429, refused.status(), refused.body());
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertTrue(retryAfter >= 1 && retryAfter <= 1000, "Retry-After " + retryAfter);
        assertTrue(refused.body().contains("\"code\":-32029"), refused.body());
        assertTrue(refused.body().contains("rate limited: this token sent more than 0.001 requests per second (bursts up to 2)"),
                refused.body());
        assertTrue(refused.body().contains("retry after " + retryAfter + " s"), refused.body());
        assertEquals(200, initialize(OTHER).status(), "the limit is per token");
        assertEquals(200, RawHttp.send(server.port(), "GET", "/health", Map.of(), null).status(), "/health is not limited");
        // a request leaves the in-flight count, and is counted by status in the outermost filter, a moment after its
        // answer is sent: wait for the earlier ones to end and for the 429 to be counted (CI once read the metrics before)
        for (int i = 0; i < 500 && server.inFlight() > 0; i++) Thread.sleep(10);
        RawHttp.Response metrics = RawHttp.send(server.port(), "GET", "/metrics", Map.of("Authorization", "Bearer " + OTHER), null);
        for (int i = 0; i < 500 && !metrics.body().contains("engram_http_responses_total{code=\"429\"}"); i++) {
            Thread.sleep(10);
            metrics = RawHttp.send(server.port(), "GET", "/metrics", Map.of("Authorization", "Bearer " + OTHER), null);
        }
        assertTrue(metrics.body().contains("engram_rate_limited_total 1\n"), metrics.body());
        assertTrue(metrics.body().contains("engram_http_responses_total{code=\"429\"} 1\n"), metrics.body());
        assertTrue(metrics.body().contains("engram_http_requests_in_flight 1\n"), "the /metrics request itself: " + metrics.body());
    }

    @Test
    void aPrincipalIsLimitedByItsNameAndWithoutAuthEachAddressIs() throws Exception {
        String reader = raw.principals().add("reader", new Grants(Map.of("team", Right.READ), null)).token();
        start(ServerLimits.DEFAULT.withRate(0.001, 1), false);
        assertEquals(200, initialize(reader).status());
        assertEquals(429, initialize(reader).status());
        assertEquals(200, initialize(OPS).status());
        server.close();

        start(ServerLimits.DEFAULT.withRate(0.001, 1), true);
        assertEquals(200, initialize(null).status());
        RawHttp.Response refused = initialize(null);
        assertEquals(429, refused.status());
        assertTrue(refused.body().contains("rate limited: this address"), refused.body());
    }

    @Test
    void aBodyOverTheConfiguredLimitIsRefusedUnreadAndWritesNothing() throws Exception {
        start(ServerLimits.DEFAULT.withMaxBodyBytes(2048), false);
        // declares 100 MB, sends a few bytes: an answer at all shows the server did not wait for the body
        RawHttp.Response declared = RawHttp.sendDeclared(server.port(), Map.of("Authorization", "Bearer " + OPS),
                100_000_000L, "{\"jsonrpc\":\"2.0\"");
        assertEquals(413, declared.status(), declared.body());
        assertTrue(declared.body().contains("the limit is 2048 bytes per request"), declared.body());
        String big = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
                + "\"arguments\":{\"content\":\"" + "x".repeat(3000) + "\"}}}";
        RawHttp.Response sent = RawHttp.send(server.port(), "POST", "/mcp", Map.of("Authorization", "Bearer " + OPS), big);
        assertEquals(413, sent.status(), sent.body());
        assertEquals(0, store.count(), "the call never reached the tool");
        CallToolResult small = client(OPS).callTool(CallToolRequest.builder("remember")
                .arguments(Map.of("content", "Small bodies still pass the limit")).build());
        assertFalse(small.isError(), text(small));
        assertEquals(1, store.count());
    }

    @Test
    void eachRequestLogsOneLineWithThePrincipalToolAndStatusButNoArgumentsOrTokens() throws Exception {
        String reader = raw.principals().add("reader", new Grants(Map.of("team", Right.READ), null)).token();
        start(ServerLimits.DEFAULT, false);
        CallToolResult stored = client(OPS).callTool(CallToolRequest.builder("remember").arguments(Map.of(
                "content", "The deploy password is hunter2-SECRET-CONTENT", "tags", List.of("SECRET-TAG"),
                "zone", "team")).build());
        assertFalse(stored.isError(), text(stored));
        CallToolResult refused = client(reader).callTool(CallToolRequest.builder("remember")
                .arguments(Map.of("content", "A reader tries SECRET-WRITE", "zone", "team")).build());
        assertTrue(refused.isError());
        assertEquals(401, initialize("not-a-token-SECRET").status());

        String remember = logLine(l -> l.contains("principal=token-1") && l.contains("tool=remember"));
        assertTrue(remember.matches("time=\\S+ principal=token-1 remote=127\\.0\\.0\\.1 http=POST /mcp rpc=tools/call"
                + " tool=remember status=200 outcome=ok ms=\\d+\\.\\d{3}"), remember);
        String denied = logLine(l -> l.contains("principal=reader") && l.contains("tool=remember"));
        assertTrue(denied.contains("status=200 outcome=error"), denied);
        String unauthorized = logLine(l -> l.contains("status=401"));
        assertTrue(unauthorized.contains("principal=- ") && unauthorized.contains("rpc=- tool=-"), unauthorized);
        for (String line : log) {
            assertFalse(line.contains("SECRET") || line.contains("hunter2"), "arguments leaked: " + line);
            assertFalse(line.contains(OPS) || line.contains(reader), "a token leaked: " + line);
        }
    }

    @Test
    void stoppingRefusesNewRequestsAndFinishesTheOneInFlight() throws Exception {
        start(ServerLimits.DEFAULT.withShutdownGrace(Duration.ofSeconds(20)), false);
        McpSyncClient c = client(OPS);
        CompletableFuture<CallToolResult> slow = CompletableFuture.supplyAsync(() ->
                c.callTool(CallToolRequest.builder("slow").arguments(Map.of("note", "x")).build()));
        assertTrue(slowEntered.await(20, TimeUnit.SECONDS), "the slow call started");
        assertEquals(1, server.inFlight());
        CompletableFuture<Void> stopping = CompletableFuture.runAsync(server::close);

        RawHttp.Response refused = null;
        for (int i = 0; i < 500 && (refused == null || refused.status() != 503); i++) {
            refused = initialize(OPS); // 200 until close() has shut the gate, which it does before waiting
            if (refused.status() != 503) Thread.sleep(10);
        }
        assertEquals(503, refused.status(), refused.body());
        assertEquals("1", refused.header("Retry-After"));
        assertTrue(refused.body().contains("shutting down"), refused.body());
        assertFalse(stopping.isDone(), "close() waits for the call in flight");

        slowRelease.countDown();
        CallToolResult result = slow.get(20, TimeUnit.SECONDS);
        assertFalse(result.isError(), text(result));
        assertEquals("done", text(result));
        stopping.get(20, TimeUnit.SECONDS);
        assertEquals(0, server.inFlight());
        assertTrue(logLine(l -> l.contains("tool=slow")).contains("status=200 outcome=ok"));
    }
}
