package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** Deletes entities with their observations and relations; names that do not exist are ignored. */
final class DeleteEntitiesTool extends GraphTool {
    static final String MESSAGE = "Entities deleted successfully";
    static final Tool DEFINITION = Tool.builder("delete_entities", JsonSchema.input()
                    .property("entityNames", Schemas.strings("Names of the entities to delete"))
                    .required("entityNames").build())
            .title("Delete Entities")
            .description("Delete entities from the knowledge graph, with their observations and every relation"
                    + " to or from them. Names not in the graph are ignored.")
            .outputSchema(Schemas.doneOutput())
            .annotations(ToolHints.destructive(true))
            .build();

    DeleteEntitiesTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var names = Items.strings(args, "entityNames", "entity names", "{\"entityNames\": [\"John Smith\"]}");
        graph().delete(zone(), names, true);
        return GraphRenderer.done(MESSAGE);
    }
}
