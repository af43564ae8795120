package dev.engram.mcp.profile;

import dev.engram.engine.ContextQuery;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Engram's own small profile: nine tools, a primer and a stats resource, and a briefing prompt. */
public final class NativeProfile {
    private static final Logger log = LoggerFactory.getLogger(NativeProfile.class);

    static final String INSTRUCTIONS = """
            Engram is your durable memory across sessions.
            At session start call `context` once; before a task call `recall` with a few words about it.
            After a decision, a fix or a discovery call `remember` with 1-3 self-contained sentences.""";

    private NativeProfile() {
    }

    public static ToolProfile create(ProfileContext context, JsonText json) {
        List<ToolHandler> tools = List.of(new RememberTool(context), new RecallTool(context),
                new ForgetTool(context), new AmendTool(context), new LinkTool(context), new ExploreTool(context),
                new PinTool(context), new StatsTool(context), new ContextTool(context));
        SyncResourceSpecification primer = resource(
                Resource.builder("engram://primer", "primer").title("Engram briefing")
                        .description("Session-start briefing for the default zone").mimeType("text/markdown").build(),
                () -> context.renderers().text().context(context.engine().context(
                        new ContextQuery(context.defaultZone(), ContextQuery.DEFAULT_BUDGET_TOKENS, null))));
        SyncResourceSpecification stats = resource(
                Resource.builder("engram://stats", "stats").title("Engram stats")
                        .description("Store statistics as JSON").mimeType("application/json").build(),
                () -> json.write(context.renderers().structured().stats(context.engine().stats(null))));
        return new ToolProfile("native", INSTRUCTIONS, tools, List.of(primer, stats), List.of(briefingPrompt(context)));
    }

    /** The primer as a prompt, for clients that offer prompts as slash commands; {@code task} focuses it. */
    private static SyncPromptSpecification briefingPrompt(ProfileContext context) {
        Prompt prompt = Prompt.builder("briefing").title("Engram briefing")
                .description("What Engram remembers for this project: pinned, warnings, important, recent"
                        + " and, given a task, relevant memories")
                .arguments(List.of(PromptArgument.builder("task").description("What you are about to work on")
                        .required(false).build()))
                .build();
        return new SyncPromptSpecification(prompt, (exchange, request) -> {
            Object task = request.arguments() == null ? null : request.arguments().get("task");
            String text;
            try {
                text = context.renderers().text().context(context.engine().context(new ContextQuery(
                        context.defaultZone(), ContextQuery.DEFAULT_BUDGET_TOKENS, task == null ? null : task.toString())));
            } catch (RuntimeException e) {
                String ref = ToolAdapter.newRef();
                log.error("prompt briefing failed, ref={}", ref, e);
                text = "The Engram briefing is unavailable right now (ref " + ref + ")";
            }
            return GetPromptResult.builder(List.of(PromptMessage.builder(Role.USER,
                    TextContent.builder(text).build()).build())).description("Engram briefing").build();
        });
    }

    /** Like {@link ToolAdapter}, no exception crosses into the SDK: a failed read returns a short note. */
    private static SyncResourceSpecification resource(Resource resource, Supplier<String> body) {
        return new SyncResourceSpecification(resource, (exchange, request) -> {
            String text;
            try {
                text = body.get();
            } catch (RuntimeException e) {
                String ref = ToolAdapter.newRef();
                log.error("resource {} failed, ref={}", resource.uri(), ref, e);
                text = resource.uri() + " is unavailable right now (ref " + ref + ")";
            }
            return ReadResourceResult.builder(List.of(TextResourceContents.builder(request.uri(), text)
                    .mimeType(resource.mimeType()).build())).build();
        });
    }
}
