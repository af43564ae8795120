package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** Deletes relations; ones that do not exist are ignored. */
final class DeleteRelationsTool extends GraphTool {
    static final String MESSAGE = "Relations deleted successfully";
    static final Tool DEFINITION = Tool.builder("delete_relations", JsonSchema.input()
                    .property("relations", Schemas.arrayOf(Schemas.relation(), "The relations to delete"))
                    .required("relations").build())
            .title("Delete Relations")
            .description("Delete relations from the knowledge graph, each given by from, to and relationType."
                    + " Relations not in the graph are ignored.")
            .outputSchema(Schemas.doneOutput())
            .annotations(ToolHints.destructive(true))
            .build();

    DeleteRelationsTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        graph().unrelate(zone(), CreateRelationsTool.relations(args));
        return GraphRenderer.done(MESSAGE);
    }
}
