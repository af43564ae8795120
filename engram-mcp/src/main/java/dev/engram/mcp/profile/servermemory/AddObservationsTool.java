package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.ObservationDraft;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Adds observations to existing entities; texts an entity holds already are skipped. All or nothing. */
final class AddObservationsTool extends GraphTool {
    static final String EXAMPLE = "{\"observations\": [{\"entityName\": \"John Smith\", \"contents\": [\"Likes tea\"]}]}";
    static final Tool DEFINITION = Tool.builder("add_observations", JsonSchema.input()
                    .property("observations", Schemas.arrayOf(Schemas.object(Schemas.props(
                            "entityName", Schemas.string("Name of the entity to add to"),
                            "contents", Schemas.strings("Observation texts to add")), "entityName", "contents"),
                            "Per entity, the observations to add"))
                    .required("observations").build())
            .title("Add Observations")
            .description("Add observations to entities that exist in the knowledge graph. Returns, per entity,"
                    + " the observations that were new.")
            .outputSchema(JsonSchema.closedOutput().arrayOf("results", Schemas.closed(Schemas.object(Schemas.props(
                    "entityName", Map.of("type", "string"), "addedObservations", Schemas.strings(null)),
                    "entityName", "addedObservations"))).required("results").build())
            .annotations(ToolHints.writes(false))
            .build();

    AddObservationsTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<Map<String, Object>> items = Items.objects(args, "observations", "{entityName, contents} objects", EXAMPLE);
        List<ObservationDraft> drafts = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = items.get(i);
            String at = "observations[" + i + "].";
            drafts.add(new ObservationDraft(
                    Items.string(item, at + "entityName", "the name of an existing entity", "\"John Smith\""),
                    Items.strings(args, item, at + "contents", "observation texts", "[\"Likes tea\"]")));
        }
        try {
            return GraphRenderer.added(writer(args).addObservations(zone(), drafts));
        } catch (NotFoundException e) {
            throw new NotFoundException(e.getMessage() + "; nothing was added. Create it with create_entities,"
                    + " or check the name with search_nodes");
        }
    }
}
