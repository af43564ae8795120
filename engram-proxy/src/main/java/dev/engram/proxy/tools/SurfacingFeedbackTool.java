package dev.engram.proxy.tools;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.surfacing.Surfacer;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;

/**
 * Rates surfaced memories; the ratings tune the surfacing threshold. A memory id must belong to
 * the event it is rated under, so a stray rating cannot skew another event's numbers.
 */
public final class SurfacingFeedbackTool implements ToolHandler {
    static final List<String> RATINGS = List.of("helpful", "partially_helpful", "not_relevant", "already_known");
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.SURFACING_FEEDBACK, JsonSchema.input()
                    .string("surfacing_id", "The _surfacing_id_ shown under the memories", "3f9a1c2b7d10")
                    .choice("rating", "How useful the memories were", RATINGS)
                    .string("memory_id", "Optional: rate one memory of that event instead of all", "m_8f3k")
                    .required("surfacing_id", "rating").build())
            .description("Rate memories the proxy surfaced under a tool result; the proxy tunes what it surfaces.")
            .annotations(ToolHints.writes(false)).build();

    private final ProxyStats stats;
    private final Surfacer surfacer;

    public SurfacingFeedbackTool(ProxyStats stats, Surfacer surfacer) {
        this.stats = stats;
        this.surfacer = surfacer;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        String id = args.text("surfacing_id");
        String rating = args.text("rating");
        if (!RATINGS.contains(rating)) throw new InvalidArgumentException("rating", "must be one of " + RATINGS + ", got '" + rating + "'");
        List<String> memories = stats.surfacedMemories(id).orElseThrow(() -> new NotFoundException(
                "no surfacing event '" + id + "'; copy the id from the _surfacing_id: line"));
        String memoryId = args.textOr("memory_id");
        if (memoryId != null && !memories.contains(memoryId)) {
            throw new InvalidArgumentException("memory_id", "'" + memoryId + "' was not surfaced in " + id + "; it had " + memories);
        }
        List<String> rated = memoryId == null ? memories : List.of(memoryId);
        for (String m : rated) {
            stats.recordSurfacingFeedback(id, m, rating);
        }
        double threshold = surfacer.tuner().record(rating);
        return new ToolReply("Recorded " + rating + " for " + rated.size() + " memor" + (rated.size() == 1 ? "y" : "ies") + ".",
                Map.of("recorded", rated.size(), "min_score", threshold));
    }
}
