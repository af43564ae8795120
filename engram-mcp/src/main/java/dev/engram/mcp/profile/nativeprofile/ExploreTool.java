package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.ExploreQuery;
import dev.engram.engine.ExploreResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;

/** Shows a memory's graph neighbourhood and its earlier versions. */
final class ExploreTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("explore", JsonSchema.input()
                    .string("key", Fields.KEY, "redis-timeout")
                    .string("zone", Fields.ZONE, "my-project")
                    .integer("hops", "Graph depth; default 1", 1, 2, 1)
                    .required("key").build())
            .title("Explore")
            .description("Show a memory with its linked memories (1 or 2 hops: causes, fixes, dependencies, "
                    + "contradictions) and its earlier versions.")
            .outputSchema(JsonSchema.output().of("center", "object")
                    .arrayOf("neighbours", JsonSchema.output().of("key", "string").of("id", "string")
                            .of("type", "string").of("hops", "integer").of("via", "string").of("weight", "number")
                            .required("key", "id", "type", "hops", "via", "weight").build())
                    .of("versions", "array").required("center", "neighbours", "versions").build())
            .annotations(ToolHints.readOnly())
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    ExploreTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var request = new ExploreQuery(args.text("key"), context.zone(args), args.intOr("hops", 1, 1, 2));
        ExploreResult result = context.engine().explore(request);
        Map<String, Object> structured = renderers.structured().explore(result);
        return new ToolReply(renderers.text().explore(result), structured);
    }
}
