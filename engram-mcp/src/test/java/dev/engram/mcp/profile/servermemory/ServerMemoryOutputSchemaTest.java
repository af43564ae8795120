package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The nine tools' output schemas are as strict as server-memory 2026.8.31's (the same fields, required fields and
 * types, and no other property allowed, at every level), and every structured answer validates against its tool's own
 * schema with the SDK's validator, as a strict client checks it.
 */
class ServerMemoryOutputSchemaTest {
    private final ToolProfile profile = ServerMemoryProfile.create(
            ProfileContext.of(TestEngines.inMemory(Clock.systemUTC()), "default"), JsonText.standard());

    /**
     * server-memory's outputSchema per tool (its index.ts, registerTool), written as a shape: an object is
     * {@code {a*:type,b:type}} with {@code *} on required fields and {@code ,...} at the end when other properties
     * are allowed; an array is {@code [items]}.
     */
    private static final String ENTITIES = "[{name*:string,entityType*:string,observations*:[string]}]";
    private static final String RELATIONS = "[{from*:string,to*:string,relationType*:string}]";
    private static final String GRAPH = "{entities*:" + ENTITIES + ",relations*:" + RELATIONS + "}";
    private static final String DONE = "{success*:boolean,message*:string}";
    private static final Map<String, String> UPSTREAM = Map.of(
            "create_entities", "{entities*:" + ENTITIES + "}",
            "create_relations", "{relations*:" + RELATIONS + "}",
            "add_observations", "{results*:[{entityName*:string,addedObservations*:[string]}]}",
            "delete_entities", DONE, "delete_observations", DONE, "delete_relations", DONE,
            "read_graph", GRAPH, "search_nodes", GRAPH, "open_nodes", GRAPH);

    @SuppressWarnings("unchecked")
    static String shape(Object schema) {
        Map<String, Object> s = (Map<String, Object>) schema;
        Object type = s.get("type");
        if ("array".equals(type)) return "[" + shape(s.get("items")) + "]";
        if (!"object".equals(type)) return String.valueOf(type);
        List<String> required = (List<String>) s.getOrDefault("required", List.of());
        List<String> fields = new ArrayList<>();
        ((Map<String, Object>) s.get("properties")).forEach((name, p) ->
                fields.add(name + (required.contains(name) ? "*" : "") + ":" + shape(p)));
        if (!Boolean.FALSE.equals(s.get("additionalProperties"))) fields.add("...");
        return "{" + String.join(",", fields) + "}";
    }

    @Test
    void everyOutputSchemaIsAsStrictAsServerMemorys() {
        Map<String, String> ours = profile.tools().stream().collect(Collectors.toMap(t -> t.definition().name(),
                t -> shape(t.definition().outputSchema())));
        assertEquals(new java.util.TreeMap<>(UPSTREAM), new java.util.TreeMap<>(ours));
    }

    private ToolHandler tool(String name) {
        return profile.tools().stream().filter(t -> t.definition().name().equals(name)).findFirst().orElseThrow();
    }

    /** Calls the tool and checks its structured answer against its own output schema. */
    private Object valid(String name, Map<String, Object> args) {
        CallToolResult r = ToolAdapter.call(tool(name), args);
        assertFalse(Boolean.TRUE.equals(r.isError()), name + ": " + r.content());
        ValidationResponse v = McpJsonDefaults.getSchemaValidator().validate(tool(name).definition().outputSchema(),
                r.structuredContent());
        assertTrue(v.valid(), name + " " + args + " answered what its outputSchema refuses: " + v.errorMessage());
        return r.structuredContent();
    }

    @Test
    void everyToolsStructuredContentValidatesAgainstItsOutputSchema() {
        Map<String, Object> alice = Map.of("name", "Alice", "entityType", "person", "observations", List.of("likes tea"));
        Map<String, Object> bob = Map.of("name", "Bob", "entityType", "person", "observations", List.of());
        Map<String, Object> knows = Map.of("from", "Alice", "to", "Bob", "relationType", "knows");
        valid("read_graph", Map.of());
        valid("create_entities", Map.of("entities", List.of(alice, bob)));
        valid("create_entities", Map.of("entities", List.of(alice)));
        valid("create_relations", Map.of("relations", List.of(knows)));
        valid("create_relations", Map.of("relations", List.of()));
        valid("add_observations", Map.of("observations", List.of(Map.of("entityName", "Alice", "contents", List.of("has a dog", "likes tea")))));
        valid("read_graph", Map.of());
        valid("search_nodes", Map.of("query", "dog"));
        valid("search_nodes", Map.of("query", "nothing like it"));
        valid("open_nodes", Map.of("names", List.of("Alice", "Nope")));
        valid("open_nodes", Map.of("names", List.of()));
        valid("delete_observations", Map.of("deletions", List.of(Map.of("entityName", "Alice", "observations", List.of("has a dog")))));
        valid("delete_relations", Map.of("relations", List.of(knows)));
        valid("delete_entities", Map.of("entityNames", List.of("Bob", "Ghost")));
    }

    /** What a strict client does with a field neither server sends: refuses it, at the top and inside an item. */
    @Test
    void anUndeclaredFieldIsRefusedAtEveryLevel() {
        var schema = tool("read_graph").definition().outputSchema();
        Map<String, Object> entity = new LinkedHashMap<>(Map.of("name", "A", "entityType", "t", "observations", List.of()));
        var validator = McpJsonDefaults.getSchemaValidator();
        assertTrue(validator.validate(schema, Map.of("entities", List.of(entity), "relations", List.of())).valid());
        assertFalse(validator.validate(schema, Map.of("entities", List.of(entity), "relations", List.of(), "note", "x")).valid());
        entity.put("id", "m_1");
        assertFalse(validator.validate(schema, Map.of("entities", List.of(entity), "relations", List.of())).valid());
    }
}
