package dev.engram.mcp.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.viewer.ViewerApi;
import dev.engram.mcp.viewer.ViewerPage;
import dev.engram.mcp.viewer.ViewerServer;
import dev.engram.mcp.viewer.ViewerServlet;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The viewer over HTTP: under `serve` at /ui behind the bearer filter, and alone on loopback for `engram viewer`. */
class ViewerHttpTest {
    private static final String TOKEN = "viewer-token-0123456789";
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());

    @Test
    void serveMountsUiWithTheShellPublicAndTheDataBehindTheToken() throws Exception {
        engine.remember(RememberCommand.builder("Redis needs AUTH in prod").key("redis-auth").build());
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of());
        try (McpHttpServer server = McpHttpServer.start(settings, NativeProfile.create(ProfileContext.of(engine, "default"),
                JsonText.standard()), "test", McpJsonDefaults.getMapper(), new ViewerApi(engine, "default"))) {
            int port = server.port();
            RawHttp.Response page = RawHttp.send(port, "GET", "/ui/", Map.of(), null);
            assertEquals(200, page.status());
            assertTrue(page.body().contains("Engram memory graph"));
            assertTrue(page.header("Content-Security-Policy").contains("default-src 'none'"));
            assertEquals(200, RawHttp.send(port, "GET", "/ui/assets/d3.min.js", Map.of(), null).status());

            RawHttp.Response anonymous = RawHttp.send(port, "GET", "/ui/api/graph", Map.of(), null);
            assertEquals(401, anonymous.status());
            assertTrue(anonymous.body().contains("Authorization: Bearer"));
            RawHttp.Response wrong = RawHttp.send(port, "GET", "/ui/api/graph", Map.of("Authorization", "Bearer nope"), null);
            assertEquals(401, wrong.status());

            RawHttp.Response graph = RawHttp.send(port, "GET", "/ui/api/graph", Map.of("Authorization", "Bearer " + TOKEN), null);
            assertEquals(200, graph.status(), graph.body());
            assertTrue(graph.body().contains("\"key\":\"redis-auth\""), graph.body());
            RawHttp.Response bad = RawHttp.send(port, "GET", "/ui/api/graph?limit=99999", Map.of("Authorization", "Bearer " + TOKEN), null);
            assertEquals(400, bad.status());
            assertTrue(bad.body().contains("1..2000"), bad.body());
            // MCP itself is still behind the token
            assertEquals(401, RawHttp.send(port, "POST", "/mcp", Map.of(), RawHttp.INITIALIZE).status());
        }
    }

    @Test
    void aTokenLearnsNoZoneItCannotReadAndThePageOpensOnOneItCan() throws Exception {
        dev.engram.testing.InMemoryMemoryStore store = new dev.engram.testing.InMemoryMemoryStore();
        Engine raw = new Engine(store, new dev.engram.testing.InMemorySearchIndex(store), Clock.systemUTC());
        raw.remember(RememberCommand.builder("the launch codes are in the safe").key("codes").zone("secretzone").build());
        raw.remember(RememberCommand.builder("big zone note").key("note").zone("big").build());
        String bigReader = raw.principals().add("bigreader", new dev.engram.access.Grants(
                Map.of("big", dev.engram.access.Right.READ), null)).token();
        Engine guarded = raw.guarded(dev.engram.access.Access::current);
        HttpServerSettings settings = new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(TOKEN)), false,
                List.of(), List.of(), true);
        try (McpHttpServer server = McpHttpServer.start(settings, NativeProfile.create(new ProfileContext(() -> guarded, "secretzone"),
                JsonText.standard()), ProfileVariants.NONE, "test", McpJsonDefaults.getMapper(),
                new dev.engram.access.Principals(store, Clock.systemUTC(), java.time.Duration.ofSeconds(2)),
                () -> new ServerStatus(null, 0, 0, "ready", "none"), new ViewerApi(guarded, "secretzone"))) {
            int port = server.port();
            RawHttp.Response shell = RawHttp.send(port, "GET", "/ui/", Map.of(), null);
            assertEquals(200, shell.status());
            assertFalse(shell.body().contains("secretzone"), "the public shell names no zone");
            Map<String, String> auth = Map.of("Authorization", "Bearer " + bigReader);
            RawHttp.Response zones = RawHttp.send(port, "GET", "/ui/api/zones", auth, null);
            assertEquals(200, zones.status(), zones.body());
            assertFalse(zones.body().contains("secretzone"), zones.body());
            assertTrue(zones.body().contains("\"zones\":[\"big\"]") && zones.body().contains("\"default\":\"big\""), zones.body());
            RawHttp.Response denied = RawHttp.send(port, "GET", "/ui/api/graph?zone=secretzone", auth, null);
            assertEquals(403, denied.status(), denied.body());
            RawHttp.Response noZone = RawHttp.send(port, "GET", "/ui/api/search?q=note", auth, null);
            assertEquals(200, noZone.status(), noZone.body());
            assertTrue(noZone.body().contains("\"key\":\"note\"") && !noZone.body().contains("secretzone"),
                    "a route without zone= works in a zone the token reads and names no other: " + noZone.body());
            RawHttp.Response badQuery = RawHttp.send(port, "GET", "/ui/api/search?q=%ZZ", auth, null);
            assertEquals(400, badQuery.status(), badQuery.body());
            assertTrue(badQuery.body().contains("percent-escapes"), badQuery.body());
            assertEquals(400, RawHttp.send(port, "GET", "/ui/api/search?q=%ED%95", auth, null).status());
        }
    }

    @Test
    void standaloneViewerAnswersLoopbackNamesOnlyAndGetOnly() throws Exception {
        engine.remember(RememberCommand.builder("Use pnpm, not npm").key("pnpm").build());
        ViewerServlet servlet = new ViewerServlet(new ViewerApi(engine, "default"), new ViewerPage(JsonText.standard()),
                JsonText.standard(), ViewerServlet.loopbackHosts());
        try (ViewerServer server = ViewerServer.start(0, servlet)) {
            int port = server.url().getPort();
            assertTrue(server.url().toString().matches("http://127\\.0\\.0\\.1:\\d+/ui/"), server.url().toString());
            RawHttp.Response root = RawHttp.send(port, "GET", "/", Map.of(), null);
            assertEquals(302, root.status());
            RawHttp.Response search = RawHttp.send(port, "GET", "/ui/api/search?q=pnpm", Map.of(), null);
            assertEquals(200, search.status(), search.body());
            assertTrue(search.body().contains("\"key\":\"pnpm\""));
            RawHttp.Response rebound = RawHttp.send(port, "GET", "/ui/api/graph", Map.of("Host", "evil.example:" + port), null);
            assertEquals(403, rebound.status());
            assertTrue(rebound.body().contains("Host"), rebound.body());
            assertEquals(405, RawHttp.send(port, "POST", "/ui/api/graph", Map.of(), "{}").status());
            RawHttp.Response missing = RawHttp.send(port, "GET", "/ui/api/memory?id=ghost", Map.of(), null);
            assertEquals(404, missing.status());
            assertTrue(missing.body().contains("ghost"), missing.body());
            assertEquals(404, RawHttp.send(port, "GET", "/ui/nothing", Map.of(), null).status());
        }
    }
}
