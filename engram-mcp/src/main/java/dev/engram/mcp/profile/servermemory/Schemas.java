package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.tool.JsonSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schemas of server-memory's arguments and results: the same property names, nesting and
 * required fields, so a client validating against either server accepts the other's.
 */
final class Schemas {
    static final String ENTITY_EXAMPLE = "{\"name\": \"John Smith\", \"entityType\": \"person\", \"observations\": [\"Speaks fluent Spanish\"]}";
    static final String RELATION_EXAMPLE = "{\"from\": \"John Smith\", \"to\": \"Anthropic\", \"relationType\": \"works_at\"}";

    private Schemas() {
    }

    static Map<String, Object> string(String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "string");
        if (description != null) m.put("description", description);
        return m;
    }

    static Map<String, Object> strings(String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "array");
        m.put("items", Map.of("type", "string"));
        if (description != null) m.put("description", description);
        return m;
    }

    static Map<String, Object> arrayOf(Map<String, Object> items, String description) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "array");
        m.put("items", items);
        if (description != null) m.put("description", description);
        return m;
    }

    static Map<String, Object> object(Map<String, Object> properties, String... required) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "object");
        m.put("properties", properties);
        m.put("required", List.of(required));
        return m;
    }

    static Map<String, Object> props(Object... nameThenSchema) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSchema.length; i += 2) m.put((String) nameThenSchema[i], nameThenSchema[i + 1]);
        return m;
    }

    static Map<String, Object> entity() {
        return object(props("name", string("The entity's name, exact and unique (e.g. \"John Smith\")"),
                "entityType", string("What kind of thing it is (e.g. \"person\", \"project\")"),
                "observations", strings("Facts about the entity, one short statement each")),
                "name", "entityType", "observations");
    }

    static Map<String, Object> relation() {
        return object(props("from", string("Name of the entity the relation starts at"),
                "to", string("Name of the entity the relation points to"),
                "relationType", string("The relation in active voice (e.g. \"works_at\")")),
                "from", "to", "relationType");
    }

    /**
     * The same object schema with no other properties allowed. server-memory's output schemas are closed at every
     * level (zod's objects as output), its input schemas open; Engram's results hold exactly those fields.
     */
    static Map<String, Object> closed(Map<String, Object> objectSchema) {
        Map<String, Object> m = new LinkedHashMap<>(objectSchema);
        m.put("additionalProperties", false);
        return m;
    }

    /** The output shape of read_graph, search_nodes and open_nodes. */
    static Map<String, Object> graphOutput() {
        return JsonSchema.closedOutput().arrayOf("entities", closed(entity())).arrayOf("relations", closed(relation()))
                .required("entities", "relations").build();
    }

    /** The output shape of the three deletes. */
    static Map<String, Object> doneOutput() {
        return JsonSchema.closedOutput().of("success", "boolean").of("message", "string").required("success", "message").build();
    }
}
