package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.LinkCommand;
import dev.engram.engine.LinkResult;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.memory.MemoryRules;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.memory.EdgeType;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** Adds or removes a typed edge between two memories. */
final class LinkTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("link", JsonSchema.input()
                    .string("from", Fields.KEY, "redis-timeout-fix")
                    .string("to", Fields.KEY, "redis-timeout")
                    .choice("type", "Edge type; default related", Fields.EDGE_TYPES)
                    .string("zone", Fields.ZONE, "my-project")
                    .choice("action", "link (default) or unlink", List.of("link", "unlink"))
                    .required("from", "to").build())
            .title("Link")
            .description("Connect two memories with a typed edge (e.g. resolved_by, caused_by, depends_on, "
                    + "supersedes, contradicts), or remove one with action unlink.")
            .outputSchema(JsonSchema.output().of("from", "object").of("to", "object").of("type", "string")
                    .of("changed", "boolean").required("from", "to", "type", "changed").build())
            .annotations(ToolHints.writes(true))
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    LinkTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var request = new LinkCommand(args.text("from"), args.text("to"),
                args.choice("type", EdgeType::parse), context.zone(args), unlink(args.textOr("action")));
        LinkResult result = context.engine().link(request);
        return new ToolReply(renderers.text().link(result), renderers.structured().link(result));
    }

    private static boolean unlink(String action) {
        if (action == null || action.isBlank() || action.equals("link")) return false;
        if (action.equals("unlink")) return true;
        throw new InvalidArgumentException("action", MemoryRules.shown(action) + " is not an action; send link or unlink");
    }
}
