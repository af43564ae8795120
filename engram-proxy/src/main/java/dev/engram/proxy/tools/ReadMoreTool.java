package dev.engram.proxy.tools;

import dev.engram.error.NotFoundException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import dev.engram.proxy.compress.Footers;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.compress.ProgressiveChunks;
import dev.engram.proxy.compress.StoredResult;
import dev.engram.proxy.stats.ProxyStats;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;

/**
 * The next chunk of a stored original, from {@code offset}. The text before
 * {@link Footers#PROGRESSIVE_FOOTER_TOKEN} is exactly {@code original[offset, next)}; the footer
 * says where to continue, until {@code has_more=false}.
 */
public final class ReadMoreTool implements ToolHandler {
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.READ_MORE, JsonSchema.input()
                    .string("key", "The key from a compressed result's footer (key=...)", "a1b2c3d4e5f6")
                    .integer("offset", "Character offset to continue from (the footer's offset); default 0", 0,
                            Integer.MAX_VALUE, 4000)
                    .integer("limit", "Most characters to return this time; default 4000", 1, 100_000, 4000)
                    .required("key").build())
            .description("Reads a compressed result's original text chunk by chunk. Split each answer on the"
                    + " footer token '\\n---\\n[progressive: chars=' (not on '\\n---\\n' alone); the text before it"
                    + " is the original, exactly. Continue with the offset the footer gives until has_more=false.")
            .annotations(ToolHints.readOnly()).build();

    private final OriginalStore originals;
    private final ProxyStats stats;

    public ReadMoreTool(OriginalStore originals, ProxyStats stats) {
        this.originals = originals;
        this.stats = stats;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        StoredResult stored = stored(originals, args.text("key"));
        int offset = args.intOr("offset", 0, 0, Integer.MAX_VALUE);
        int limit = args.intOr("limit", ProgressiveChunks.DEFAULT_CHUNK_CHARS, 1, 100_000);
        String chunk = ProgressiveChunks.chunk(stored, offset, limit);
        int body = chunk.indexOf(Footers.PROGRESSIVE_FOOTER_TOKEN);
        stats.recordFollowUp(stored.key(), stored.server(), stored.tool(), "read_more", body, stored.original().length());
        return new ToolReply(chunk, Map.of("key", stored.key(), "offset", Math.min(offset, stored.original().length()),
                "next_offset", Math.min(offset, stored.original().length()) + body, "total_chars", stored.original().length()));
    }

    static StoredResult stored(OriginalStore originals, String key) {
        return originals.get(key).orElseThrow(() -> new NotFoundException("no stored result with key '" + key
                + "': it expired (kept " + OriginalStore.DEFAULT_TTL.toMinutes() + " min after last use) or never"
                + " existed; call the original tool again for a fresh key"));
    }
}
