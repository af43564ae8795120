package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.Entity;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** The named entities (in the order asked; unknown names skipped) and the relations touching them. */
final class OpenNodesTool extends GraphTool {
    static final Tool DEFINITION = Tool.builder("open_nodes", JsonSchema.input()
                    .property("names", Schemas.strings("Exact names of the entities to open"))
                    .required("names").build())
            .title("Open Nodes")
            .description("Open entities of the knowledge graph by exact name: each with its observations, and"
                    + " every relation to or from them. Names not in the graph are skipped.")
            .outputSchema(Schemas.graphOutput())
            .annotations(ToolHints.readOnly())
            .build();

    OpenNodesTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<String> names = Items.strings(args, "names", "entity names", "{\"names\": [\"John Smith\"]}");
        List<Entity> opened = graph().open(zone(), names);
        return GraphRenderer.graphReply(GraphRenderer.graph(opened, graph().relationsTouching(opened)));
    }
}
