package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.LinkCommand;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.viewer.ViewerPage;
import dev.engram.memory.EdgeType;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** memory_visualize and ui://viewer: toon's MCP Apps pair, linked through _meta.ui.resourceUri. */
class ToonViewerTest {
    @TempDir
    Path project;
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());

    private ToolProfile profile() {
        return ToonProfile.create(ProfileContext.of(engine, "default"), project, Clock.systemUTC());
    }

    @Test
    void visualizePointsAtTheViewerResourceAndSummarizesTheGraph() {
        engine.remember(RememberCommand.builder("JWT tokens expire after 15 minutes").key("jwt-expiry").build());
        engine.remember(RememberCommand.builder("Refresh tokens live in an httpOnly cookie").key("refresh-cookie").build());
        engine.link(new LinkCommand("jwt-expiry", "refresh-cookie", EdgeType.RELATED, null, false));
        ToolHandler tool = profile().tools().stream().filter(t -> t.definition().name().equals("memory_visualize")).findFirst().orElseThrow();
        assertEquals(Map.of("resourceUri", "ui://viewer"), tool.definition().meta().get("ui"));
        assertTrue(tool.definition().annotations().readOnlyHint());
        CallToolResult r = ToolAdapter.call(tool, Map.of("query", "auth"));
        assertFalse(r.isError());
        assertEquals(Map.of("resourceUri", "ui://viewer"), r.meta().get("ui"));
        String text = ((TextContent) r.content().get(0)).text();
        assertEquals("🧠 Memory Graph Viewer — 2 entries, 1 edges\n🔍 Focus: \"auth\"", text);
        assertEquals("auth", ((Map<?, ?>) r.structuredContent()).get("query"));
        assertEquals("🧠 Memory Graph Viewer — 2 entries, 1 edges",
                ((TextContent) ToolAdapter.call(tool, Map.of()).content().get(0)).text());
    }

    @Test
    void viewerResourceIsASelfContainedMcpAppPage() {
        engine.remember(RememberCommand.builder("Feature flags live in LaunchDarkly").key("flags").build());
        SyncResourceSpecification spec = profile().resources().stream()
                .filter(s -> s.resource().uri().equals("ui://viewer")).findFirst().orElseThrow();
        assertEquals(ViewerPage.MCP_APP_MIME, spec.resource().mimeType());
        var read = spec.readHandler().apply(null, new ReadResourceRequest("ui://viewer"));
        TextResourceContents c = (TextResourceContents) read.contents().get(0);
        assertEquals("text/html;profile=mcp-app", c.mimeType());
        assertTrue(c.text().startsWith("<!doctype html>"));
        assertTrue(c.text().contains("\"key\":\"flags\""), "the snapshot is inside the page");
        assertFalse(c.text().contains("assets/d3.min.js"), "d3 is inlined: a host's sandbox reaches no server");
    }
}
