package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.engram.engine.Engine;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** memory_export_gist / memory_import_gist against a fake Gist API on loopback (ENGRAM_GIST_API). */
class GistToolsTest {
    @TempDir
    Path project;
    private HttpServer server;
    private final Map<String, String> gists = new ConcurrentHashMap<>();
    private final List<String> auth = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final JsonText json = JsonText.standard();

    @BeforeEach
    void fakeGitHub() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/gists", ex -> {
            auth.add(ex.getRequestHeaders().getFirst("Authorization"));
            String path = ex.getRequestURI().getPath();
            byte[] out;
            int status = 200;
            if (ex.getRequestMethod().equals("POST") && path.equals("/gists")) {
                Map<String, Object> body = json.readObject(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                String id = "abc123def456" + gists.size();
                gists.put(id, json.write(Map.of("id", id, "public", body.get("public"), "description", body.get("description"),
                        "files", body.get("files"), "html_url", "https://gist.example/" + id)));
                status = 201;
                out = gists.get(id).getBytes(StandardCharsets.UTF_8);
            } else if (ex.getRequestMethod().equals("GET") && gists.containsKey(path.substring("/gists/".length()))) {
                out = gists.get(path.substring("/gists/".length())).getBytes(StandardCharsets.UTF_8);
            } else {
                status = 404;
                out = "{\"message\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8);
            }
            ex.sendResponseHeaders(status, out.length);
            ex.getResponseBody().write(out);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private ToolProfile profile(Engine engine, String token) {
        Map<String, String> settings = new HashMap<>();
        settings.put(ToonProfile.GIST_API_SETTING, "http://127.0.0.1:" + server.getAddress().getPort() + "/");
        if (token != null) settings.put(ToonProfile.GITHUB_TOKEN_SETTING, token);
        return ToonProfile.create(ProfileContext.of(engine, "default").withSettings(settings), project, null, null, null, Clock.systemUTC());
    }

    private static CallToolResult raw(ToolProfile p, String tool, Map<String, Object> args) {
        ToolHandler h = p.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void exportThenImportIntoAnotherProjectMergesByKey() {
        Engine source = TestEngines.inMemory(Clock.systemUTC());
        ToolProfile src = profile(source, "ghp_test");
        assertFalse(raw(src, "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation")).isError());
        CallToolResult exported = raw(src, "memory_export_gist", Map.of("description", "e2e memory"));
        assertFalse(exported.isError(), text(exported));
        assertTrue(text(exported).startsWith("📤 Memory exported to Gist\nID: abc123def4560\nURL: https://gist.example/abc123def4560"), text(exported));
        assertEquals(List.of("Bearer ghp_test"), auth);
        Map<String, Object> stored = json.readObject(gists.get("abc123def4560"));
        assertEquals(false, stored.get("public"), "toon's gists are private");
        assertEquals("e2e memory", stored.get("description"));

        Engine target = TestEngines.inMemory(Clock.systemUTC());
        ToolProfile tgt = profile(target, "ghp_test");
        CallToolResult imported = raw(tgt, "memory_import_gist", Map.of("gist_id", "https://gist.github.com/someone/abc123def4560"));
        assertEquals("📥 Memory merged from Gist abc123def4560\n  Added: 1 · Updated: 0 · Unchanged: 0", text(imported));
        assertTrue(text(raw(tgt, "memory_recall", Map.of("ids", "use-zod"))).contains("Use Zod for validation"));
        assertEquals("📥 Memory merged from Gist abc123def4560\n  Added: 0 · Updated: 0 · Unchanged: 1",
                text(raw(tgt, "memory_import_gist", Map.of("gist_id", "abc123def4560"))));
        // the source changes the entry the same day: toon's date cannot say which is newer, and the count says so
        assertFalse(raw(src, "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Valibot for validation")).isError());
        assertFalse(raw(src, "memory_export_gist", Map.of()).isError());
        String merged = text(raw(tgt, "memory_import_gist", Map.of("gist_id", "abc123def4561")));
        assertTrue(merged.startsWith("📥 Memory merged from Gist abc123def4561\n  Added: 0 · Updated: 0 · Unchanged: 0\n  ⚠️ Kept this"
                + " project's version of 1 entry with other content dated the same day"), merged);
        assertTrue(merged.contains(": use-zod;"), merged);
    }

    @Test
    void refusesWithoutATokenBadIdsAndApiErrorsWritingNothing() {
        Engine engine = TestEngines.inMemory(Clock.systemUTC());
        CallToolResult noToken = raw(profile(engine, null), "memory_export_gist", Map.of());
        assertTrue(noToken.isError() && text(noToken).contains("GITHUB_TOKEN is not set"), text(noToken));
        assertTrue(auth.isEmpty(), "nothing was sent");
        ToolProfile p = profile(engine, "ghp_test");
        CallToolResult bad = raw(p, "memory_import_gist", Map.of("gist_id", "../../user"));
        assertTrue(bad.isError() && text(bad).contains("gist_id"), text(bad));
        CallToolResult missing = raw(p, "memory_import_gist", Map.of("gist_id", "ffff0000"));
        assertTrue(missing.isError() && text(missing).contains("GitHub API error (404)"), text(missing));
        CallToolResult replace = raw(p, "memory_import_gist", Map.of("gist_id", "ffff0000", "merge", false));
        assertTrue(replace.isError() && text(replace).contains("merge"), text(replace));
        assertEquals(0, engine.stats("default").total());
    }

    private ToolProfile profileWith(Engine engine, Map<String, String> settings) {
        return ToonProfile.create(ProfileContext.of(engine, "default").withSettings(settings), project, null, null, null, Clock.systemUTC());
    }

    @Test
    void badSettingsAndNetworkFailuresAreSaidInWordsAndTheTokenNever() throws Exception {
        Engine engine = TestEngines.inMemory(Clock.systemUTC());
        for (String api : List.of("not a url", "ftp://example.com", "http://[zz")) {
            CallToolResult r = raw(profileWith(engine, Map.of(ToonProfile.GIST_API_SETTING, api, ToonProfile.GITHUB_TOKEN_SETTING, "ghp_x")),
                    "memory_export_gist", Map.of());
            assertTrue(r.isError() && text(r).contains("ENGRAM_GIST_API") && text(r).contains("nothing was sent"), text(r));
        }
        String port = "http://127.0.0.1:" + server.getAddress().getPort() + "/";
        for (String token : List.of("ghp_abc\nX-Evil: 1", "ghp_äbc", "ghp abc")) {
            CallToolResult r = raw(profileWith(engine, Map.of(ToonProfile.GIST_API_SETTING, port, ToonProfile.GITHUB_TOKEN_SETTING, token)),
                    "memory_export_gist", Map.of());
            assertTrue(r.isError() && text(r).contains("GITHUB_TOKEN holds a character") && !text(r).contains("abc"), text(r));
        }
        assertTrue(auth.isEmpty(), "nothing was sent");
        // a port nobody listens on
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        CallToolResult refused = raw(profileWith(engine, Map.of(ToonProfile.GIST_API_SETTING, "http://127.0.0.1:" + closed,
                ToonProfile.GITHUB_TOKEN_SETTING, "ghp_x")), "memory_import_gist", Map.of("gist_id", "abc"));
        assertTrue(refused.isError() && text(refused).contains("the connection was refused") && !text(refused).contains("null"), text(refused));
    }

    @Test
    void anAnswerThatTricklesInEndsAtTheDeadline() throws Exception {
        server.createContext("/slow/gists", ex -> {
            ex.sendResponseHeaders(200, 0);
            try {
                for (int i = 0; i < 50; i++) {
                    ex.getResponseBody().write('{');
                    ex.getResponseBody().flush();
                    Thread.sleep(200);
                }
            } catch (Exception ignored) {
                // the client went away
            }
            ex.close();
        });
        Engine engine = TestEngines.inMemory(Clock.systemUTC());
        Map<String, String> settings = Map.of(ToonProfile.GIST_API_SETTING, "http://127.0.0.1:" + server.getAddress().getPort() + "/slow",
                ToonProfile.GITHUB_TOKEN_SETTING, "ghp_x", GistTools.TIMEOUT_SETTING, "1");
        long start = System.nanoTime();
        CallToolResult r = raw(profileWith(engine, settings), "memory_import_gist", Map.of("gist_id", "abc"));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(r.isError() && text(r).contains("did not answer within 1 s"), text(r));
        assertTrue(ms < 5_000, "ended at the deadline, not when the body did: " + ms + " ms");
        CallToolResult export = raw(profileWith(engine, settings), "memory_export_gist", Map.of());
        assertTrue(text(export).contains("may or may not have happened"), "an upload that timed out is not said undone: " + text(export));
    }

    @Test
    void aNameThatDoesNotResolveIsNotCalledARefusedConnection() {
        java.net.ConnectException wrapped = new java.net.ConnectException();
        wrapped.initCause(new java.nio.channels.UnresolvedAddressException());
        assertEquals("the host name does not resolve", GistTools.reason(wrapped));
        assertEquals("the connection was refused", GistTools.reason(new java.net.ConnectException()));
    }
}
