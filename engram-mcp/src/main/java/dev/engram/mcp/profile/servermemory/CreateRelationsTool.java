package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.MissingEndpoint;
import dev.engram.engine.graph.RelationDraft;
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

/**
 * Relates entities; an existing relation is skipped. Unlike server-memory 2026.8.31, which stores a
 * relation to a name nobody created, a missing end refuses the call (its main branch does the same).
 */
final class CreateRelationsTool extends GraphTool {
    static final String EXAMPLE = "{\"relations\": [" + Schemas.RELATION_EXAMPLE + "]}";
    static final Tool DEFINITION = Tool.builder("create_relations", JsonSchema.input()
                    .property("relations", Schemas.arrayOf(Schemas.relation(), "The relations to create"))
                    .required("relations").build())
            .title("Create Relations")
            .description("Connect entities of the knowledge graph with typed relations in active voice"
                    + " (\"works_at\", \"uses\"); both entities must exist. Returns the relations created.")
            .outputSchema(JsonSchema.closedOutput().arrayOf("relations", Schemas.closed(Schemas.relation())).required("relations").build())
            .annotations(ToolHints.writes(false))
            .build();

    CreateRelationsTool(ProfileContext context) {
        super(context);
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<RelationDraft> drafts = relations(args);
        try {
            return GraphRenderer.relations(writer(args).relate(zone(), drafts, MissingEndpoint.FAIL));
        } catch (NotFoundException e) {
            throw new NotFoundException(e.getMessage() + "; create it first with create_entities, then relate it");
        }
    }

    /** The relations argument, shared with delete_relations. */
    static List<RelationDraft> relations(ToolArgs args) {
        List<Map<String, Object>> items = Items.objects(args, "relations", "relations", EXAMPLE);
        List<RelationDraft> drafts = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = items.get(i);
            String at = "relations[" + i + "].";
            drafts.add(RelationDraft.of(
                    Items.string(item, at + "from", "the name of the entity the relation starts at", "\"John Smith\""),
                    Items.string(item, at + "to", "the name of the entity it points to", "\"Anthropic\""),
                    Items.string(item, at + "relationType", "the relation in active voice", "\"works_at\"")));
        }
        return drafts;
    }
}
