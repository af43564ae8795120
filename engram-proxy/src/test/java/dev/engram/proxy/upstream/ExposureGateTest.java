package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.MutableClock;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExposureGateTest {
    private final ExposureGate gate = new ExposureGate(McpJsonDefaults.getMapper());

    private static UpstreamConnection upstream(String name, String prefix, List<Tool> tools, boolean connect) {
        UpstreamConnection c = new UpstreamConnection(UpstreamConfig.of(name, prefix, new UpstreamTransport.Stdio("x", List.of(), List.of())),
                cfg -> new FakeSession(tools, r -> null), new MutableClock(Instant.EPOCH), Duration.ofSeconds(1));
        if (connect) c.connect();
        return c;
    }

    @Test
    void exposesPrefixedNamesWithServerTitles() {
        Tool read = Tool.builder("read_file", Map.of("type", "object")).title("Read file")
                .annotations(new ToolAnnotations("Read file", true, false, true, false, null)).build();
        Exposure e = gate.expose(List.of(upstream("filesystem", "fs", List.of(read), true)), Set.of());
        ExposedTool t = e.find("fs__read_file").orElseThrow();
        assertEquals("[filesystem] Read file", t.exposed().title());
        assertEquals("[filesystem] Read file", t.exposed().annotations().title());
        assertTrue(t.readOnly());
    }

    @Test
    void anAnnotationTitleOfItsOwnIsKeptPrefixed() {
        Tool echo = Tool.builder("echo", Map.of("type", "object")).title("Echo")
                .annotations(new ToolAnnotations("Echo tool", true, false, true, false, null)).build();
        ExposedTool t = gate.expose(List.of(upstream("bad", "bad", List.of(echo), true)), Set.of()).find("bad__echo").orElseThrow();
        assertEquals("[bad] Echo", t.exposed().title());
        assertEquals("[bad] Echo tool", t.exposed().annotations().title());
    }

    @Test
    void hidesToolsWhoseMetadataHoldsCredentials() {
        Tool leaky = Tool.builder("search", Map.of("type", "object"))
                .description("Uses api_key=sk-abcdefghijklmnopqrstuvwx1234 for calls").build();
        Tool fine = Tool.builder("search2", Map.of("type", "object", "properties",
                Map.of("api_key", Map.of("type", "string")))).description("Takes an api_key parameter").build();
        Exposure e = gate.expose(List.of(upstream("web", "w", List.of(leaky, fine), true)), Set.of());
        assertTrue(e.find("w__search").isEmpty());
        assertTrue(e.find("w__search2").isPresent(), "a parameter named api_key is not a credential");
        assertTrue(e.servers().get("web").hidden().get("search").startsWith("credential-like metadata"));
        assertEquals(2, e.servers().get("web").discovered());
        assertEquals(1, e.servers().get("web").exposed());
    }

    @Test
    void hidesBothSidesOfACollisionAndNamesReservedForTheProxy() {
        // "t/1" and "t_1" both sanitize to x__t_1
        Exposure e = gate.expose(List.of(upstream("a", "x", List.of(FakeSession.tool("t/1"), FakeSession.tool("t_1")), true),
                upstream("c", "stm", List.of(FakeSession.tool("admin")), true)), Set.of("stm__admin"));
        assertTrue(e.tools().isEmpty(), "x__t_1 twice and the reserved stm__admin: " + e.tools());
        assertTrue(e.servers().get("a").hidden().get("t/1").startsWith("name collision"));
        assertTrue(e.servers().get("a").hidden().get("t_1").startsWith("name collision"));
        assertTrue(e.servers().get("c").hidden().get("admin").contains("proxy's own"));
    }

    @Test
    void hidesToolsTheConfigHides() {
        UpstreamConnection c = new UpstreamConnection(new UpstreamConfig("s", "s", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                null, 8000, 0, Map.of("drop", dev.engram.proxy.config.ToolOverride.NONE.with("hidden", "true"))),
                cfg -> new FakeSession(List.of(FakeSession.tool("drop"), FakeSession.tool("keep")), r -> null),
                new MutableClock(Instant.EPOCH), Duration.ofSeconds(1));
        c.connect();
        Exposure e = gate.expose(List.of(c), Set.of());
        assertEquals(List.of("s__keep"), e.tools().stream().map(ExposedTool::name).toList());
        assertEquals("hidden by proxy.json", e.servers().get("s").hidden().get("drop"));
    }

    @Test
    void hidesToolsOfDisconnectedServers() {
        UpstreamConnection c = upstream("down", "d", List.of(FakeSession.tool("t")), true);
        c.close();
        Exposure e = gate.expose(List.of(c), Set.of());
        assertTrue(e.tools().isEmpty());
        assertEquals("disconnected", e.servers().get("down").hidden().get("t"));
        assertEquals(1, e.servers().get("down").discovered());
    }

    @Test
    void longDescriptionsAreCutAndPointAtDescribeTool() {
        String full = "word ".repeat(100).strip();
        Tool t = Tool.builder("long", Map.of("type", "object")).description(full).build();
        Exposure e = new ExposureGate(McpJsonDefaults.getMapper(), 200).expose(List.of(upstream("s", "s", List.of(t), true)), Set.of());
        String shown = e.find("s__long").orElseThrow().exposed().description();
        assertTrue(shown.length() <= 200, shown.length() + " chars");
        assertTrue(shown.endsWith("[full description: stm_proxy_describe_tool(name=\"s__long\")]"), shown);
        assertTrue(shown.startsWith("word word"));
        assertEquals(full, e.find("s__long").orElseThrow().upstream().description(), "the full text stays for describe_tool");
    }

    @Test
    void namesAreAlwaysValidMcpToolNames() {
        assertEquals("fs__read_file", ToolNames.exposed("fs", "read_file"));
        assertEquals("fs__read_file_v2_", ToolNames.exposed("fs", "read/file v2!"));
        String longName = ToolNames.exposed("p", "x".repeat(300));
        assertEquals(128, longName.length());
        assertTrue(ToolNames.valid(longName));
        assertTrue(!longName.equals(ToolNames.exposed("p", "x".repeat(299))), "long names stay distinct");
    }

    @Test
    void excludeToolsHideByPatternAndDescriptionOverridesAreListedUnderTheCap() {
        UpstreamConfig config = new UpstreamConfig("fs", "fs", new UpstreamTransport.Stdio("x", List.of(), List.of()),
                null, 8000, 0, Map.of("read", new dev.engram.proxy.config.ToolOverride(null, null, null, false,
                "Reads a file. " + "More words about reading. ".repeat(20))), true, List.of("*delete*"));
        UpstreamConnection c = new UpstreamConnection(config, cfg -> new FakeSession(List.of(FakeSession.tool("read"),
                FakeSession.tool("bulk_delete")), r -> null), new MutableClock(Instant.EPOCH), Duration.ofSeconds(1));
        c.connect();
        Exposure e = new ExposureGate(McpJsonDefaults.getMapper(), 100).expose(List.of(c), Set.of());
        assertTrue(e.find("fs__bulk_delete").isEmpty());
        assertEquals("excluded by exclude_tools pattern '*delete*'", e.servers().get("fs").hidden().get("bulk_delete"));
        ExposedTool read = e.find("fs__read").orElseThrow();
        assertTrue(read.exposed().description().startsWith("Reads a file."), read.exposed().description());
        assertTrue(read.exposed().description().length() <= 100, "an override is cut like any description");
        assertEquals("does read", read.upstream().description(), "the upstream's own text stays known");
        assertTrue(e.find("fs__read").orElseThrow().exposed().inputSchema().get("properties") == null, "no _context_query unless enabled");
    }
}
