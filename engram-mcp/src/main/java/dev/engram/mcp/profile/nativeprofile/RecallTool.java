package dev.engram.mcp.profile.nativeprofile;

import dev.engram.engine.Budget;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.memory.MemoryType;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Finds memories: ranked, as a cheap index, or by ids. */
final class RecallTool implements ToolHandler {
    static final Tool DEFINITION = Tool.builder("recall", JsonSchema.input()
                    .string("query", "What you need, in a few words", "request validation library")
                    .integer("limit", "Max results; default from budget", 1, RecallQuery.MAX_LIMIT, 5)
                    .choice("budget", "Result tier: tiny 3, normal 10, deep 20", List.of("normal", "tiny", "deep"))
                    .integer("budget_tokens", "Hard cap on tokens returned", 20, 100_000, 500)
                    .choice("mode", "ranked: cascade, full results; hybrid: every layer; index: one line each; ids: fetch by ids", List.of("ranked", "hybrid", "index", "ids"))
                    .strings("ids", "Ids or keys to fetch (at most 1000); given alone, recall fetches them (mode ids)", List.of("m_abcdefgh23"))
                    .bool("explain", "Add a one-line ranking reason per result")
                    .string("zone", Fields.ZONE, "my-project")
                    .strings("types", "Only these types", List.of("decision", "error"))
                    .strings("tags", "Only memories with all these tags", List.of("api"))
                    .string("from", "Created on/after: date or age like 7d", "2026-11-01")
                    .string("to", "Created on/before: date or age", "2026-11-29")
                    .string("path", "File path the memories must apply to", "src/api/server.ts")
                    .string("as_of", "Show memories as they were at this time (a date: during that day)", "2026-10-01")
                    .build())
            .title("Recall")
            .description("Search memories before you start work. Modes: ranked (default, full content), index "
                    + "(one cheap line per memory), ids (fetch chosen ids). Filter by type, tags, time, path; "
                    + "budget_tokens caps the answer.")
            .outputSchema(JsonSchema.output()
                    .of("mode", "string")
                    .arrayOf("results", JsonSchema.output().of("id", "string").of("key", "string")
                            .of("type", "string").of("zone", "string").of("score", "number")
                            .of("relevance", "number").of("content", "string").of("tags", "array")
                            .of("reason", "string").required("id", "key", "type", "score", "content").build())
                    .of("candidates", "integer").of("tokens", "integer").of("budget_limited", "boolean")
                    .of("notes", "array").of("layers", "array")
                    .required("mode", "results", "candidates", "tokens", "budget_limited", "notes").build())
            .annotations(ToolHints.readOnly())
            .build();

    private final ProfileContext context;
    private final NativeRenderers renderers;

    RecallTool(ProfileContext context, NativeRenderers renderers) {
        this.context = context;
        this.renderers = renderers;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        var request = new RecallQuery(
                args.textOr("query"), args.intOr("limit", 1, RecallQuery.MAX_LIMIT),
                args.choice("budget", Budget::parse), args.intOr("budget_tokens", 20, 100_000),
                args.choice("mode", RecallMode::parse), args.words("ids"), args.bool("explain"), context.zone(args),
                types(args.list("types")), args.list("tags"), args.textOr("from"), args.textOr("to"),
                args.textOr("path"), args.textOr("as_of"));
        // priced by the text form this reply prints, so budget_tokens bounds what the agent reads
        RecallResult result = context.engine().recall(request, renderers.text());
        Map<String, Object> structured = renderers.structured().recall(result);
        return new ToolReply(renderers.text().recall(result), structured);
    }

    static Set<MemoryType> types(List<String> names) {
        if (names == null) return null;
        Set<MemoryType> out = new LinkedHashSet<>();
        names.forEach(n -> out.add(TypeAliases.TOON_MEMORY.parse("types", n)));
        return out;
    }
}
