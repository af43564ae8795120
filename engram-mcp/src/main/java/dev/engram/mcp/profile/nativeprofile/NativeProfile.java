package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.ContextQuery;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.Guarded;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import java.util.List;

/** Engram's own small profile: nine tools, a primer and a stats resource, and a briefing prompt. */
public final class NativeProfile {
    static final String INSTRUCTIONS = """
            Engram is your durable memory across sessions.
            At session start call `context` once; before a task call `recall` with a few words about it.
            After a decision, a fix or a discovery call `remember` with 1-3 self-contained sentences.""";

    private NativeProfile() {
    }

    /** Builds the nine tools over one {@link NativeRenderers}: the profile owns its presentation and its cost. */
    public static ToolProfile create(ProfileContext context, JsonText json) {
        NativeRenderers renderers = NativeRenderers.standard();
        List<ToolHandler> tools = List.of(new RememberTool(context, renderers), new RecallTool(context, renderers),
                new ForgetTool(context, renderers), new AmendTool(context, renderers), new LinkTool(context, renderers),
                new ExploreTool(context, renderers), new PinTool(context, renderers), new StatsTool(context, renderers),
                new ContextTool(context, renderers));
        SyncResourceSpecification primer = Guarded.resource(
                Resource.builder("engram://primer", "primer").title("Engram briefing")
                        .description("Session-start briefing for the default zone").mimeType("text/markdown").build(),
                () -> renderers.text().context(context.engine().context(
                        new ContextQuery(context.defaultZone(), ContextQuery.DEFAULT_BUDGET_TOKENS, null),
                        renderers.text())));
        SyncResourceSpecification stats = Guarded.resource(
                Resource.builder("engram://stats", "stats").title("Engram stats")
                        .description("Store statistics as JSON").mimeType("application/json").build(),
                () -> json.write(renderers.structured().stats(context.engine().stats(null))));
        return new ToolProfile("native", INSTRUCTIONS, tools, List.of(primer, stats),
                List.of(briefingPrompt(context, renderers)));
    }

    /** The primer as a prompt, for clients that offer prompts as slash commands; {@code task} focuses it. */
    private static SyncPromptSpecification briefingPrompt(ProfileContext context, NativeRenderers renderers) {
        Prompt prompt = Prompt.builder("briefing").title("Engram briefing")
                .description("What Engram remembers for this project: pinned, warnings, important, recent"
                        + " and, given a task, relevant memories")
                .arguments(List.of(PromptArgument.builder("task").description("What you are about to work on")
                        .required(false).build()))
                .build();
        return Guarded.prompt(prompt, arguments -> {
            Object task = arguments.get("task");
            return renderers.text().context(context.engine().context(new ContextQuery(
                    context.defaultZone(), ContextQuery.DEFAULT_BUDGET_TOKENS, task == null ? null : task.toString()),
                    renderers.text()));
        });
    }
}
