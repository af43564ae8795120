package dev.engram.mcp.profile.memento;

import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.json.JsStringify;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** One Memento tool: its definition and a body returning the JSON object Memento answers with (text and structured alike). */
record MementoTool(Tool definition, Function<ToolArgs, Map<String, Object>> body) implements ToolHandler {
    /** Memento's ids of sessions, agents and sources; most are accepted and not used, and every one is still checked. */
    private static final List<String> IDS = List.of("sessionId", "agentId", "source", "session_id");
    static final int MAX_ID_CHARS = 256;

    @Override
    public ToolReply call(ToolArgs args) {
        for (String name : IDS) {
            String v = args.declares(name) ? args.textOr(name) : null;
            if (v != null && v.length() > MAX_ID_CHARS) {
                throw new InvalidArgumentException(name, "is " + v.length() + " characters; send an id of at most " + MAX_ID_CHARS);
            }
        }
        Map<String, Object> data = body.apply(args);
        return new ToolReply(JsStringify.pretty(data), data);
    }

    static Map<String, Object> number(String description, double min, double max, Double example) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "number");
        p.put("description", description);
        p.put("minimum", min);
        p.put("maximum", max);
        if (example != null) p.put("examples", List.of(example));
        return p;
    }

    static Map<String, Object> integer(String description, int min, int max) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "integer");
        p.put("description", description);
        p.put("minimum", min);
        p.put("maximum", max);
        return p;
    }

    static Map<String, Object> object(String description, Map<String, Object> properties) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", "object");
        p.put("description", description);
        p.put("properties", properties);
        return p;
    }

    static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
        return m;
    }
}
