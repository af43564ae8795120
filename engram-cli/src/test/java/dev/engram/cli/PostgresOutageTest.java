package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.http.ServerLimits;
import dev.engram.mcp.http.TokenSet;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.store.postgres.PostgresLocation;
import dev.engram.store.postgres.PostgresStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL going away under a running {@code engram serve}, as the server sees it: a TCP forwarder between the
 * two is cut (every connection broken, new ones closed at once) and restored, so the shared PostgreSQL server keeps
 * running for everyone else. The caller's token is one of the store's principals. During the outage every tool call
 * (its token checked against the principals read before) answers within a few seconds with {@code isError}
 * and a message saying the store is unreachable (no hang, no stack trace) and {@code /health} answers 503; once the
 * forwarder is back, calls succeed again without restarting anything, writes made by another replica meanwhile are
 * found, and the change listener is listening again (the index catches up without a search).
 */
class PostgresOutageTest {
    private static final Pattern LEAK = Pattern.compile("Exception|\\bat dev\\.engram|java\\.|\\.java:\\d+|org\\.postgresql|com\\.zaxxer");
    /** A call during the outage must answer within this: the pool's wait for a connection plus the call itself. */
    private static final Duration ANSWER_WITHIN = Duration.ofSeconds(8);

    @TempDir
    Path dir;

    @Test
    void anOutageGivesClearErrorsAndTheServerRecoversOnItsOwn() throws Exception {
        Assumptions.assumeTrue(TestPostgres.reachable(), "PostgreSQL is not reachable at " + TestPostgres.SERVER);
        String schema = "faults_outage_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
        PostgresLocation direct = PostgresLocation.parse(TestPostgres.withSchema(schema));
        URI pg = URI.create(TestPostgres.SERVER.replaceFirst("^postgres(ql)?:", "http:"));
        try (TcpForwarder forwarder = new TcpForwarder(pg.getHost(), pg.getPort() < 0 ? 5432 : pg.getPort())) {
            // the same server, user and database, through the forwarder
            PostgresLocation viaForwarder = PostgresLocation.parse(TestPostgres.withSchema(schema)
                    .replace(pg.getHost() + (pg.getPort() < 0 ? "" : ":" + pg.getPort()), "127.0.0.1:" + forwarder.port()));
            Clock clock = Clock.systemUTC();
            try (PostgresStore replica = PostgresStore.open(viaForwarder, dir.resolve("a"));
                 PostgresStore other = PostgresStore.open(direct, dir.resolve("b"))) {
                Engine raw = new Engine(replica.store(), replica.index(), clock);
                Engine guarded = raw.guarded(Access::current);
                var tools = ProfileRegistry.standard().create("native", new ProfileContext(() -> guarded, "default"), JsonText.standard());
                Main.OpenEngine opened = new Main.OpenEngine(raw, replica::check, () -> { });
                // callers hold tokens of the store's principals (engram tokens add), which the server reads from the store
                String token = raw.principals().add("ops", new dev.engram.access.Grants(Map.of(), dev.engram.access.Right.ADMIN)).token();
                try (McpHttpServer server = McpHttpServer.builder(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.none(), false,
                                List.of(), List.of(), true, new ServerLimits(0, 1, ServerLimits.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(1))),
                        tools, "test", McpJsonDefaults.getMapper()).principals(raw.principals()).status(ServeSubcommand.status(opened)).start()) {
                    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + server.port())
                            .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + token))
                            .endpoint("/mcp").build()).requestTimeout(Duration.ofSeconds(60)).build();
                    client.initialize();
                    String health = "http://127.0.0.1:" + server.port() + "/health";

                    assertOk(call(client, "remember", Map.of("content", "Before the outage the deploy script ran on Mondays")));
                    assertEquals(200, get(health, token).statusCode());

                    forwarder.cut();
                    // past the principals' cache time: a token is checked against what was read before the outage
                    Thread.sleep(2_500);
                    for (var c : List.of(Map.<String, Object>of("content", "During the outage this write is refused"),
                            Map.<String, Object>of("query", "deploy script"), Map.<String, Object>of())) {
                        String tool = c.containsKey("content") ? "remember" : c.containsKey("query") ? "recall" : "stats";
                        long started = System.nanoTime();
                        CallToolResult r = call(client, tool, c);
                        Duration took = Duration.ofNanos(System.nanoTime() - started);
                        String text = text(r);
                        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " during the outage: " + text);
                        assertTrue(took.compareTo(ANSWER_WITHIN) < 0, tool + " took " + took.toMillis() + " ms during the outage");
                        assertTrue(text.contains("the store is unreachable") && text.contains("retry"), tool + ": " + text);
                        assertFalse(LEAK.matcher(text).find(), tool + " leaked internals: " + text);
                        System.err.println("outage: " + tool + " answered isError in " + took.toMillis() + " ms: " + text);
                    }
                    HttpResponse<String> down = get(health, token);
                    assertEquals(503, down.statusCode(), down.body());
                    assertTrue(down.body().contains("degraded"), down.body());
                    assertFalse(LEAK.matcher(down.body()).find(), "/health in words, no class names: " + down.body());
                    // another replica, still connected, writes meanwhile
                    other.store().write(tx -> {
                        tx.insert(dev.engram.spi.MemoryFixtures.minimal(clock, 1, "default",
                                "Written by the other replica while this one could not reach the store").key("written-meanwhile").build());
                        return null;
                    });

                    forwarder.restore();
                    long restored = System.nanoTime();
                    assertTrue(eventually(Duration.ofSeconds(30), () -> !Boolean.TRUE.equals(
                            call(client, "remember", Map.of("content", "After the outage writes work again")).isError())),
                            "writes did not recover within 30 s of the store coming back");
                    System.err.println("outage: the first write succeeded " + (System.nanoTime() - restored) / 1_000_000
                            + " ms after the store came back");
                    CallToolResult found = call(client, "recall", Map.of("query", "other replica could not reach"));
                    assertOk(found);
                    assertTrue(text(found).contains("written-meanwhile"), text(found));
                    assertEquals(200, get(health, token).statusCode());

                    // LISTEN again: a write on the other replica reaches this index without a search here
                    other.store().write(tx -> {
                        tx.insert(dev.engram.spi.MemoryFixtures.minimal(clock, 2, "default",
                                "Written after the outage by the other replica").key("after-listen").build());
                        return null;
                    });
                    long head = other.store().headSeq();
                    assertTrue(eventually(Duration.ofSeconds(10), () -> replica.index().indexedSeq() >= head),
                            "the change listener did not wake the index after the outage (indexed "
                                    + replica.index().indexedSeq() + ", head " + head + ")");
                    client.closeGracefully();
                }
            }
        } finally {
            try (Connection c = TestPostgres.connect(); Statement st = c.createStatement()) {
                st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
        }
    }

    private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(CallToolRequest.builder(tool).arguments(args).build());
    }

    private static void assertOk(CallToolResult r) {
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
    }

    private static String text(CallToolResult r) {
        StringBuilder b = new StringBuilder();
        r.content().forEach(c -> {
            if (c instanceof TextContent t) b.append(t.text());
        });
        return b.toString();
    }

    private static HttpResponse<String> get(String url, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean eventually(Duration within, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) return true;
            Thread.sleep(200);
        }
        return condition.getAsBoolean();
    }
}
