package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyCommandsTest {
    @TempDir
    Path dir;

    private CliRunner cli() {
        return new CliRunner(dir, (c, embedding) -> {
            throw new IllegalStateException("proxy config commands never open the store");
        });
    }

    @Test
    void addListRemoveKeepProxyJsonAndNeverPrintHeaderValues() throws Exception {
        String store = dir.resolve("store").toString();
        CliRunner.Run add = cli().run("--store", store, "proxy", "add", "fs", "--command", "npx", "--args",
                "-y @modelcontextprotocol/server-filesystem '/tmp/with space'", "--prefix", "fs", "--env", "TOKEN",
                "--override", "read_text_file:compression=selective", "--override", "read_text_file:max_chars=12000",
                "--override", "write_file:hidden=true");
        assertEquals(0, add.exitCode(), add.err());
        assertEquals(0, cli().run("--store", store, "proxy", "add", "web", "--url", "http://127.0.0.1:9/mcp",
                "--header", "Authorization=Bearer s3cret-value", "--prefix", "web").exitCode());
        CliRunner.Run list = cli().run("--store", store, "proxy", "list");
        assertTrue(list.out().contains("fs [fs__*] stdio: npx -y @modelcontextprotocol/server-filesystem /tmp/with space (env: TOKEN)"),
                list.out());
        assertTrue(list.out().contains("web [web__*] http: http://127.0.0.1:9/mcp (headers: Authorization)"), list.out());
        assertFalse(list.out().contains("s3cret-value"));
        String json = Files.readString(Path.of(store, "proxy.json"));
        assertTrue(json.contains("\"/tmp/with space\""), json);
        assertTrue(json.contains("\"read_text_file\":{\"compression\":\"selective\",\"max_result_chars\":12000}"), json);
        assertTrue(json.contains("\"write_file\":{\"hidden\":true}"), json);
        assertTrue(list.out().contains("overrides: read_text_file, write_file"), list.out());
        assertEquals(0, cli().run("--store", store, "proxy", "remove", "web").exitCode());
        assertFalse(cli().run("--store", store, "proxy", "list").out().contains("web"));
    }

    @Test
    void aDuplicatePrefixOrAMissingTransportIsRefusedWithAMessage() {
        String store = dir.resolve("store").toString();
        cli().run("--store", store, "proxy", "add", "a", "--command", "x", "--prefix", "p");
        CliRunner.Run dup = cli().run("--store", store, "proxy", "add", "b", "--command", "x", "--prefix", "p");
        assertEquals(2, dup.exitCode());
        assertTrue(dup.err().contains("prefix 'p' is used by two upstreams"), dup.err());
        CliRunner.Run neither = cli().run("--store", store, "proxy", "add", "c", "--prefix", "c");
        assertEquals(2, neither.exitCode());
        assertTrue(neither.err().contains("exactly one of --command (stdio) or --url (HTTP)"), neither.err());
        CliRunner.Run unknown = cli().run("--store", store, "proxy", "remove", "nope");
        assertTrue(unknown.err().contains("no upstream named 'nope'"), unknown.err());
    }

    @Test
    void addRefusesAUrlOrHeaderThatCannotBeSentAndWritesNothing() {
        String store = dir.resolve("store").toString();
        String[][] cases = {
                {"--url", "https://h.example/a b", "url is not a valid URL"},
                {"--url", "https://h.example/mcp", "--header", "X Api=v", "headers name 'X Api' is not a header name"},
                {"--url", "https://h.example/mcp", "--header", "Host=evil.example", "headers Host is set by the HTTP client itself"},
        };
        for (String[] c : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("--store", store, "proxy", "add", "w"));
            args.addAll(List.of(c).subList(0, c.length - 1));
            args.addAll(List.of("--prefix", "w"));
            CliRunner.Run r = cli().run(args.toArray(String[]::new));
            assertEquals(2, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains(c[c.length - 1]), r.err());
            assertFalse(Files.exists(Path.of(store, "proxy.json")));
        }
    }

    @Test
    void shellWordsGroupQuotesAndEscapes() {
        assertEquals(List.of("-y", "pkg", "/a b", "c\"d", "e f"), ShellWords.split("-y pkg '/a b' \"c\\\"d\" e\\ f"));
    }

    @Test
    void configValidateNamesTheFieldOfABadEntryAndAMissingCommand() throws Exception {
        String store = dir.resolve("store").toString();
        CliRunner.Run empty = cli().run("--store", store, "proxy", "config", "validate");
        assertEquals(0, empty.exitCode(), empty.err());
        assertTrue(empty.out().contains("no file yet"), empty.out());

        assertEquals(0, cli().run("--store", store, "proxy", "add", "shell", "--command", "sh", "--prefix", "sh").exitCode());
        assertEquals(0, cli().run("--store", store, "proxy", "add", "ghost", "--command", "no-such-binary-zq", "--prefix", "g")
                .exitCode());
        CliRunner.Run missing = cli().run("--store", store, "proxy", "config", "validate");
        assertEquals(2, missing.exitCode());
        assertTrue(missing.out().contains("upstream 'ghost': command 'no-such-binary-zq' is not found on PATH"), missing.out());
        assertFalse(missing.out().contains("'shell'"), missing.out());

        Path file = Path.of(store, "proxy.json");
        for (String[] bad : new String[][] {
                {"{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": 5}]}", "upstreams[0] ('a'): command must be a string"},
                {"{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"args\": [1]}]}", "args must be an array of strings"},
                {"{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"transport\": \"websocket\", \"url\": \"http://h\"}]}",
                        "'websocket' is not a transport; use stdio, streamable_http or sse"},
                {"{\"upstreams\": [\"x\"]}", "upstreams[0] must be an object"},
                {"{\"upstreams\": {}}", "\"upstreams\" must be an array"},
                {"[1]", "is not a JSON object"}}) {
            Files.writeString(file, bad[0]);
            CliRunner.Run r = cli().run("--store", store, "proxy", "config", "validate");
            assertEquals(2, r.exitCode(), bad[0]);
            assertTrue(r.err().contains(bad[1]), bad[0] + " -> " + r.err());
            assertFalse(r.err().matches("(?s).*(java\\.|ClassCast|Exception).*"), r.err());
        }
    }

    @Test
    void surfacingOnOffIsKeptInProxyJsonForTheProxyAndPerUpstream() throws Exception {
        String store = dir.resolve("store").toString();
        cli().run("--store", store, "proxy", "add", "fs", "--command", "npx", "--prefix", "fs");
        cli().run("--store", store, "proxy", "add", "gh", "--command", "npx", "--prefix", "gh");
        CliRunner.Run off = cli().run("--store", store, "proxy", "surfacing", "off", "--server", "fs");
        assertEquals(0, off.exitCode(), off.err());
        assertTrue(off.out().startsWith("Surfacing off for upstream 'fs' (saved in "), off.out());
        assertTrue(off.out().contains("  fs: off\n  gh: on"), off.out());
        assertTrue(Files.readString(Path.of(store, "proxy.json")).contains("\"surfacing_enabled\":false"));
        assertTrue(cli().run("--store", store, "proxy", "list").out().contains("cache 3600 s, surfacing off"));

        CliRunner.Run all = cli().run("--store", store, "proxy", "surfacing", "off");
        assertTrue(all.out().contains("proxy: off\n  fs: off\n  gh: on (in effect: off)"), all.out());
        assertTrue(cli().run("--store", store, "proxy", "config", "show").out().contains("enabled false, environment_enabled true, file_enabled false"));
        CliRunner.Run on = cli().run("--store", store, "proxy", "surfacing", "on");
        assertTrue(on.out().contains("proxy: on\n  fs: off\n  gh: on"), on.out());
        assertEquals(0, cli().run("--store", store, "proxy", "surfacing", "on", "--server", "fs").exitCode());
        assertFalse(Files.readString(Path.of(store, "proxy.json")).contains("surfacing_enabled"), "on is the default, not written");

        CliRunner.Run bad = cli().run("--store", store, "proxy", "surfacing", "maybe");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("must be on or off"), bad.err());
        CliRunner.Run unknown = cli().run("--store", store, "proxy", "surfacing", "off", "--server", "nope");
        assertTrue(unknown.err().contains("is not an upstream"), unknown.err());
        CliRunner.Run envOff = new CliRunner(dir, java.util.Map.of("ENGRAM_PROXY_SURFACING__ENABLED", "false"), (c, e) -> {
            throw new IllegalStateException();
        }).run("--store", store, "proxy", "surfacing");
        assertTrue(envOff.out().contains("ENGRAM_PROXY_SURFACING__ENABLED=false in this environment keeps surfacing off"), envOff.out());
    }

    @Test
    void anSseUpstreamIsAddedWithTransportSseAndListedAsSuch() throws Exception {
        String store = dir.resolve("store").toString();
        CliRunner.Run add = cli().run("--store", store, "proxy", "add", "old", "--transport", "sse", "--url", "https://mcp.example.com/sse",
                "--header", "Authorization=Bearer t0k3n", "--prefix", "old");
        assertEquals(0, add.exitCode(), add.err());
        assertTrue(Files.readString(Path.of(store, "proxy.json")).contains("\"transport\":\"sse\",\"url\":\"https://mcp.example.com/sse\""));
        CliRunner.Run list = cli().run("--store", store, "proxy", "list");
        assertTrue(list.out().contains("old [old__*] sse: https://mcp.example.com/sse (headers: Authorization)"), list.out());
        assertFalse(list.out().contains("t0k3n"));
        assertTrue(cli().run("--store", store, "--json", "proxy", "list").out().contains("\"transport\":\"sse\""));
        CliRunner.Run stdioUrl = cli().run("--store", store, "proxy", "add", "x", "--transport", "sse", "--command", "npx", "--prefix", "x");
        assertEquals(2, stdioUrl.exitCode());
        assertTrue(stdioUrl.err().contains("needs --url, not --command"), stdioUrl.err());
        CliRunner.Run bad = cli().run("--store", store, "proxy", "add", "y", "--transport", "ws", "--url", "http://h/", "--prefix", "y");
        assertTrue(bad.err().contains("must be stdio, streamable_http or sse"), bad.err());
    }
}
