package dev.engram.proxy.config.importing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.ResultBudget;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entries that cannot work are skipped with a note (review 2, finding 11); secrets never reach the plan (13); budgets clamp (16). */
class ImportSafetyTest {
    @TempDir
    Path home;

    private ImportPlan claude(String json) throws IOException {
        Path file = Files.writeString(home.resolve("claude.json"), json);
        return ImportPlan.of(ProxyConfig.empty(), new AgentConfigs(McpJsonDefaults.getMapper(), home, home).claude(file));
    }

    private static String note(ImportPlan plan, String name) {
        return plan.found().notes().stream().filter(n -> n.startsWith(name + " [")).findFirst().orElse("(no note for " + name + ")");
    }

    @Test
    void brokenCommandsUrlsHeadersAndArgsAreSkippedWithANoteAndNeverWritten() throws IOException {
        ImportPlan plan = claude("""
                {"mcpServers": {
                  "good": {"command": "npx", "args": ["-y", "srv"]},
                  "nul": {"command": "np\\u0000x"},
                  "spaced": {"type": "http", "url": "https://h.example/a b"},
                  "broken": {"type": "http", "url": "http://"},
                  "hname": {"type": "http", "url": "https://h.example/mcp", "headers": {"X Api": "v"}},
                  "crlf": {"type": "http", "url": "https://h.example/mcp", "headers": {"X-Api": "v\\r\\nX-Evil: 1"}},
                  "nullval": {"type": "http", "url": "https://h.example/mcp", "headers": {"X-Api": null}},
                  "numarg": {"command": "srv", "args": ["--port", 5]},
                  "nularg": {"command": "srv", "args": ["a\\u0000b"]}
                }}""");
        assertEquals(List.of("good"), plan.add().stream().map(c -> c.upstream().name()).toList(), plan.text());
        assertTrue(note(plan, "nul").contains("skipped: command "), note(plan, "nul"));
        assertTrue(note(plan, "spaced").contains("skipped: url is not a valid URL"), note(plan, "spaced"));
        assertTrue(note(plan, "broken").contains("skipped: url "), note(plan, "broken"));
        assertTrue(note(plan, "hname").contains("skipped: headers name 'X Api' is not a header name"), note(plan, "hname"));
        assertTrue(note(plan, "crlf").contains("skipped: headers value of X-Api must not contain a line break"), note(plan, "crlf"));
        assertTrue(note(plan, "nullval").contains("skipped: headers X-Api has no value"), note(plan, "nullval"));
        assertTrue(note(plan, "numarg").contains("skipped: args[1] is not a string"), note(plan, "numarg"));
        assertTrue(note(plan, "nularg").contains("skipped: args[0] contains a NUL character"), note(plan, "nularg"));
        ProxyConfigFile file = new ProxyConfigFile(home.resolve("store"), McpJsonDefaults.getMapper());
        file.save(plan.applyTo(ProxyConfig.empty()));
        assertEquals(1, file.load().upstreams().size());
    }

    @Test
    void theLoaderRefusesWhatTheImportSkipsNamingTheEntry() throws IOException {
        Path store = Files.createDirectories(home.resolve("store"));
        ProxyConfigFile file = new ProxyConfigFile(store, McpJsonDefaults.getMapper());
        String[][] cases = {
                {"{\"name\":\"a\",\"prefix\":\"a\",\"command\":\"x\\u0000y\"}", "upstreams[0] ('a'): command "},
                {"{\"name\":\"a\",\"prefix\":\"a\",\"transport\":\"sse\",\"url\":\"https://h.example/s se\"}", "upstreams[0] ('a'): url is not a valid URL"},
                {"{\"name\":\"a\",\"prefix\":\"a\",\"transport\":\"sse\",\"url\":\"https://h.example/sse\",\"headers\":{\"A\":\"x\\ny\"}}",
                        "upstreams[0] ('a'): headers value of A must not contain a line break"},
                {"{\"name\":\"a\",\"prefix\":\"a\",\"max_result_chars\":4294975296,\"command\":\"x\"}", "upstreams[0] ('a'): max_result_chars "},
        };
        for (String[] c : cases) {
            Files.writeString(store.resolve("proxy.json"), "{\"upstreams\":[" + c[0] + "]}");
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, file::load, c[0]);
            assertTrue(e.getMessage().contains(c[1]), e.getMessage());
        }
    }

    @Test
    void credentialsInUrlsAndArgumentsAreMaskedInThePlanTextAndData() throws IOException {
        ImportPlan plan = claude("""
                {"mcpServers": {
                  "pg": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://admin:S3cretPW@db.internal/prod"]},
                  "flag": {"command": "srv", "args": ["--db=mysql://root:Fl4gPW@10.0.0.1:3306/x"]},
                  "web": {"type": "http", "url": "https://user:W3bPW@h.example/mcp?token=T0ken&v=2"}
                }}""");
        assertEquals(3, plan.add().size(), plan.text());
        String text = plan.text();
        String json = McpJsonDefaults.getMapper().writeValueAsString(plan.data());
        for (String out : List.of(text, json)) {
            for (String secret : List.of("S3cretPW", "Fl4gPW", "W3bPW", "T0ken", "admin:", "root:", "user:")) {
                assertFalse(out.contains(secret), secret + " in " + out);
            }
        }
        assertTrue(text.contains("stdio: npx -y @modelcontextprotocol/server-postgres postgresql://<hidden>@db.internal/prod"), text);
        assertTrue(text.contains("--db=mysql://<hidden>@10.0.0.1:3306/x"), text);
        assertTrue(text.contains("http: https://<hidden>@h.example/mcp?token=<hidden>&v=<hidden>"), text);
        // only the shown text is masked: proxy.json keeps what the server needs
        assertTrue(plan.add().get(0).upstream().transport().toString().contains("S3cretPW"));
    }

    @Test
    void hugeTokenAndCharBudgetsClampInsteadOfOverflowing() throws IOException {
        Path file = Files.writeString(home.resolve("stm.json"), """
                {"upstream_servers": {
                  "a": {"command": "x", "max_result_tokens": 1073741824},
                  "b": {"command": "x", "max_result_tokens": 99999999999999999999999},
                  "c": {"command": "x", "max_result_chars": 4294975296},
                  "d": {"command": "x", "cache_ttl_seconds": 4294967296}
                }}""");
        ImportPlan plan = ImportPlan.of(ProxyConfig.empty(), new MemtomemConfig(McpJsonDefaults.getMapper()).read(file));
        assertEquals(4, plan.add().size(), plan.text());
        assertEquals(ResultBudget.MAX_CHARS, plan.add().get(0).upstream().maxResultChars(), plan.text());
        assertEquals(ResultBudget.MAX_CHARS, plan.add().get(1).upstream().maxResultChars(), plan.text());
        assertEquals(ResultBudget.MAX_CHARS, plan.add().get(2).upstream().maxResultChars(), plan.text());
        assertEquals(30 * 86_400, plan.add().get(3).upstream().cacheTtlSeconds(), plan.text());
        assertTrue(plan.text().contains("max_result_tokens 1073741824 became max_result_chars " + ResultBudget.MAX_CHARS), plan.text());
    }
}
