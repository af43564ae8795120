package dev.engram.mcp.profile.brain;

import dev.engram.mcp.json.JsStringify;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolReply;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One brain tool: its definition and a body that returns the data brain-tools would stringify. The
 * text is that data as {@code JSON.stringify(data, null, 2)}; the structured content is the same data.
 */
record BrainTool(Tool definition, Function<ToolArgs, Map<String, Object>> body) implements ToolHandler {
    @Override
    public ToolReply call(ToolArgs args) {
        Map<String, Object> data = body.apply(args);
        return new ToolReply(JsStringify.pretty(data), data);
    }

    static Tool tool(String name, String title, String description, Map<String, Object> schema, ToolAnnotations hints) {
        return Tool.builder(name, schema).title(title).description(description).annotations(hints).build();
    }

    /** {@code {"type": "object", "properties": …, "required": …, "additionalProperties": false}}. */
    static Map<String, Object> schema(Map<String, Object> properties, String... required) {
        Map<String, Object> s = openSchema(properties, required);
        s.put("additionalProperties", false);
        return s;
    }

    /**
     * {@code {"type": "object", "properties": …, "required": …}} with no additionalProperties: the schema of
     * a tool whose brain-tools schema is open (create_zone, delete_zone, copy_entities, move_entities,
     * merge_zones, zone_stats), so arguments it does not know are ignored as brain-tools ignored them.
     */
    static Map<String, Object> openSchema(Map<String, Object> properties, String... required) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        if (required.length > 0) s.put("required", List.of(required));
        return s;
    }

    static Map<String, Object> props(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
        return m;
    }

    static Map<String, Object> string(String description, String example) {
        return typed("string", description, example);
    }

    static Map<String, Object> integer(String description, Integer example) {
        return typed("integer", description, example);
    }

    static Map<String, Object> number(String description, Number example) {
        return typed("number", description, example);
    }

    static Map<String, Object> bool(String description) {
        return typed("boolean", description, null);
    }

    /** A boolean with the {@code default} brain-tools' schema declares (the tool applies the same when it is absent). */
    static Map<String, Object> bool(String description, boolean byDefault) {
        Map<String, Object> p = bool(description);
        p.put("default", byDefault);
        return p;
    }

    static Map<String, Object> strings(String description, List<String> example) {
        Map<String, Object> p = typed("array", description, example);
        p.put("items", Map.of("type", "string"));
        return p;
    }

    static Map<String, Object> choice(String description, List<String> values) {
        Map<String, Object> p = typed("string", description, values.get(0));
        p.put("enum", values);
        return p;
    }

    /** A choice with the {@code default} brain-tools' schema declares. */
    static Map<String, Object> choice(String description, List<String> values, String byDefault) {
        Map<String, Object> p = choice(description, values);
        p.put("default", byDefault);
        return p;
    }

    static Map<String, Object> objects(String description, Map<String, Object> itemProperties, List<String> required,
                                       Object example) {
        Map<String, Object> items = new LinkedHashMap<>();
        items.put("type", "object");
        items.put("properties", itemProperties);
        items.put("required", required);
        Map<String, Object> p = typed("array", description, example);
        p.put("items", items);
        return p;
    }

    private static Map<String, Object> typed(String type, String description, Object example) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        if (example != null) p.put("examples", List.of(example));
        return p;
    }
}
