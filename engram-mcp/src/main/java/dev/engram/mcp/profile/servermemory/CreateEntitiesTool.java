package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Creates entities; a name the graph holds already is left as it is and not returned. */
final class CreateEntitiesTool extends GraphTool {
    static final String EXAMPLE = "{\"entities\": [" + Schemas.ENTITY_EXAMPLE + "]}";
    static final Tool DEFINITION = Tool.builder("create_entities", JsonSchema.input()
                    .property("entities", Schemas.arrayOf(Schemas.entity(), "The entities to create"))
                    .required("entities").build())
            .title("Create Entities")
            .description("Add entities (people, projects, things) to the knowledge graph, each with a type and its"
                    + " observations. Names already in the graph are skipped; returns the entities created.")
            .outputSchema(JsonSchema.closedOutput().arrayOf("entities", Schemas.closed(Schemas.entity())).required("entities").build())
            .annotations(ToolHints.writes(false))
            .build();

    CreateEntitiesTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<Map<String, Object>> items = Items.objects(args, "entities", "entities", EXAMPLE);
        List<EntityDraft> drafts = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = items.get(i);
            String at = "entities[" + i + "].";
            drafts.add(new EntityDraft(
                    Items.string(item, at + "name", "the entity's name", "\"John Smith\""),
                    Items.string(item, at + "entityType", "the entity's type", "\"person\""),
                    Items.strings(args, item, at + "observations", "observation texts (send [] for none)",
                            "[\"Speaks fluent Spanish\"]")));
        }
        return GraphRenderer.entities(writer(args).create(zone(), drafts, ExistingEntity.SKIP));
    }
}
