package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.PinCommand;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.memory.MemoryRules;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.memory.Memory;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** Pins a memory so it leads every recall and briefing, or unpins it. */
final class PinTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("pin", JsonSchema.input()
                    .string("key", Fields.KEY, "use-zod")
                    .string("zone", Fields.ZONE, "my-project")
                    .integer("priority", "1 to 5, 5 leads; default 1", 1, 5, 1)
                    .choice("action", "pin (default) or unpin", List.of("pin", "unpin"))
                    .required("key").build())
            .title("Pin")
            .description("Pin a memory so it leads every recall and the session briefing (priority 1-5), "
                    + "or unpin it.")
            .outputSchema(JsonSchema.output().of("id", "string").of("key", "string").of("zone", "string")
                    .of("pinned", "boolean").of("priority", "integer")
                    .required("id", "key", "zone", "pinned", "priority").build())
            .annotations(ToolHints.writes(true))
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    PinTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        int priority = args.intOr("priority", 1, 1, 5);
        var request = new PinCommand(args.text("key"), context.zone(args),
                unpin(args.textOr("action")) ? 0 : priority);
        Memory pinned = context.engine().pin(request);
        return new ToolReply(renderers.text().pin(pinned), renderers.structured().pin(pinned));
    }

    private static boolean unpin(String action) {
        if (action == null || action.isBlank() || action.equals("pin")) return false;
        if (action.equals("unpin")) return true;
        throw new InvalidArgumentException("action", MemoryRules.shown(action) + " is not an action; send pin or unpin");
    }
}
