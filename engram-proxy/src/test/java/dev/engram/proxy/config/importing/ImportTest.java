package dev.engram.proxy.config.importing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.InvalidArgumentException;
import dev.engram.proxy.config.CompressionMode;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Imports from fixture files in a temporary home (never the real one), checked against golden
 * plans in src/test/resources/import/*.plan.txt ({@code -Dengram.golden.update=true} rewrites them).
 */
class ImportTest {
    @TempDir
    Path home;

    private Path cwd() throws IOException {
        return Files.createDirectories(home.resolve("work/project"));
    }

    private Path fixture(String name, Path to) throws IOException {
        try (InputStream in = ImportTest.class.getResourceAsStream("/import/" + name)) {
            Files.createDirectories(to.getParent());
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@CWD@", cwd().toString());
            Files.writeString(to, text);
            return to;
        }
    }

    private void golden(String name, ImportPlan plan) throws IOException {
        String text = plan.text().replace(home.toString(), "<home>");
        Path file = Path.of("src/test/resources/import", name);
        if (Boolean.getBoolean("engram.golden.update")) Files.writeString(file, text);
        assertEquals(Files.readString(file), text, "golden " + name + " (rerun with -Dengram.golden.update=true after checking the change)");
    }

    @Test
    void memtomemServersToolOverridesAndCompressionAreMappedAndTheRestIsListed() throws IOException {
        Path file = fixture("stm_proxy.json", home.resolve(".memtomem/stm_proxy.json"));
        Found found = new MemtomemConfig(McpJsonDefaults.getMapper()).read(file);
        ImportPlan plan = ImportPlan.of(ProxyConfig.empty(), found);
        golden("stm_proxy.plan.txt", plan);

        Map<String, UpstreamConfig> byName = new java.util.HashMap<>();
        plan.add().forEach(c -> byName.put(c.upstream().name(), c.upstream()));
        assertEquals(List.of("filesystem", "github", "docs", "legacy"), plan.add().stream().map(c -> c.upstream().name()).toList());
        assertEquals(new UpstreamTransport.Sse("https://old.example.com/sse", Map.of()), plan.add().get(3).upstream().transport());
        UpstreamConfig fs = byName.get("filesystem");
        assertEquals("fs", fs.prefix());
        assertEquals(CompressionMode.AUTO, fs.compression()); // its own "auto" wins over default_compression
        assertEquals(8000, fs.maxResultChars()); // 2000 tokens at 4 chars
        assertEquals(600, fs.cacheTtlSeconds()); // cache.default_ttl_seconds fills the gap
        assertTrue(fs.overrideFor("internal_debug").hidden());
        assertEquals(CompressionMode.SELECTIVE, fs.compressionFor("search_files"));
        assertEquals(12000, fs.maxResultCharsFor("search_files"));
        assertEquals(0, fs.cacheTtlSecondsFor("search_files"));
        assertEquals(CompressionMode.SKELETON, fs.compressionFor("read_file")); // STM's skeleton, carried over as it is
        assertEquals("Read a project file", fs.overrideFor("read_file").descriptionOverride());
        assertEquals(List.of("*debug*"), fs.excludeTools()); // the 7 is noted, not carried over
        assertEquals(java.util.Optional.of("*debug*"), fs.excludedBy("internal_debug"));
        assertEquals(Boolean.TRUE, found.advertiseContextQuery());
        assertTrue(plan.applyTo(ProxyConfig.empty()).advertiseContextQuery(), "advertise_context_query reaches proxy.json");
        UpstreamConfig gh = byName.get("github");
        assertEquals(CompressionMode.HYBRID, gh.compression()); // default_compression
        assertFalse(gh.surfacing());
        assertTrue(fs.surfacing());
        assertEquals(new UpstreamTransport.Stdio("npx", List.of("-y", "@modelcontextprotocol/server-github"), List.of("GITHUB_TOKEN")),
                gh.transport());
        UpstreamConfig docs = byName.get("docs");
        assertEquals(new UpstreamTransport.Http("https://docs.example.com/mcp", Map.of("Authorization", "Bearer s3cret")), docs.transport());
        assertEquals(86400, docs.cacheTtlSeconds());
        assertFalse(plan.text().contains("s3cret"), "header values never printed");
        assertFalse(plan.text().contains("ghp_notarealtoken"), "env values never printed");
    }

    @Test
    void claudeReadsUserAndThisProjectsServersAndMarksDotMcpJsonProjectLocal() throws IOException {
        fixture("claude.json", home.resolve(".claude.json"));
        fixture("mcp.json", cwd().resolve(".mcp.json"));
        Found found = new AgentConfigs(McpJsonDefaults.getMapper(), home, cwd()).claude(null);
        ImportPlan plan = ImportPlan.of(ProxyConfig.empty(), found);
        golden("claude.plan.txt", plan);
        assertEquals(List.of("filesystem", "sentry", "events", "db", "repo-tool"), plan.add().stream().map(c -> c.upstream().name()).toList());
        assertEquals(new UpstreamTransport.Sse("https://events.example.com/sse", Map.of("X-Api-Key", "${EVENTS_KEY}")),
                plan.add().get(2).upstream().transport());
        assertTrue(plan.add().get(2).notes().get(0).startsWith("headers X-Api-Key refers to an environment variable"), plan.add().get(2).notes().toString());
        assertEquals(List.of("repo-tool"), plan.projectLocal().stream().map(c -> c.upstream().name()).toList());
        assertEquals(new UpstreamTransport.Stdio("db-mcp", List.of("--ro"), List.of("DB_URL")), plan.add().get(3).upstream().transport());
        assertTrue(plan.add().get(3).notes().stream().noneMatch(n -> n.contains("values not copied")), "${DB_URL} passes by name");
        assertTrue(found.notes().stream().anyMatch(n -> n.startsWith("engram [") && n.contains("Engram itself")), found.notes().toString());
    }

    @Test
    void cursorRenamesInvalidNamesAndKeepsEnvNamesOnly() throws IOException {
        fixture("cursor-mcp.json", home.resolve(".cursor/mcp.json"));
        Found found = new AgentConfigs(McpJsonDefaults.getMapper(), home, cwd()).cursor(null);
        ImportPlan plan = ImportPlan.of(ProxyConfig.empty(), found);
        golden("cursor.plan.txt", plan);
        assertEquals("web-search", plan.add().get(0).upstream().name());
        assertEquals("web-search", plan.add().get(0).upstream().prefix());
        assertEquals(new UpstreamTransport.Http("https://mcp.linear.app/mcp", Map.of("Authorization", "Bearer lin")), plan.add().get(1).upstream().transport());
        assertEquals(new UpstreamTransport.Sse("https://legacy.example.com/sse", Map.of()), plan.add().get(2).upstream().transport(),
                "a bare url ending in /sse is the older transport");
        assertFalse(plan.text().contains("k-123"));
    }

    @Test
    void codexTomlWithSubTablesInlineTablesAndMultilineArrays() throws IOException {
        Path file = fixture("codex-config.toml", home.resolve("codex-home/config.toml"));
        Found found = new AgentConfigs(McpJsonDefaults.getMapper(), home, cwd()).codex(null, file.getParent());
        ImportPlan plan = ImportPlan.of(ProxyConfig.empty(), found);
        golden("codex.plan.txt", plan);
        UpstreamConfig c7 = plan.add().get(0).upstream();
        assertEquals(new UpstreamTransport.Stdio("npx", List.of("-y", "@upstash/context7-mcp"), List.of("DEBUG", "CONTEXT7_KEY")), c7.transport());
        assertTrue(c7.overrideFor("resolve-library-id").hidden());
        assertEquals(new UpstreamTransport.Http("https://mcp.figma.com/mcp", Map.of("X-Team", "design")), plan.add().get(1).upstream().transport());
        assertEquals(List.of("server.js", "--banner=a\nb"), ((UpstreamTransport.Stdio) plan.add().get(2).upstream().transport()).args());
        assertEquals("multi.line", plan.add().get(2).upstream().name());
        assertTrue(found.notes().stream().anyMatch(n -> n.startsWith("off [") && n.contains("enabled = false")), found.notes().toString());
    }

    @Test
    void anExistingUpstreamIsNeverReplacedAndATakenPrefixGetsANumber() throws IOException {
        Path file = fixture("stm_proxy.json", home.resolve("stm.json"));
        ProxyConfig existing = ProxyConfig.empty()
                .with(UpstreamConfig.of("github", "github", new UpstreamTransport.Stdio("other", List.of(), List.of())))
                .with(UpstreamConfig.of("docs", "x", new UpstreamTransport.Http("https://docs.example.com/mcp", Map.of("Authorization", "Bearer s3cret"))))
                .with(UpstreamConfig.of("mine", "fs", new UpstreamTransport.Stdio("mine", List.of(), List.of())));
        ImportPlan plan = ImportPlan.of(existing, new MemtomemConfig(McpJsonDefaults.getMapper()).read(file));
        assertEquals(List.of("filesystem", "legacy"), plan.add().stream().map(c -> c.upstream().name()).toList());
        assertEquals("fs2", plan.add().get(0).upstream().prefix());
        assertTrue(plan.conflicts().get(0).startsWith("github [stm.json]: an upstream named 'github' exists and differs; kept as it is"),
                plan.conflicts().toString());
        assertEquals(List.of("docs [stm.json]: already in proxy.json"), plan.unchanged());
        ProxyConfig after = plan.applyTo(existing);
        assertEquals("other", ((UpstreamTransport.Stdio) after.find("github").orElseThrow().transport()).command());
        assertEquals(5, after.upstreams().size());
        new ProxyConfigFile(home, McpJsonDefaults.getMapper()).save(after); // the result is a valid proxy.json
        assertEquals(after, new ProxyConfigFile(home, McpJsonDefaults.getMapper()).load());
    }

    @Test
    void aBrokenFileIsRefusedNamingIt() throws IOException {
        Path bad = Files.writeString(home.resolve("bad.toml"), "[mcp_servers.x]\ncommand = \"npx\nargs = []\n");
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> new AgentConfigs(McpJsonDefaults.getMapper(), home, home).codex(bad, null));
        assertTrue(e.getMessage().contains("bad.toml cannot be read as TOML: TOML line 2: a string is not closed on its line"), e.getMessage());
        Path json = Files.writeString(home.resolve("bad.json"), "{\"mcpServers\": ");
        e = assertThrows(InvalidArgumentException.class, () -> new AgentConfigs(McpJsonDefaults.getMapper(), home, home).claude(json));
        assertTrue(e.getMessage().contains("bad.json is not a JSON object"), e.getMessage());
        e = assertThrows(InvalidArgumentException.class, () -> new MemtomemConfig(McpJsonDefaults.getMapper()).read(home.resolve("none.json")));
        assertTrue(e.getMessage().contains("none.json does not exist"), e.getMessage());
    }

    @Test
    void tomlValues() {
        Map<String, Object> t = MiniToml.parse("a = 1\nb = -2.5\nc = true\nd = 'lit\\eral'\n[x.\"y z\"]\ne = [1, [2, 3]]\nf.g = \"h\\u00e9\"\n"
                + "[[arr]]\nn = 1\n[[arr]]\nn = 2\n");
        assertEquals(1L, t.get("a"));
        assertEquals(-2.5, t.get("b"));
        assertEquals(true, t.get("c"));
        assertEquals("lit\\eral", t.get("d"));
        assertEquals(Map.of("e", List.of(1L, List.of(2L, 3L)), "f", Map.of("g", "hé")), ((Map<?, ?>) t.get("x")).get("y z"));
        assertEquals(List.of(Map.of("n", 1L), Map.of("n", 2L)), t.get("arr"));
    }
}
