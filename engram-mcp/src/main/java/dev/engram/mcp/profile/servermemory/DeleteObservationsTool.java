package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.ObservationDraft;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Deletes observations; entities and texts that do not exist are ignored, as server-memory does. */
final class DeleteObservationsTool extends GraphTool {
    static final String MESSAGE = "Observations deleted successfully";
    static final String EXAMPLE = "{\"deletions\": [{\"entityName\": \"John Smith\", \"observations\": [\"Likes tea\"]}]}";
    static final Tool DEFINITION = Tool.builder("delete_observations", JsonSchema.input()
                    .property("deletions", Schemas.arrayOf(Schemas.object(Schemas.props(
                            "entityName", Schemas.string("Name of the entity holding the observations"),
                            "observations", Schemas.strings("Observation texts to delete, exactly as stored")),
                            "entityName", "observations"), "Per entity, the observations to delete"))
                    .required("deletions").build())
            .title("Delete Observations")
            .description("Delete observations from entities of the knowledge graph; give each text exactly as"
                    + " stored. Texts and entities not in the graph are ignored.")
            .outputSchema(Schemas.doneOutput())
            .annotations(ToolHints.destructive(true))
            .build();

    DeleteObservationsTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<Map<String, Object>> items = Items.objects(args, "deletions", "{entityName, observations} objects", EXAMPLE);
        List<ObservationDraft> drafts = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = items.get(i);
            String at = "deletions[" + i + "].";
            drafts.add(new ObservationDraft(
                    Items.string(item, at + "entityName", "the name of the entity", "\"John Smith\""),
                    Items.strings(args, item, at + "observations", "observation texts", "[\"Likes tea\"]")));
        }
        graph().deleteObservations(zone(), drafts);
        return GraphRenderer.done(MESSAGE);
    }
}
