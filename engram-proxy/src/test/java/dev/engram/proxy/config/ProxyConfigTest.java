package dev.engram.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyConfigTest {
    @TempDir
    Path dir;

    private static UpstreamConfig stdio(String name, String prefix) {
        return UpstreamConfig.of(name, prefix, new UpstreamTransport.Stdio("npx", List.of("-y", "pkg"), List.of("TOKEN")));
    }

    @Test
    void roundTripsThroughTheFileOwnerOnly() throws Exception {
        ProxyConfigFile file = new ProxyConfigFile(dir, McpJsonDefaults.getMapper());
        ProxyConfig config = ProxyConfig.empty().with(stdio("fs", "fs")).with(new UpstreamConfig("web", "web",
                new UpstreamTransport.Http("http://127.0.0.1:8931/mcp", Map.of("Authorization", "Bearer t")),
                CompressionMode.HYBRID, 4000, 0, Map.of("search", new ToolOverride(CompressionMode.SELECTIVE, 12_000, 60, false),
                        "delete", ToolOverride.NONE.with("hidden", "true"))));
        file.save(config);
        assertEquals(config, file.load());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.path())));
    }

    @Test
    void toolOverridesWinOverTheServerSettings() {
        UpstreamConfig u = new UpstreamConfig("s", "s", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                CompressionMode.AUTO, 8000, 3600, Map.of("read", ToolOverride.NONE.with("compression", "none").with("cache_ttl", "0")));
        assertEquals(CompressionMode.NONE, u.compressionFor("read"));
        assertEquals(0, u.cacheTtlSecondsFor("read"));
        assertEquals(8000, u.maxResultCharsFor("read"));
        assertEquals(CompressionMode.AUTO, u.compressionFor("other"));
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> ToolOverride.NONE.with("colour", "red"));
        assertTrue(e.getMessage().contains("unknown key 'colour'"), e.getMessage());
    }

    @Test
    void duplicateNamesAndPrefixesAreRefusedWhenAdded() {
        ProxyConfig config = ProxyConfig.empty().with(stdio("fs", "fs"));
        assertThrows(ConflictException.class, () -> config.with(stdio("fs", "other")));
        ConflictException e = assertThrows(ConflictException.class, () -> config.with(stdio("fs2", "fs")));
        assertTrue(e.getMessage().contains("prefix 'fs'"), e.getMessage());
    }

    @Test
    void prefixesCannotHoldTheSeparator() {
        assertThrows(InvalidArgumentException.class, () -> stdio("a", "my__fs"));
        assertThrows(InvalidArgumentException.class, () -> stdio("a", "fs_"));
        assertThrows(InvalidArgumentException.class, () -> stdio("a", "f s"));
        stdio("a", "my_fs.v2");
    }

    @Test
    void aMalformedFileFailsNamingItInsteadOfResetting() throws Exception {
        ProxyConfigFile file = new ProxyConfigFile(dir, McpJsonDefaults.getMapper());
        Files.writeString(file.path(), "{not json");
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class, file::load);
        assertTrue(e.getMessage().contains(file.path().toString()), e.getMessage());
    }

    @Test
    void settingsAcceptMemtomemNamesAndEngramNamesWin() {
        assertFalse(ProxySettings.fromEnv(Map.of()).advertiseAdmin());
        assertTrue(ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_ADVERTISE_ADMIN", "true")).advertiseAdmin());
        assertTrue(ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_ADVERTISE_OBSERVABILITY_TOOLS", "true")).advertiseAdmin());
        assertFalse(ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_ADVERTISE_ADMIN", "true",
                "ENGRAM_PROXY_ADVERTISE_ADMIN", "false")).advertiseAdmin());
        assertEquals(7, ProxySettings.fromEnv(Map.of("MEMTOMEM_STM_SURFACING__MAX_RESULTS", "7")).surfacing().maxResults());
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> ProxySettings.fromEnv(Map.of("ENGRAM_PROXY_SURFACING__MAX_RESULTS", "many")));
        assertTrue(e.getMessage().contains("must be an integer"), e.getMessage());
    }

    @Test
    void perToolAndServerSettingsReadStmNamesAndRoundTrip() throws Exception {
        ProxyConfigFile file = new ProxyConfigFile(dir, McpJsonDefaults.getMapper());
        Files.writeString(file.path(), """
                {"advertise_context_query": true, "recover_upstream_description": true,
                 "upstreams": [{"name": "fs", "prefix": "fs", "command": "npx",
                  "exclude_tools": ["*delete*", "fs__write_?ile"],
                  "tool_overrides": {"read_file": {"description_override": "Reads a project file", "compression": "selective"},
                                     "move": {"hidden": true}}}]}""");
        ProxyConfig config = file.load();
        assertTrue(config.advertiseContextQuery());
        assertTrue(config.recoverUpstreamDescription());
        UpstreamConfig fs = config.find("fs").orElseThrow();
        assertEquals("Reads a project file", fs.overrideFor("read_file").descriptionOverride());
        assertEquals(CompressionMode.SELECTIVE, fs.compressionFor("read_file"));
        assertTrue(fs.overrideFor("move").hidden());
        assertEquals(java.util.Optional.of("*delete*"), fs.excludedBy("bulk_delete_files"));
        assertEquals(java.util.Optional.of("fs__write_?ile"), fs.excludedBy("write_file"), "patterns match prefix__tool too");
        assertTrue(fs.excludedBy("read_file").isEmpty());
        file.save(config);
        assertEquals(config, file.load(), "written back under Engram's names, read the same");
        assertTrue(Files.readString(file.path()).contains("\"description_override\""));
        file.save(config.withUpstreamDescriptionRecovery(false));
        assertFalse(file.load().recoverUpstreamDescription());
        assertFalse(Files.readString(file.path()).contains("recover_upstream_description"), "the default is not written");
    }

    @Test
    void badPerToolSettingsAreRefusedNamingTheField() throws Exception {
        ProxyConfigFile file = new ProxyConfigFile(dir, McpJsonDefaults.getMapper());
        Map<String, String> bad = Map.of(
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"tools\": {}, \"tool_overrides\": {}}]}", "keep one of them",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"tools\": {\"t\": {\"description_override\": 5}}}]}",
                "tools.t.description_override",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"tools\": {\"t\": {\"description_override\": \" \"}}}]}",
                "description_override",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"tools\": {\"t\": {\"hidden\": \"maybe\"}}}]}",
                "must be true or false",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"exclude_tools\": [\"\"]}]}", "empty pattern",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"exclude_tools\": \"*\"}]}", "array of strings",
                "{\"upstreams\": [{\"name\": \"a\", \"prefix\": \"a\", \"command\": \"x\", \"exclude_tools\": [\"[ab\"]}]}", "does not close",
                "{\"advertise_context_query\": \"yes\", \"upstreams\": []}", "advertise_context_query",
                "{\"recover_upstream_description\": 1, \"upstreams\": []}", "\"recover_upstream_description\" must be true or false");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Files.writeString(file.path(), e.getKey());
            InvalidArgumentException ex = assertThrows(InvalidArgumentException.class, file::load, e.getKey());
            assertTrue(ex.getMessage().contains(e.getValue()), e.getKey() + " -> " + ex.getMessage());
            assertTrue(ex.getMessage().contains(file.path().toString()), ex.getMessage());
        }
    }

    @Test
    void toolGlobsMatchAsFnmatchDoes() {
        assertTrue(ToolGlob.matches("*", "anything"));
        assertTrue(ToolGlob.matches("get_*", "get_file"));
        assertFalse(ToolGlob.matches("get_*", "set_file"));
        assertTrue(ToolGlob.matches("t?", "t1"));
        assertFalse(ToolGlob.matches("t?", "t12"));
        assertTrue(ToolGlob.matches("[ab]x", "bx"));
        assertFalse(ToolGlob.matches("[!ab]x", "ax"));
        assertTrue(ToolGlob.matches("[a-c]x", "cx"));
        assertTrue(ToolGlob.matches("a.b+c", "a.b+c"), "regex characters are literal");
        assertFalse(ToolGlob.matches("a.b", "axb"));
        assertFalse(ToolGlob.matches("Read*", "read_file"), "case-sensitive");
    }
}
