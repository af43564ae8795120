package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.ContextQuery;
import dev.engram.engine.ContextResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;

/** The one-call session-start briefing. */
final class ContextTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("context", JsonSchema.input()
                    .string("zone", Fields.ZONE, "my-project")
                    .integer("budget_tokens", "Size of the briefing; default " + ContextQuery.DEFAULT_BUDGET_TOKENS,
                            50, 20_000, ContextQuery.DEFAULT_BUDGET_TOKENS)
                    .string("task", "What you are about to do, to focus the briefing", "add rate limiting to the API")
                    .build())
            .title("Context")
            .description("Call once at session start: pinned memories, warnings, important decisions, recent "
                    + "changes and memories relevant to your task, within a token budget.")
            .outputSchema(JsonSchema.output().of("zone", "string").of("total_active", "integer")
                    .of("tokens", "integer").of("sections", "object")
                    .required("zone", "total_active", "tokens", "sections").build())
            .annotations(ToolHints.readOnly())
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    ContextTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var request = new ContextQuery(context.zone(args),
                args.intOr("budget_tokens", ContextQuery.DEFAULT_BUDGET_TOKENS, 50, 20_000), args.textOr("task"));
        // priced by the text form this reply prints, so budget_tokens bounds what the agent reads
        ContextResult result = context.engine().context(request, renderers.text());
        return new ToolReply(renderers.text().context(result),
                renderers.structured().context(result));
    }
}
