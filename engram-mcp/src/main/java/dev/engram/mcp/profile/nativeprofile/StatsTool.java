package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.StatsResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.MemoryRules;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** Store health in numbers. */
final class StatsTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("stats", JsonSchema.input()
                    .string("zone", "Zone to count; omit for the whole store", "my-project").build())
            .title("Stats")
            .description("Counts by type, zone, status and tier, quality, hit rate, duplicates, links and pins.")
            .outputSchema(JsonSchema.output().of("total", "integer").of("by_type", "object").of("by_zone", "object")
                    .of("by_status", "object").of("edges", "integer").of("pinned", "integer")
                    .required("total", "by_type", "by_status", "edges", "pinned").build())
            .annotations(ToolHints.readOnly())
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    StatsTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        // no zone means the whole store here, unlike the other tools: stats is the overview
        String zone = args.textOr("zone");
        // "all" is what the output calls the whole store, so it is read that way, and no zone may bear the name
        boolean whole = zone == null || zone.isBlank() || zone.strip().equals("all");
        StatsResult result = context.engine().stats(whole ? null : MemoryRules.zone("zone", zone.strip()));
        return new ToolReply(renderers.text().stats(result), renderers.structured().stats(result));
    }
}
