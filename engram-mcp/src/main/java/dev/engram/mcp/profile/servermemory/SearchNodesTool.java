package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.Entity;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/**
 * Finds entities by name, type or observation, in server-memory's output shape. Ranked by Engram's
 * recall and bounded ({@link SearchBound}), best first; the relations are those touching an entity
 * found. With the unbounded setting it is server-memory's own substring match.
 */
final class SearchNodesTool extends GraphTool {
    private final SearchBound bound;

    SearchNodesTool(ProfileContext context, SearchBound bound) {
        super(context);
        this.bound = bound;
    }

    static Tool definition(SearchBound bound) {
        String how = bound.unbounded()
                ? "Returns every entity whose name, type or an observation contains the query (ignoring case; an empty"
                        + " query matches all)."
                : "Returns the " + bound.limit() + " best-matching entities, best first, by Engram's ranked search.";
        return Tool.builder("search_nodes", JsonSchema.input()
                        .string("query", "Words to match against entity names, types and observations", "Acme Corp")
                        .required("query").build())
                .title("Search Nodes")
                .description("Search the knowledge graph for entities by name, type or observation text. " + how
                        + " Relations touching them come along.")
                .outputSchema(Schemas.graphOutput())
                .annotations(ToolHints.readOnly())
                .build();
    }

    @Override
    public Tool definition() {
        return definition(bound);
    }

    private static String query(ToolArgs args) {
        return Items.text(args, "query", "\"Acme Corp\"");
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<Entity> found;
        if (bound.unbounded()) {
            // server-memory's own search, all of it: an empty query matches every entity there
            String query = args.textOr("query");
            if (query == null) query(args); // says what to send
            found = graph().matchAll(zone(), query);
        } else {
            found = graph().search(zone(), query(args), bound.limit());
        }
        return GraphRenderer.graphReply(GraphRenderer.graph(found, graph().relationsTouching(found)));
    }
}
