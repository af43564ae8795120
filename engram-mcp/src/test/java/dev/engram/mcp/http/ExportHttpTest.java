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
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.profile.nativeprofile.NativeRenderers;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET /export: the export lines, streamed, filtered by the caller's rights. */
class ExportHttpTest {
    private static final String OPS = "ops-token-0123456789abcdef";
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine raw = new Engine(store, new InMemorySearchIndex(store), Clock.systemUTC());
    private McpHttpServer server;
    private String reader;

    @BeforeEach
    void start() throws Exception {
        raw.remember(RememberCommand.builder("The team deploys on Tuesdays").zone("team").build());
        raw.remember(RememberCommand.builder("The payroll export runs monthly").zone("finance").build());
        reader = raw.principals().add("reader", new Grants(Map.of("team", Right.READ), null)).token();
        Engine guarded = raw.guarded(Access::current);
        JsonText json = JsonText.standard();
        server = McpHttpServer.builder(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(OPS)), false,
                        List.of(), List.of(), true), NativeProfile.create(new ProfileContext(() -> guarded, "team"), json),
                        "test", McpJsonDefaults.getMapper())
                .principals(new Principals(store))
                .export(ExportSource.of(guarded, new ExportCodec(NativeRenderers.standard().structured(), json)))
                .requestLog(line -> { })
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private RawHttp.Response get(String path, String token) throws Exception {
        return RawHttp.send(server.port(), "GET", path, token == null ? Map.of() : Map.of("Authorization", "Bearer " + token), null);
    }

    @Test
    void anOperatorExportsEveryZoneAsTheCliWritesIt() throws Exception {
        RawHttp.Response all = get("/export", OPS);
        assertEquals(200, all.status(), all.body());
        assertTrue(all.header("Content-Type").startsWith("application/x-ndjson"), all.headers().toString());
        List<String> lines = all.body().lines().toList();
        assertEquals(2, lines.size(), all.body());
        assertTrue(all.body().contains("Tuesdays") && all.body().contains("payroll"), all.body());
        RawHttp.Response one = get("/export?zone=finance", OPS);
        assertEquals(1, one.body().lines().count(), one.body());
        assertTrue(one.body().contains("payroll"), one.body());
    }

    @Test
    void aZoneReaderExportsOnlyItsZoneAndIsRefusedAnotherWithoutLearningAboutIt() throws Exception {
        RawHttp.Response mine = get("/export", reader);
        assertEquals(200, mine.status(), mine.body());
        assertEquals(1, mine.body().lines().count(), mine.body());
        assertTrue(mine.body().contains("Tuesdays"), mine.body());
        assertFalse(mine.body().contains("payroll"), mine.body());

        RawHttp.Response other = get("/export?zone=finance", reader);
        assertEquals(403, other.status(), other.body());
        assertTrue(other.body().contains("no read right on zone 'finance'"), other.body());
        assertFalse(other.body().contains("payroll"), other.body());
        RawHttp.Response missing = get("/export?zone=nowhere", reader);
        assertEquals(403, missing.status(), "an absent zone is refused the same way: " + missing.body());
    }

    @Test
    void exportNeedsATokenAndAZoneNameThatIsOne() throws Exception {
        assertEquals(401, get("/export", null).status());
        RawHttp.Response bad = get("/export?zone=Not%20A%20Zone", OPS);
        assertEquals(400, bad.status(), bad.body());
        assertTrue(bad.body().contains("zone"), bad.body());
    }
}
