package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.Guarded;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import java.util.List;

/**
 * The face of {@code @modelcontextprotocol/server-memory}: its nine tools with the same names,
 * arguments and JSON text, and its {@code memory://knowledge-graph} resource, on Engram's entity graph
 * (docs/migrate-server-memory.md lists what differs and why).
 */
public final class ServerMemoryProfile {
    public static final String NAME = "server-memory";
    public static final String RESOURCE_URI = "memory://knowledge-graph";
    static final String INSTRUCTIONS = """
            A knowledge graph memory: entities (with a type and observations) and relations between them.
            search_nodes before you answer from memory; create_entities, add_observations and create_relations to remember.""";

    private ServerMemoryProfile() {
    }

    public static ToolProfile create(ProfileContext context, JsonText json) {
        SearchBound bound = SearchBound.parse(context.setting(SearchBound.SETTING));
        List<ToolHandler> tools = List.of(new CreateEntitiesTool(context), new CreateRelationsTool(context),
                new AddObservationsTool(context), new DeleteEntitiesTool(context), new DeleteObservationsTool(context),
                new DeleteRelationsTool(context), new ReadGraphTool(context), new SearchNodesTool(context, bound),
                new OpenNodesTool(context));
        var graph = Guarded.resource(Resource.builder(RESOURCE_URI, "knowledge-graph").title("Knowledge Graph")
                        .description("The whole knowledge graph, every entity and relation, as JSON")
                        .mimeType("application/json").build(),
                () -> GraphRenderer.graphText(GraphRenderer.graph(context.engine().entities().read(context.defaultZone()))));
        return new ToolProfile(NAME, INSTRUCTIONS, tools, List.of(graph), List.of());
    }
}
