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
                    .property("ratings", new java.util.LinkedHashMap<>(Map.of("type", "array",
                            "description", "Instead of rating/memory_id: one rating per memory",
                            "items", Map.of("type", "object", "properties", Map.of(
                                    "memory_id", Map.of("type", "string"),
                                    "rating", Map.of("type", "string", "enum", RATINGS)),
                                    "required", List.of("memory_id", "rating")),
                            "examples", List.of(List.of(Map.of("memory_id", "m_8f3k", "rating", "helpful"))))))
                    .required("surfacing_id").build())
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
        // the block prints the id in markdown italics (_surfacing_id: 3f9a1c2b7d10_): an id copied with the
        // closing underscore (or quotes, backticks) is the same id; ids are hex, so no real id ends in _
        String id = args.text("surfacing_id").strip().replaceAll("^[`'\"_]+|[`'\"_]+$", "");
        List<String> memories = stats.surfacedMemories(id).orElseThrow(() -> new NotFoundException(
                "no surfacing event '" + id + "'; copy the id from the _surfacing_id: line"));
        List<Map<String, Object>> batch = args.objects("ratings");
        String single = args.textOr("rating");
        if ((batch == null) == (single == null)) {
            throw new InvalidArgumentException("rating", "send either rating (with an optional memory_id) or ratings,"
                    + " not both and not neither");
        }
        Map<String, String> byMemory = new java.util.LinkedHashMap<>();
        if (batch != null) {
            for (Map<String, Object> r : batch) byMemory.put(String.valueOf(r.get("memory_id")), String.valueOf(r.get("rating")));
        } else {
            String memoryId = args.textOr("memory_id");
            for (String m : memoryId == null ? memories : List.of(memoryId)) byMemory.put(m, single);
        }
        double threshold = surfacer.tuner().minScore();
        for (Map.Entry<String, String> e : byMemory.entrySet()) {
            if (!RATINGS.contains(e.getValue())) {
                throw new InvalidArgumentException("rating", "must be one of " + RATINGS + ", got '" + e.getValue() + "'");
            }
            if (!memories.contains(e.getKey())) {
                throw new InvalidArgumentException("memory_id", "'" + e.getKey() + "' was not surfaced in " + id + "; it had " + memories);
            }
        }
        for (Map.Entry<String, String> e : byMemory.entrySet()) {
            stats.recordSurfacingFeedback(id, e.getKey(), e.getValue());
            threshold = surfacer.tuner().record(e.getValue());
        }
        int n = byMemory.size();
        return new ToolReply("Recorded " + n + " rating" + (n == 1 ? "" : "s") + " for " + id + ".",
                Map.of("recorded", n, "min_score", threshold));
    }
}
