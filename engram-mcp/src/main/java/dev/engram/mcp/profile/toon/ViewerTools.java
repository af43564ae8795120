package dev.engram.mcp.profile.toon;

import dev.engram.engine.view.GraphQuery;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.Guarded;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.mcp.viewer.ViewerApi;
import dev.engram.mcp.viewer.ViewerPage;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * toon's MCP Apps pair: {@code memory_visualize}, whose definition and result point at {@code ui://viewer}
 * through {@code _meta.ui.resourceUri}, and that resource, the viewer page made self-contained (d3 and a
 * snapshot of the zone's top {@link GraphQuery#DEFAULT_LIMIT} memories inlined) for a host's sandbox.
 */
final class ViewerTools {
    static final String RESOURCE_URI = "ui://viewer";

    private final ToonContext c;
    private final JsonText json = JsonText.standard();
    private ViewerPage page; // read from the classpath on first use: most sessions never open the viewer

    ViewerTools(ToonContext c) {
        this.c = c;
    }

    ToolHandler visualize() {
        var schema = JsonSchema.input().string("query", "Optional search query to highlight entries in the viewer", "auth");
        Map<String, Object> ui = Map.of("resourceUri", RESOURCE_URI);
        Tool definition = Tool.builder("memory_visualize", schema.build()).title("Open Memory Graph Viewer")
                .description("Open the interactive memory graph viewer (force-directed graph, search, detail panel, "
                        + "shortest path, PNG/SVG export). Renders inline in MCP Apps-compatible hosts.")
                .annotations(ToonTool.hints(true, false, true))
                .meta(Map.of("ui", ui, "ui/resourceUri", RESOURCE_URI)).build();
        return new ToolHandler() {
            @Override
            public Tool definition() {
                return definition;
            }

            @Override
            public ToolReply call(dev.engram.mcp.tool.ToolArgs args) {
                String query = args.textOr("query") == null ? "" : args.textOr("query").strip();
                var stats = c.engine().stats(c.zone());
                String text = "🧠 Memory Graph Viewer — " + stats.total() + " entries, " + stats.edges() + " edges"
                        + (query.isEmpty() ? "" : "\n🔍 Focus: \"" + query + "\"");
                Map<String, Object> structured = new LinkedHashMap<>();
                structured.put("text", text);
                structured.put("query", query);
                structured.put("resourceUri", RESOURCE_URI);
                return new ToolReply(text, structured, Map.of("ui", ui));
            }
        };
    }

    SyncResourceSpecification resource() {
        Resource r = Resource.builder(RESOURCE_URI, "Memory Graph Viewer")
                .description("Interactive memory graph viewer (d3 force-directed graph, search, detail panel, shortest path, "
                        + "PNG/SVG export); the zone's top " + GraphQuery.DEFAULT_LIMIT + " memories by links")
                .mimeType(ViewerPage.MCP_APP_MIME).build();
        return Guarded.resource(r, this::html);
    }

    synchronized String html() {
        if (page == null) page = new ViewerPage(json);
        return page.inlined(new ViewerApi(c.engine(), c.zone()).snapshot(null));
    }
}
