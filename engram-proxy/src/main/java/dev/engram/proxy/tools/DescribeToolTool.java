package dev.engram.proxy.tools;

import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Pages a tool's full description or input schema without running it, for hosts that truncate
 * tool metadata (memtomem-stm #1015). A page carries a generation token: if the metadata changed
 * between pages the token differs and the reader restarts at 0 instead of splicing two versions.
 * Each whole result (text plus structured copy) stays within {@link #PAGE_BYTES} UTF-8 bytes.
 */
public final class DescribeToolTool implements ToolHandler {
    public static final int PAGE_BYTES = 16_384;
    static final List<String> PARTS = List.of("description", "input_schema");
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.DESCRIBE_TOOL, JsonSchema.input()
                    .string("name", "The tool's name as listed (prefix__tool), without any host prefix", "fs__read_text_file")
                    .choice("part", "Which metadata; default description", PARTS)
                    .integer("offset", "Character offset (the previous page's next_offset); default 0", 0, Integer.MAX_VALUE, 0)
                    .integer("limit", "Most characters per page; default 4000", 1, 16_000, 4000)
                    .string("generation", "The previous page's generation; required when offset > 0", "9c1e07aa52b3")
                    .required("name").build())
            .description("Reads a tool's full description or input schema page by page, without calling it."
                    + " Continue with next_offset and the same generation until next_offset is null.")
            .annotations(ToolHints.readOnly()).build();

    private final Supplier<List<Tool>> tools;
    private final JsonText json;

    public DescribeToolTool(Supplier<List<Tool>> tools, JsonText json) {
        this.tools = tools;
        this.json = json;
    }

    @Override
    public Tool definition() {
        return DEFINITION;
    }

    @Override
    public ToolReply call(ToolArgs args) {
        String name = args.text("name");
        String part = args.textOr("part") == null ? "description" : args.textOr("part");
        if (!PARTS.contains(part)) throw new InvalidArgumentException("part", "must be one of " + PARTS + ", got '" + part + "'");
        Tool tool = tools.get().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow(() ->
                new NotFoundException("no tool named '" + name + "'; pass the listed name, e.g. fs__read_text_file"));
        String text = part.equals("description") ? (tool.description() == null ? "" : tool.description())
                : json.write(tool.inputSchema() == null ? Map.of() : tool.inputSchema());
        String generation = generation(name + "\u0000" + part + "\u0000" + text);
        int offset = args.intOr("offset", 0, 0, Integer.MAX_VALUE);
        String sent = args.textOr("generation");
        if (offset > 0 && sent == null) {
            throw new InvalidArgumentException("generation", "is required when offset > 0: pass the previous page's generation");
        }
        if (sent != null && !sent.equals(generation)) {
            throw new ConflictException("the metadata of " + name + " changed (generation " + generation + ", you sent "
                    + sent + "); start again at offset 0 without generation");
        }
        int limit = args.intOr("limit", 4000, 1, 16_000);
        int from = Math.min(offset, text.length());
        int to = Math.min(text.length(), from + limit);
        for (;;) {
            Map<String, Object> page = page(name, part, text, generation, from, to);
            String rendered = json.write(page);
            // the result carries the page twice (text block and structured copy), plus the envelope
            if (2 * rendered.getBytes(StandardCharsets.UTF_8).length + 256 <= PAGE_BYTES || to - from <= 1) {
                return new ToolReply(rendered, page);
            }
            to = from + Math.max(1, (to - from) * 3 / 4);
            if (to < text.length() && Character.isHighSurrogate(text.charAt(to - 1))) to--;
        }
    }

    private static Map<String, Object> page(String name, String part, String text, String generation, int from, int to) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("name", name);
        page.put("part", part);
        page.put("format", part.equals("input_schema") ? "json" : "text");
        page.put("generation", generation);
        page.put("offset", from);
        page.put("next_offset", to < text.length() ? to : null);
        page.put("total_chars", text.length());
        page.put("text", text.substring(from, to));
        page.put("response_hint", to < text.length() ? "continue with offset=" + to + " and generation=" + generation : "done");
        return page;
    }

    static String generation(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
