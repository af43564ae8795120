package dev.engram.proxy.tools;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.stats.ProxyStats;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;

/** Reports what compression left out; a learning signal for {@code tuning_recommendations}. */
public final class CompressionFeedbackTool implements ToolHandler {
    static final List<String> KINDS = List.of("truncated", "missing_example", "missing_metadata", "wrong_topic", "other");
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.COMPRESSION_FEEDBACK, JsonSchema.input()
                    .string("server", "Upstream server name", "filesystem")
                    .string("tool", "Upstream tool name (without the prefix)", "read_text_file")
                    .string("missing", "What you needed and did not get", "the example at the end of the README")
                    .choice("kind", "What kind of loss; default other", KINDS)
                    .string("trace_id", "Optional id of the call, if you have one", "t-1")
                    .required("server", "tool", "missing").build())
            .description("Tell the proxy that a compressed result left out something you needed. Does not fetch it"
                    + " (use stm_proxy_read_more for that); it tunes future compression.")
            .annotations(ToolHints.writes(false)).build();

    private final ProxyStats stats;

    public CompressionFeedbackTool(ProxyStats stats) {
        this.stats = stats;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        String kind = args.textOr("kind") == null ? "other" : args.textOr("kind");
        if (!KINDS.contains(kind)) throw new InvalidArgumentException("kind", "must be one of " + KINDS + ", got '" + kind + "'");
        args.textOr("trace_id");
        stats.recordCompressionFeedback(args.text("server"), args.text("tool"), kind, args.text("missing"));
        return new ToolReply("Recorded: " + kind + " for " + args.text("server") + "/" + args.text("tool") + ".",
                Map.of("recorded", true, "kind", kind));
    }
}
