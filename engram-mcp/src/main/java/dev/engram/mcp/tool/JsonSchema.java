package dev.engram.mcp.tool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small builder for the JSON Schema (2020-12) objects the SDK takes as plain maps. Input
 * schemas carry a description and an example per property: agents read them, and
 * {@link ToolArgs} quotes the example in its error messages.
 */
public final class JsonSchema {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();
    private final boolean closed;

    private JsonSchema(boolean closed) {
        this.closed = closed;
    }

    /** An input schema: unknown properties are not allowed. */
    public static JsonSchema input() {
        return new JsonSchema(true);
    }

    /** An output schema: lists what is always there; more fields may follow. */
    public static JsonSchema output() {
        return new JsonSchema(false);
    }

    /**
     * An output schema that lists every field there is ({@code "additionalProperties": false}): for a profile whose
     * original declares its results closed, so a client validating strictly accepts either server's schema.
     */
    public static JsonSchema closedOutput() {
        return new JsonSchema(true);
    }

    public JsonSchema string(String name, String description, String example) {
        return property(name, typed("string", description, example));
    }

    public JsonSchema integer(String name, String description, int min, int max, Integer example) {
        Map<String, Object> p = typed("integer", description, example);
        p.put("minimum", min);
        p.put("maximum", max);
        return property(name, p);
    }

    public JsonSchema bool(String name, String description) {
        return property(name, typed("boolean", description, null));
    }

    public JsonSchema choice(String name, String description, List<String> values) {
        Map<String, Object> p = typed("string", description, values.get(0));
        p.put("enum", values);
        return property(name, p);
    }

    public JsonSchema strings(String name, String description, List<String> example) {
        Map<String, Object> p = typed("array", description, example);
        p.put("items", Map.of("type", "string"));
        return property(name, p);
    }

    /** A property of any type (output schemas: "string", "number", "integer", "boolean", "object", "array"). */
    public JsonSchema of(String name, String type) {
        return property(name, new LinkedHashMap<>(Map.of("type", type)));
    }

    public JsonSchema arrayOf(String name, Map<String, Object> items) {
        return property(name, new LinkedHashMap<>(Map.of("type", "array", "items", items)));
    }

    public JsonSchema property(String name, Map<String, Object> schema) {
        properties.put(name, schema);
        return this;
    }

    public JsonSchema required(String... names) {
        required.addAll(List.of(names));
        return this;
    }

    public Map<String, Object> build() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("type", "object");
        s.put("properties", properties);
        if (!required.isEmpty()) s.put("required", List.copyOf(required));
        if (closed) s.put("additionalProperties", false);
        return s;
    }

    private static Map<String, Object> typed(String type, String description, Object example) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", type);
        p.put("description", description);
        if (example != null) p.put("examples", List.of(example));
        return p;
    }
}
