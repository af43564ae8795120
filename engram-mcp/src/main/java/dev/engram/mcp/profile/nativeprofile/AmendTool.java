package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.AmendResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.memory.Importance;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** Corrects a memory in place; id and links stay, the old text becomes a version. */
final class AmendTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("amend", JsonSchema.input()
                    .string("key", Fields.KEY, "use-zod")
                    .string("zone", Fields.ZONE, "my-project")
                    .string("content", "New content", "Use zod v4 for request validation")
                    .strings("tags", "New tags (replace the old ones)", List.of("validation"))
                    .choice("importance", "New importance", Fields.IMPORTANCE)
                    .required("key").build())
            .title("Amend")
            .description("Correct or refine a memory in place: id and links stay, the previous text is kept as "
                    + "a version. Send content, tags and/or importance.")
            .outputSchema(JsonSchema.output().of("memory", "object").of("history", "array")
                    .required("memory", "history").build())
            .annotations(ToolHints.writes(false))
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    AmendTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var request = new AmendCommand(args.text("key"), context.zone(args),
                args.textOr("content"), args.list("tags"), args.choice("importance", Importance::parse));
        AmendResult result = context.engine().amend(request);
        return new ToolReply(renderers.text().amend(result), renderers.structured().amend(result));
    }
}
