package dev.engram.proxy.tools;

import dev.engram.crypto.Sha256;
import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.analysis.TextCut;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Pages a tool's full description or input schema without running it, for hosts that truncate
 * tool metadata (memtomem-stm #1015). A page carries a generation token: if the metadata changed
 * between pages the token differs and the reader restarts at 0 instead of splicing two versions.
 * Each whole result (text plus structured copy) stays within {@link #PAGE_BYTES} UTF-8 bytes.
 * Parts, as memtomem-stm's: {@code description} is the text the tool is listed with before the length
 * cap (a {@code description_override} where one is set), {@code input_schema} the schema as listed, and
 * {@code upstream_description} the upstream's own text that an override replaced, only when proxy.json
 * sets {@code recover_upstream_description}: an override may exist to keep that text from the model.
 */
public final class DescribeToolTool implements ToolHandler {
    public static final int PAGE_BYTES = 16_384;
    static final List<String> PARTS = List.of("description", "input_schema", "upstream_description");
    private static final Tool DEFINITION = Tool.builder(ProxyToolNames.DESCRIBE_TOOL, JsonSchema.input()
                    .string("name", "The tool's name as listed (prefix__tool), without any host prefix", "fs__read_text_file")
                    .choice("part", "Which metadata; default description (as listed, before the length cap);"
                            + " upstream_description: the upstream's text a description_override replaced, where the"
                            + " proxy's configuration allows it", PARTS)
                    .integer("offset", "Character offset (the previous page's next_offset); default 0", 0, Integer.MAX_VALUE, 0)
                    .integer("limit", "Most characters per page; default 4000", 1, 16_000, 4000)
                    .string("generation", "The previous page's generation; required when offset > 0", "9c1e07aa52b3")
                    .required("name").build())
            .description("Reads a tool's full description or input schema page by page, without calling it."
                    + " Continue with next_offset and the same generation until next_offset is null.")
            .annotations(ToolHints.readOnly()).build();

    /**
     * A listed tool's full metadata. {@code upstreamDescription} is null unless an override replaced the
     * upstream's text and the configuration allows returning it (then "" when the upstream gave none).
     */
    public record Metadata(String name, String description, Map<String, Object> inputSchema, String upstreamDescription) {
    }

    private final Function<String, Optional<Metadata>> tools;
    private final JsonText json;

    /** {@code tools} finds a listed tool's metadata by its listed name. */
    public DescribeToolTool(Function<String, Optional<Metadata>> tools, JsonText json) {
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
        Metadata tool = tools.apply(name).orElseThrow(() ->
                new NotFoundException("no tool named '" + name + "'; pass the listed name, e.g. fs__read_text_file"));
        String text = switch (part) {
            case "description" -> tool.description() == null ? "" : tool.description();
            case "input_schema" -> json.write(tool.inputSchema() == null ? Map.of() : tool.inputSchema());
            default -> {
                // never says what the withheld text is: the error reaches the model too
                if (tool.upstreamDescription() == null) {
                    throw new InvalidArgumentException("part", "upstream_description is unavailable for " + name
                            + ": it is given only for a tool with a description_override, when proxy.json sets"
                            + " \"recover_upstream_description\": true; ask for part=description instead");
                }
                yield tool.upstreamDescription();
            }
        };
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
        int from = TextCut.atCodePoint(text, offset);
        int to = TextCut.atCodePoint(text, (int) Math.min(text.length(), (long) from + limit));
        if (to == from && from < text.length()) to = Math.min(text.length(), from + 2); // a limit of 1 on a pair: the pair
        for (;;) {
            Map<String, Object> page = page(name, part, text, generation, from, to);
            String rendered = json.write(page);
            // the result carries the page twice (text block and structured copy), plus the envelope
            if (2 * rendered.getBytes(StandardCharsets.UTF_8).length + 256 <= PAGE_BYTES || to - from <= 1) {
                return new ToolReply(rendered, page);
            }
            int shorter = TextCut.atCodePoint(text, from + Math.max(1, (to - from) * 3 / 4));
            if (shorter <= from) return new ToolReply(rendered, page); // one character (a pair) cannot shrink
            to = shorter;
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
        return Sha256.hex(s, 6);
    }
}
