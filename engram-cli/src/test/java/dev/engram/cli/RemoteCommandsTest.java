package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.access.Principals;
import dev.engram.access.Right;
import dev.engram.engine.Engine;
import dev.engram.store.IndexCheck;
import dev.engram.mcp.http.ExportSource;
import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.http.ServerLimits;
import dev.engram.mcp.http.TokenSet;
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.nativeprofile.NativeProfile;
import dev.engram.mcp.profile.nativeprofile.NativeRenderers;
import dev.engram.spi.MemoryStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --remote}: remember, recall, stats and export against a running server print what they print locally. */
class RemoteCommandsTest {
    private static final String OPS = "ops-token-0123456789abcdef";
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-12-01T10:00:00Z"));
    private final MemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private McpHttpServer server;

    private String start(ServerLimits limits) throws Exception {
        Engine guarded = engine.guarded(Access::current);
        JsonText json = JsonText.standard();
        server = McpHttpServer.builder(new HttpServerSettings("127.0.0.1", 0, "/mcp", TokenSet.of(List.of(OPS)), false,
                                List.of(), List.of(), true).withLimits(limits),
                        NativeProfile.create(new ProfileContext(() -> guarded, "default"), json), "test", json.mapper())
                .principals(new Principals(store))
                .export(ExportSource.of(guarded, new ExportCodec(NativeRenderers.standard().structured(), json)))
                .requestLog(line -> { })
                .start();
        return server.endpoint().toString();
    }

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    /** The CLI on the same engine the server serves, for local runs; ENGRAM_TOKEN as given. */
    private CliRunner cli(String token) {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, token == null ? Map.of() : Map.of("ENGRAM_TOKEN", token),
                (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    @Test
    void theClientDropsIdleConnectionsBeforeTheServerDoesAndKeepsAValueTheUserSet() {
        String before = System.getProperty(RemoteServer.KEEP_ALIVE_PROPERTY);
        try {
            System.clearProperty(RemoteServer.KEEP_ALIVE_PROPERTY);
            RemoteServer.httpClient();
            long keep = Long.parseLong(System.getProperty(RemoteServer.KEEP_ALIVE_PROPERTY));
            assertTrue(keep > 0 && keep < McpHttpServer.IDLE_TIMEOUT.toSeconds(), "client keep-alive " + keep + " s");
            System.setProperty(RemoteServer.KEEP_ALIVE_PROPERTY, "7");
            RemoteServer.httpClient();
            assertEquals("7", System.getProperty(RemoteServer.KEEP_ALIVE_PROPERTY));
        } finally {
            if (before == null) System.clearProperty(RemoteServer.KEEP_ALIVE_PROPERTY);
            else System.setProperty(RemoteServer.KEEP_ALIVE_PROPERTY, before);
        }
    }

    @Test
    void rememberRecallStatsAndExportPrintWhatTheyPrintLocally() throws Exception {
        String url = start(ServerLimits.DEFAULT);
        CliRunner.Run local = cli(null).run("remember", "The team deploys on Tuesdays after the standup", "--tags", "deploy");
        assertEquals(0, local.exitCode(), local.err());
        CliRunner.Run remote = cli(OPS).run("remember", "--remote", url, "Builds use Gradle 8 with the configuration cache",
                "--tags", "build", "--type", "decision");
        assertEquals(0, remote.exitCode(), remote.err());
        assertTrue(remote.out().startsWith("created decision/builds-use-gradle-8"), remote.out());
        assertEquals(2, store.count(), "the remote remember wrote through the server");
        assertTrue(engine.recall(dev.engram.engine.RecallQuery.builder("Gradle").build(), NativeRenderers.standard().text())
                .results().get(0).memory().tags().contains("build"));

        CliRunner.Run remoteRecall = cli(OPS).run("recall", "--remote", url, "deploys", "Tuesdays");
        assertEquals(0, remoteRecall.exitCode(), remoteRecall.err());
        assertEquals(cli(null).run("recall", "deploys", "Tuesdays").out(), remoteRecall.out());
        assertTrue(remoteRecall.out().contains("The team deploys on Tuesdays"), remoteRecall.out());

        assertEquals(cli(null).run("stats", "--json").out(), cli(OPS).run("stats", "--json", "--remote", url).out());
        assertEquals(cli(null).run("stats").out(), cli(OPS).run("stats", "--remote", url).out());

        CliRunner.Run exported = cli(OPS).run("export", "--remote", url);
        assertEquals(0, exported.exitCode(), exported.err());
        assertEquals(cli(null).run("export").out(), exported.out());
        assertEquals(2, exported.out().lines().count());
        Path file = dir.resolve("remote.jsonl");
        CliRunner.Run toFile = cli(OPS).run("export", "--remote", url, "--out", file.toString(), "--zone", "default");
        assertEquals(0, toFile.exitCode(), toFile.err());
        assertEquals(exported.out(), Files.readString(file));
        assertTrue(toFile.err().contains("exported 2 memories from " + url), toFile.err());
        assertFalse(Files.exists(dir.resolve("remote.jsonl.partial")));
    }

    @Test
    void refusalsAndAnUnreachableServerSayWhatHappenedAndWhatToDo() throws Exception {
        String url = start(ServerLimits.DEFAULT);
        String reader = engine.principals().add("reader", new Grants(Map.of("default", Right.READ), null)).token();

        CliRunner.Run wrong = cli("not-a-token").run("stats", "--remote", url);
        assertEquals(2, wrong.exitCode());
        assertEquals("engram: the server at " + url + " refused the token (401: unauthorized: the bearer token is not valid);"
                + " send a valid one with ENGRAM_TOKEN=<token> (or --token); the server's operator makes one with"
                + " 'engram tokens add'\n", wrong.err());
        CliRunner.Run none = cli(null).run("stats", "--remote", url);
        assertEquals(2, none.exitCode());
        assertTrue(none.err().contains("refused the token (401: unauthorized: send the header 'Authorization: Bearer <token>')"),
                none.err());

        CliRunner.Run write = cli(null).run("remember", "--remote", url, "--token", reader, "Readers cannot write this");
        assertEquals(2, write.exitCode());
        assertTrue(write.err().startsWith("engram: access denied: this token has no write right on zone 'default'"), write.err());
        assertEquals(0, store.count());
        CliRunner.Run other = cli(reader).run("export", "--remote", url, "--zone", "finance");
        assertEquals(2, other.exitCode());
        assertTrue(other.err().contains("the token may not do this (403: access denied: this token has no read right on zone"
                + " 'finance'"), other.err());

        server.close();
        CliRunner.Run gone = cli(OPS).run("recall", "--remote", url, "anything");
        assertEquals(2, gone.exitCode());
        assertEquals("engram: cannot reach the server at " + url + " (connection refused); is engram serve running there?"
                + " Check the --remote URL (host, port, http or https)\n", gone.err());
        CliRunner.Run bad = cli(OPS).run("stats", "--remote", "ftp://mem.example");
        assertTrue(bad.err().contains("--remote (flag) must be the http(s) URL of a running engram serve"), bad.err());
        CliRunner.Run both = cli(OPS).run("recall", "--remote", url, "--store", dir.resolve("elsewhere").toString(), "x");
        assertEquals(2, both.exitCode());
        assertTrue(both.err().contains("--remote (flag) works on the server's store, so --store and --project do not go with it"),
                both.err());
        CliRunner.Run toon = cli(OPS).run("export", "--remote", url, "--format", "toon");
        assertTrue(toon.err().contains("export --remote writes the engram format only"), toon.err());
    }

    @Test
    void aRateLimitedCommandSaysWhenToRetry() throws Exception {
        // one request per 1000 s: a command makes three (initialize, initialized, the call), so its burst is three
        String url = start(ServerLimits.DEFAULT.withRate(0.001, 3));
        assertEquals(0, cli(OPS).run("stats", "--remote", url).exitCode());
        CliRunner.Run limited = cli(OPS).run("stats", "--remote", url);
        assertEquals(2, limited.exitCode());
        assertTrue(limited.err().matches("(?s)engram: the server's rate limit refused the request \\(429: rate limited: this token"
                + " sent more than 0\\.001 requests per second \\(bursts up to 3\\); retry after \\d+ s\\); retry after \\d+ s\n"),
                limited.err());
    }
}
