package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.LinkSpec;
import dev.engram.engine.RememberCommand;
import dev.engram.engine.RememberResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.memory.Importance;
import dev.engram.memory.Origin;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;

/** Stores one memory, or merges it into the one with the same key. */
final class RememberTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("remember", JsonSchema.input()
                    .string("content", "One self-contained fact, decision or fix, 1-3 sentences", "Use zod for request validation; joi was dropped")
                    .string("key", "Stable slug; derived from content when omitted", "use-zod")
                    .choice("type", "Kind of memory; default fact", Fields.TYPES)
                    .strings("tags", "Topic tags; more are inferred from the content", List.of("validation", "api"))
                    .string("zone", Fields.ZONE, "my-project")
                    .choice("importance", "Default: automatic", Fields.IMPORTANCE)
                    .string("ttl", "Expiry: 90m, 24h, 7d, 2w or a date", "7d")
                    .string("occurred_at", "When it happened, if not now: a date, an instant or an age such as 3d", "2026-11-28")
                    .strings("links", "Links to other memories, \"type:key\" or \"key\"", List.of("caused_by:redis-timeout"))
                    .string("file", "File the memory is about", "src/api/server.ts")
                    .string("path_scope", "Glob where it applies", "src/api/**")
                    .choice("origin", "Who asserted it; default agent", List.of("agent", "human", "inferred"))
                    .bool("replace", "Overwrite the content stored under an existing key")
                    .bool("merge_duplicate", "Merge into a near-duplicate instead of adding a new memory")
                    .required("content").build())
            .title("Remember")
            .description("Store a durable memory: a decision, fix, error pattern, preference, warning or procedure, "
                    + "1-3 self-contained sentences. Same key merges; call after decisions and fixes.")
            .outputSchema(JsonSchema.output()
                    .of("id", "string").of("key", "string").of("zone", "string").of("type", "string")
                    .of("outcome", "string").of("inferred_tags", "array").of("near_duplicate", "object")
                    .of("quality", "number").of("quality_parts", "object").of("expires_at", "string").of("occurred_at", "string")
                    .of("linked", "array")
                    .required("id", "key", "zone", "type", "outcome", "quality").build())
            .annotations(ToolHints.writes(false))
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    RememberTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        List<String> links = args.list("links");
        var request = new RememberCommand(
                args.text("content"), args.textOr("key"), args.choice("type", TypeAliases.TOON_MEMORY::parse), args.list("tags"),
                context.zone(args), args.choice("importance", Importance::parse), args.textOr("ttl"),
                links == null ? null : links.stream().map(LinkSpec::parse).toList(),
                args.textOr("file"), args.textOr("path_scope"), args.choice("origin", Origin::parse),
                args.bool("replace"), args.caller().session(), args.caller().branch(), args.bool("merge_duplicate"),
                args.textOr("occurred_at"));
        RememberResult result = context.engine().remember(request);
        return new ToolReply(renderers.text().remember(result),
                renderers.structured().remember(result));
    }
}
