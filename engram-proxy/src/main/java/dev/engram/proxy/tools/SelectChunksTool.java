package dev.engram.proxy.tools;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.Section;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.stats.ProxyStats;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expands sections listed by a compressed result (its table of contents or section list). The text is the sections' exact
 * original text, concatenated in the order asked; selecting every id in order gives the original.
 */
public final class SelectChunksTool implements ToolHandler {
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.SELECT_CHUNKS, JsonSchema.input()
                    .string("key", "The key from a table of contents (key=...)", "a1b2c3d4e5f6")
                    .strings("sections", "Section ids from that table of contents, in the order wanted", List.of("s2", "s5"))
                    .required("key", "sections").build())
            .description("Returns the requested sections of a compressed result whose table of contents you saw"
                    + " (selective, hybrid, or the section list of another view). The text is the sections' original text, exactly.")
            .annotations(ToolHints.readOnly()).build();

    private final OriginalStore originals;
    private final ProxyStats stats;

    public SelectChunksTool(OriginalStore originals, ProxyStats stats) {
        this.originals = originals;
        this.stats = stats;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        StoredResult stored = ReadMoreTool.stored(originals, args.text("key"));
        List<String> ids = args.list("sections");
        if (ids == null || ids.isEmpty()) throw new InvalidArgumentException("sections", "is required: ids such as [\"s1\"]");
        StringBuilder text = new StringBuilder();
        List<Map<String, Object>> ranges = new ArrayList<>();
        for (String id : ids) {
            Section s = stored.section(id).orElseThrow(() -> new InvalidArgumentException("sections",
                    "has unknown id '" + id + "'; this result has s1.." + stored.sections().get(stored.sections().size() - 1).id()));
            text.append(stored.original(), s.start(), s.end());
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("id", s.id());
            r.put("start", s.start());
            r.put("end", s.end());
            ranges.add(r);
        }
        stats.recordFollowUp(stored.key(), stored.server(), stored.tool(), "select", text.length(), stored.original().length());
        return new ToolReply(text.toString(), Map.of("key", stored.key(), "sections", ranges,
                "total_chars", stored.original().length()));
    }
}
