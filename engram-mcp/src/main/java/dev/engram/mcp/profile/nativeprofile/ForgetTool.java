package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.Engine;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.ForgetResult;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** Archives, deletes or restores one memory. */
final class ForgetTool implements ToolHandler {
    private static final long WINDOW_DAYS = Engine.RESTORE_WINDOW.toDays();
    static final Tool DEFINITION = Tool.builder("forget", JsonSchema.input()
                    .string("key", Fields.KEY, "use-zod")
                    .string("zone", Fields.ZONE, "my-project")
                    .choice("action", "soft archives (default, reversible), hard deletes (restorable for " + WINDOW_DAYS
                                    + " days), restore un-archives or brings back a hard-deleted memory",
                            List.of("soft", "hard", "restore"))
                    .required("key").build())
            .title("Forget")
            .description("Archive a memory that is wrong or obsolete (soft; action restore undoes it), or delete it "
                    + "(hard): its key is free at once, and action restore brings it back with its links for "
                    + WINDOW_DAYS + " days; after that a hard delete cannot be undone.")
            .outputSchema(JsonSchema.output().of("id", "string").of("key", "string").of("zone", "string")
                    .of("action", "string").of("previous_status", "string").of("status", "string")
                    .of("restorable_until", "string").of("note", "string")
                    .required("id", "key", "zone", "action", "status").build())
            .annotations(ToolHints.destructive(true))
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    ForgetTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        ForgetAction action = args.choice("action", ForgetAction::parse);
        if (action == ForgetAction.PURGE) {
            // an erase with no undo stays with people: the window of hard forget protects against an agent's mistake
            throw new InvalidArgumentException("action", "'purge' is not an action of this tool; send soft, hard or restore"
                    + " (a person can erase a memory at once with: engram forget KEY --purge)");
        }
        var request = new ForgetCommand(args.text("key"), context.zone(args), action);
        ForgetResult result = context.engine().forget(request);
        return new ToolReply(renderers.text().forget(result), renderers.structured().forget(result));
    }
}
