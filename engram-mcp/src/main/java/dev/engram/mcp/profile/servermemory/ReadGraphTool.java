package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** The whole graph: every entity, oldest first, and every relation. */
final class ReadGraphTool extends GraphTool {
    static final Tool DEFINITION = Tool.builder("read_graph", JsonSchema.input().build())
            .title("Read Graph")
            .description("Read the whole knowledge graph: every entity with its observations, and every relation."
                    + " On a large graph prefer search_nodes or open_nodes.")
            .outputSchema(Schemas.graphOutput())
            .annotations(ToolHints.readOnly())
            .build();

    ReadGraphTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        return GraphRenderer.graphReply(GraphRenderer.graph(graph().read(zone())));
    }
}
