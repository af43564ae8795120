package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `engram proxy import`: the home and working directory are the temp dir (CliRunner), never the real ones. */
class ProxyImportCommandTest {
    @TempDir
    Path dir;

    private CliRunner cli(Map<String, String> env) {
        return new CliRunner(dir, env, (c, embedding) -> {
            throw new IllegalStateException("proxy import never opens the store");
        });
    }

    private static final String STM = """
            {"upstream_servers": {
              "fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/w"], "prefix": "fs"},
              "web": {"transport": "streamable_http", "url": "http://127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer tok-1"}, "prefix": "web"}
            }}""";

    @Test
    void dryRunAndNoYesWriteNothingYesWritesAndARerunChangesNothing() throws Exception {
        Files.createDirectories(dir.resolve(".memtomem"));
        Files.writeString(dir.resolve(".memtomem/stm_proxy.json"), STM);
        String store = dir.resolve("store").toString();
        Path proxyJson = Path.of(store, "proxy.json");

        CliRunner.Run dry = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "memtomem", "--dry-run", "--yes");
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().contains("To add (2):"), dry.out());
        assertTrue(dry.out().contains("Dry run: nothing written."), dry.out());
        assertFalse(dry.out().contains("tok-1"), dry.out());
        assertFalse(Files.exists(proxyJson));

        CliRunner.Run asked = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "memtomem");
        assertEquals(0, asked.exitCode(), asked.err());
        assertTrue(asked.out().contains("Nothing written. To add these 2: engram proxy import --from memtomem --yes"), asked.out());
        assertFalse(Files.exists(proxyJson));

        CliRunner.Run yes = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "memtomem", "--yes");
        assertEquals(0, yes.exitCode(), yes.err());
        assertTrue(yes.out().contains("Added 2 upstream(s) to " + proxyJson), yes.out());
        CliRunner.Run list = cli(Map.of()).run("--store", store, "proxy", "list");
        assertTrue(list.out().contains("fs [fs__*] stdio: npx -y @modelcontextprotocol/server-filesystem /w"), list.out());
        assertTrue(list.out().contains("web [web__*] http: http://127.0.0.1:9/mcp (headers: Authorization)"), list.out());

        String before = Files.readString(proxyJson);
        CliRunner.Run again = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "memtomem", "--yes");
        assertTrue(again.out().contains("Unchanged (2):"), again.out());
        assertTrue(again.out().contains("Nothing written."), again.out());
        assertEquals(before, Files.readString(proxyJson));
    }

    @Test
    void theFileCanBeGivenOrComeFromMemtomemsVariable() throws Exception {
        Path file = Files.writeString(dir.resolve("elsewhere.json"), STM);
        String store = dir.resolve("store").toString();
        CliRunner.Run byEnv = cli(Map.of("MEMTOMEM_STM_PROXY__CONFIG_PATH", file.toString()))
                .run("--store", store, "proxy", "import", "--from", "memtomem", "--dry-run");
        assertTrue(byEnv.out().contains("Read: " + file), byEnv.out());
        CliRunner.Run byArg = cli(Map.of()).run("--store", store, "--json", "proxy", "import", "--from", "memtomem", "elsewhere.json", "--dry-run");
        assertEquals(0, byArg.exitCode(), byArg.err());
        assertTrue(byArg.out().contains("\"written\":false"), byArg.out());
        CliRunner.Run missing = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "memtomem");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().contains("stm_proxy.json does not exist"), missing.err());
        CliRunner.Run unknown = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "vscode");
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("use memtomem, claude, cursor or codex"), unknown.err());
    }

    @Test
    void serversFromAProjectFileNeedAnExplicitAllow() throws Exception {
        Files.writeString(dir.resolve(".claude.json"), "{\"mcpServers\": {\"fs\": {\"command\": \"npx\"}}}");
        Files.writeString(dir.resolve(".mcp.json"), "{\"mcpServers\": {\"repo\": {\"command\": \"./run.sh\"}}}");
        String store = dir.resolve("store").toString();
        CliRunner.Run refused = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "claude", "--yes");
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("not written: [repo] come from files under"), refused.err());
        assertTrue(refused.err().contains("--allow-project-configs"), refused.err());
        assertFalse(Files.exists(Path.of(store, "proxy.json")));
        CliRunner.Run allowed = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "claude", "--yes", "--allow-project-configs");
        assertEquals(0, allowed.exitCode(), allowed.err());
        assertTrue(allowed.out().contains("Next: point claude at the proxy (claude mcp add engram-proxy -- engram proxy)"), allowed.out());
        assertTrue(Files.readString(Path.of(store, "proxy.json")).contains("./run.sh"));
    }

    @Test
    void codexHomeComesFromItsVariable() throws Exception {
        Path codexHome = Files.createDirectories(dir.resolve("ch"));
        Files.writeString(codexHome.resolve("config.toml"), "[mcp_servers.ctx]\ncommand = \"npx\"\nargs = [\"-y\", \"ctx\"]\n");
        CliRunner.Run r = cli(Map.of("CODEX_HOME", codexHome.toString())).run("--store", dir.resolve("s").toString(), "proxy", "import",
                "--from", "codex", "--dry-run");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("ctx [ctx__*] stdio: npx -y ctx  from ~/ch/config.toml (user)"), r.out());
    }

    @Test
    void credentialsInUrlsAndArgsAreMaskedInThePlanTextAndJsonAndBrokenEntriesAreSkipped() throws Exception {
        Path file = Files.writeString(dir.resolve("claude-test.json"), """
                {"mcpServers": {
                  "pg": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://admin:S3cretPW@db.internal/prod"]},
                  "web": {"type": "http", "url": "https://user:W3bPW@h.example/mcp?token=T0ken"},
                  "nul": {"command": "np\\u0000x"}
                }}""");
        String store = dir.resolve("store").toString();
        CliRunner.Run text = cli(Map.of()).run("--store", store, "proxy", "import", "--from", "claude", file.toString(), "--dry-run");
        CliRunner.Run json = cli(Map.of()).run("--store", store, "--json", "proxy", "import", "--from", "claude", file.toString(), "--dry-run");
        assertEquals(0, text.exitCode(), text.err());
        assertEquals(0, json.exitCode(), json.err());
        for (CliRunner.Run r : new CliRunner.Run[] {text, json}) {
            for (String secret : new String[] {"S3cretPW", "W3bPW", "T0ken", "admin:"}) {
                assertFalse(r.out().contains(secret) || r.err().contains(secret), secret + " in " + r.out() + r.err());
            }
        }
        assertTrue(text.out().contains("postgresql://<hidden>@db.internal/prod"), text.out());
        assertTrue(text.out().contains("http: https://<hidden>@h.example/mcp?token=<hidden>"), text.out());
        assertTrue(text.out().contains("To add (2):"), text.out());
        assertTrue(text.out().contains("nul ["), text.out());
        assertTrue(json.out().contains("postgresql://<hidden>@db.internal/prod"), json.out());
    }
}
