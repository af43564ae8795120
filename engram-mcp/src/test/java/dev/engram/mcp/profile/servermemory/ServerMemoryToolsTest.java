package dev.engram.mcp.profile.servermemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The behaviours server-memory's own manager tests check (src/memory/__tests__/knowledge-graph.test.ts),
 * transcribed to the profile's tools, plus Engram's refusals of bad input. Self-relations
 * ("Alice -> Alice") are the one behaviour not transcribed: Engram's edges join two memories.
 */
class ServerMemoryToolsTest {
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private final ToolProfile profile = profile(Map.of());

    private ToolProfile profile(Map<String, String> settings) {
        return ServerMemoryProfile.create(ProfileContext.of(engine, "default").withSettings(settings),
                JsonText.standard());
    }

    private static Map<String, Object> entity(String name, String type, String... observations) {
        return Map.of("name", name, "entityType", type, "observations", List.of(observations));
    }

    private static Map<String, Object> relation(String from, String to, String type) {
        return Map.of("from", from, "to", to, "relationType", type);
    }

    private CallToolResult call(ToolProfile p, String tool, Map<String, Object> args) {
        ToolHandler h = p.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String tool, Map<String, Object> args) {
        CallToolResult r = call(profile, tool, args);
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    private String error(String tool, Map<String, Object> args) {
        CallToolResult r = call(profile, tool, args);
        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " should fail, got " + text(r));
        assertFalse(text(r).contains(".java:") || text(r).contains("Exception"), text(r));
        return text(r);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> sc, String field) {
        return (List<Map<String, Object>>) sc.get(field);
    }

    private static List<Object> names(Map<String, Object> graph) {
        return list(graph, "entities").stream().map(e -> e.get("name")).toList();
    }

    private void aliceBobCharlie() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person"), entity("Bob", "person"),
                entity("Charlie", "person"))));
        ok("create_relations", Map.of("relations", List.of(relation("Alice", "Bob", "knows"), relation("Bob", "Charlie", "knows"))));
    }

    @Test
    void createsEntitiesAndReturnsThemAsGiven() {
        var sc = ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "works at Acme Corp"),
                entity("Bob", "person", "likes programming"))));
        assertEquals(List.of(entity("Alice", "person", "works at Acme Corp"), entity("Bob", "person", "likes programming")),
                list(sc, "entities"));
        assertEquals(2, list(ok("read_graph", Map.of()), "entities").size());
    }

    @Test
    void doesNotCreateDuplicateEntitiesAndHandlesEmptyArrays() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "works at Acme Corp"))));
        assertEquals(List.of(), list(ok("create_entities", Map.of("entities", List.of(entity("Alice", "person")))), "entities"));
        assertEquals(1, list(ok("read_graph", Map.of()), "entities").size());
        assertEquals(List.of(), list(ok("create_entities", Map.of("entities", List.of())), "entities"));
    }

    @Test
    void createsRelationsOnceAndRejectsMissingEnds() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person"), entity("Bob", "person"))));
        assertEquals(List.of(relation("Alice", "Bob", "knows")),
                list(ok("create_relations", Map.of("relations", List.of(relation("Alice", "Bob", "knows")))), "relations"));
        assertEquals(List.of(), list(ok("create_relations", Map.of("relations", List.of(relation("Alice", "Bob", "knows")))), "relations"));
        assertEquals(List.of(), list(ok("create_relations", Map.of("relations", List.of())), "relations"));
        String missingFrom = error("create_relations", Map.of("relations", List.of(relation("Ghost", "Alice", "knows"))));
        assertTrue(missingFrom.startsWith("Entity with name Ghost not found") && missingFrom.contains("create_entities"), missingFrom);
        String missingTo = error("create_relations", Map.of("relations", List.of(relation("Alice", "Ghost", "knows"))));
        assertTrue(missingTo.startsWith("Entity with name Ghost not found"), missingTo);
        assertEquals(1, list(ok("read_graph", Map.of()), "relations").size());
    }

    @Test
    void addsOnlyNewObservationsAndRefusesAnUnknownEntity() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "works at Acme Corp"))));
        var first = list(ok("add_observations", Map.of("observations", List.of(
                Map.of("entityName", "Alice", "contents", List.of("likes coffee", "has a dog"))))), "results");
        assertEquals(List.of(Map.of("entityName", "Alice", "addedObservations", List.of("likes coffee", "has a dog"))), first);
        var second = list(ok("add_observations", Map.of("observations", List.of(
                Map.of("entityName", "Alice", "contents", List.of("likes coffee", "a cat"))))), "results");
        assertEquals(List.of("a cat"), second.get(0).get("addedObservations"));
        assertEquals(List.of("works at Acme Corp", "likes coffee", "has a dog", "a cat"),
                list(ok("open_nodes", Map.of("names", List.of("Alice"))), "entities").get(0).get("observations"));
        String e = error("add_observations", Map.of("observations", List.of(Map.of("entityName", "NonExistent", "contents", List.of("x")))));
        assertTrue(e.startsWith("Entity with name NonExistent not found"), e);
    }

    @Test
    void deletesEntitiesWithTheirRelationsAndIgnoresUnknownNames() {
        aliceBobCharlie();
        assertEquals(Map.of("success", true, "message", "Entities deleted successfully"),
                ok("delete_entities", Map.of("entityNames", List.of("Bob", "NonExistent"))));
        var graph = ok("read_graph", Map.of());
        assertEquals(List.of("Alice", "Charlie"), names(graph));
        assertEquals(List.of(), list(graph, "relations"));
    }

    @Test
    void deletesObservationsAndIgnoresUnknownEntities() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "works at Acme Corp", "likes coffee"))));
        ok("delete_observations", Map.of("deletions", List.of(Map.of("entityName", "Alice", "observations", List.of("likes coffee")),
                Map.of("entityName", "NonExistent", "observations", List.of("x")))));
        assertEquals(List.of("works at Acme Corp"), list(ok("read_graph", Map.of()), "entities").get(0).get("observations"));
    }

    @Test
    void deletesOnlyTheRelationNamed() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person"), entity("Bob", "person"))));
        ok("create_relations", Map.of("relations", List.of(relation("Alice", "Bob", "knows"), relation("Alice", "Bob", "works_with"))));
        assertEquals("Relations deleted successfully",
                ok("delete_relations", Map.of("relations", List.of(relation("Alice", "Bob", "knows")))).get("message"));
        assertEquals(List.of(relation("Alice", "Bob", "works_with")), list(ok("read_graph", Map.of()), "relations"));
    }

    @Test
    void readsAnEmptyGraph() {
        CallToolResult r = call(profile, "read_graph", Map.of());
        assertEquals("{\n  \"entities\": [],\n  \"relations\": []\n}", text(r));
    }

    @Test
    void searchesByNameTypeAndObservationIgnoringCaseWithRelationsTouchingAHit() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "works at Acme Corp", "likes programming"),
                entity("Bob", "person", "works at TechCo"), entity("Acme Corp", "company", "tech company"))));
        ok("create_relations", Map.of("relations", List.of(relation("Alice", "Acme Corp", "works_at"), relation("Bob", "Acme Corp", "competitor"))));
        assertEquals(List.of("Alice"), names(ok("search_nodes", Map.of("query", "Alice"))));
        assertEquals(List.of("Acme Corp"), names(ok("search_nodes", Map.of("query", "company"))));
        assertEquals(List.of("Alice"), names(ok("search_nodes", Map.of("query", "programming"))));
        assertEquals(List.of("Alice"), names(ok("search_nodes", Map.of("query", "ALICE"))));
        var acme = ok("search_nodes", Map.of("query", "Acme"));
        assertEquals(2, names(acme).size(), names(acme).toString());
        assertTrue(names(acme).containsAll(List.of("Alice", "Acme Corp")));
        assertEquals(2, list(acme, "relations").size(), "Bob -> Acme Corp comes along: Acme Corp matched");
        var alice = ok("search_nodes", Map.of("query", "Alice"));
        assertEquals(List.of(relation("Alice", "Acme Corp", "works_at")), list(alice, "relations"));
        var none = ok("search_nodes", Map.of("query", "NonExistent"));
        assertEquals(List.of(), list(none, "entities"));
        assertEquals(List.of(), list(none, "relations"));
    }

    @Test
    void searchIsBoundedAndUnboundedOnRequest() {
        List<Map<String, Object>> many = java.util.stream.IntStream.range(0, 30)
                .mapToObj(i -> entity("Widget " + i, "part", "a widget for the machine")).toList();
        ok("create_entities", Map.of("entities", many));
        assertEquals(SearchBound.DEFAULT_LIMIT, list(ok("search_nodes", Map.of("query", "widget")), "entities").size());
        ToolProfile five = profile(Map.of(SearchBound.SETTING, "5"));
        assertEquals(5, ((List<?>) ((Map<?, ?>) call(five, "search_nodes", Map.of("query", "widget")).structuredContent())
                .get("entities")).size());
        ToolProfile unbounded = profile(Map.of(SearchBound.SETTING, "unbounded"));
        CallToolResult all = call(unbounded, "search_nodes", Map.of("query", "WIDGET"));
        List<?> entities = (List<?>) ((Map<?, ?>) all.structuredContent()).get("entities");
        assertEquals(30, entities.size());
        assertEquals("Widget 0", ((Map<?, ?>) entities.get(0)).get("name"), "unbounded is server-memory's graph order");
        assertEquals(30, ((List<?>) ((Map<?, ?>) call(unbounded, "search_nodes", Map.of("query", "")).structuredContent())
                .get("entities")).size(), "unbounded, an empty query matches all, as in server-memory");
        assertTrue(Boolean.TRUE.equals(call(unbounded, "search_nodes", Map.of()).isError()));
    }

    @Test
    void opensNodesWithEveryRelationTouchingThem() {
        aliceBobCharlie();
        var ab = ok("open_nodes", Map.of("names", List.of("Alice", "Bob")));
        assertEquals(List.of("Alice", "Bob"), names(ab));
        assertEquals(List.of(relation("Alice", "Bob", "knows"), relation("Bob", "Charlie", "knows")), list(ab, "relations"));
        assertEquals(2, list(ok("open_nodes", Map.of("names", List.of("Bob"))), "relations").size());
        assertEquals(List.of(relation("Alice", "Bob", "knows")), list(ok("open_nodes", Map.of("names", List.of("Alice"))), "relations"));
        assertEquals(List.of(relation("Bob", "Charlie", "knows")), list(ok("open_nodes", Map.of("names", List.of("Charlie"))), "relations"));
        assertEquals(List.of(), list(ok("open_nodes", Map.of("names", List.of("NonExistent"))), "entities"));
        var empty = ok("open_nodes", Map.of("names", List.of()));
        assertEquals(List.of(), list(empty, "entities"));
        assertEquals(List.of(), list(empty, "relations"));
    }

    @Test
    void keepsNamesWithCommasSpacesAndKoreanExactly() {
        ok("create_entities", Map.of("entities", List.of(entity("Smith, John", "person", "  padded  "), entity("김민수", "사람", "서울에 산다"))));
        var opened = ok("open_nodes", Map.of("names", List.of("Smith, John", "김민수")));
        assertEquals(List.of("Smith, John", "김민수"), names(opened));
        assertEquals(List.of("  padded  "), list(opened, "entities").get(0).get("observations"));
        assertEquals(List.of("김민수"), names(ok("search_nodes", Map.of("query", "서울에"))));
    }

    @Test
    void badInputIsAnErrorSayingWhatToSend() {
        assertTrue(error("create_entities", Map.of()).startsWith("entities is required: an array of entities, e.g. {\"entities\""));
        assertTrue(error("create_entities", Map.of("entities", "Alice")).contains("must be an array of entities"));
        String noType = error("create_entities", Map.of("entities", List.of(Map.of("name", "Dave", "observations", List.of()))));
        assertTrue(noType.startsWith("entities[0].entityType is required") && noType.contains("\"person\""), noType);
        String badObs = error("create_entities", Map.of("entities", List.of(Map.of("name", "Dave", "entityType", "p",
                "observations", List.of(1)))));
        assertTrue(badObs.startsWith("entities[0].observations must be an array of strings"), badObs);
        assertTrue(error("create_entities", Map.of("entities", List.of(entity("", "p")))).startsWith("entities[0].name is"));
        assertTrue(error("create_entities", Map.of("entities", List.of(entity("  ", "p")))).contains("blank"));
        assertTrue(error("create_relations", Map.of("relations", List.of(Map.of("from", "A", "to", "B"))))
                .startsWith("relations[0].relationType is required"));
        assertTrue(error("add_observations", Map.of("observations", List.of(Map.of("entityName", "A"))))
                .startsWith("observations[0].contents is required"));
        assertTrue(error("delete_entities", Map.of()).startsWith("entityNames is required"));
        assertTrue(error("delete_entities", Map.of("entityNames", List.of(""))).startsWith("entityNames[0] is"));
        assertTrue(error("search_nodes", Map.of()).startsWith("query is required"));
        assertTrue(error("search_nodes", Map.of("query", " ")).startsWith("query is required"));
        assertTrue(error("open_nodes", Map.of("names", List.of(1))).startsWith("names must be an array of entity names, but item 0 is number 1, e.g."));
        java.util.List<Object> withNull = new java.util.ArrayList<>(List.of("Alice"));
        withNull.add(null);
        assertTrue(error("delete_entities", Map.of("entityNames", withNull))
                .startsWith("entityNames must be an array of entity names, but item 1 is null, e.g."), "the item at fault is named");
        assertTrue(error("read_graph", Map.of("zone", "x")).contains("is not an argument of read_graph"));
        assertEquals(0, list(ok("read_graph", Map.of()), "entities").size(), "nothing was written by a refused call");
    }

    /** A map holding {@code name: null}, which Map.of cannot. */
    private static Map<String, Object> with(Map<String, Object> fields, String nullField) {
        Map<String, Object> m = new java.util.LinkedHashMap<>(fields);
        m.put(nullField, null);
        return m;
    }

    /**
     * A field sent as null was sent: server-memory refuses it as "expected array, received null", so Engram says what
     * it must be and that it got null, never that it "is required" (an outside client's finding), in all nine tools.
     */
    @Test
    void nullIsRefusedAsSentNotAsMissing() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person"))));
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        Map<String, Map<String, Object>> calls = new java.util.LinkedHashMap<>();
        calls.put("create_entities entities", with(Map.of(), "entities"));
        cases.put("create_entities entities", "entities must be an array of entities, got null, e.g. {\"entities\"");
        calls.put("create_entities observations", Map.of("entities", List.of(with(Map.of("name", "C", "entityType", "x"), "observations"))));
        cases.put("create_entities observations", "entities[0].observations must be an array of strings, got null: observation texts");
        calls.put("create_entities name", Map.of("entities", List.of(with(Map.of("entityType", "x", "observations", List.of()), "name"))));
        cases.put("create_entities name", "entities[0].name must be a string, got null: the entity's name, e.g. \"John Smith\"");
        calls.put("create_entities entityType", Map.of("entities", List.of(with(Map.of("name", "C", "observations", List.of()), "entityType"))));
        cases.put("create_entities entityType", "entities[0].entityType must be a string, got null");
        calls.put("create_entities item", Map.of("entities", java.util.Arrays.asList((Object) null)));
        cases.put("create_entities item", "entities must be an array of entities, but item 0 is null, e.g. {\"entities\"");
        calls.put("create_relations relations", with(Map.of(), "relations"));
        cases.put("create_relations relations", "relations must be an array of relations, got null");
        calls.put("create_relations from", Map.of("relations", List.of(with(Map.of("to", "B", "relationType", "k"), "from"))));
        cases.put("create_relations from", "relations[0].from must be a string, got null");
        calls.put("add_observations observations", with(Map.of(), "observations"));
        cases.put("add_observations observations", "observations must be an array of {entityName, contents} objects, got null");
        calls.put("add_observations contents", Map.of("observations", List.of(with(Map.of("entityName", "Alice"), "contents"))));
        cases.put("add_observations contents", "observations[0].contents must be an array of strings, got null: observation texts");
        calls.put("add_observations entityName", Map.of("observations", List.of(with(Map.of("contents", List.of("x")), "entityName"))));
        cases.put("add_observations entityName", "observations[0].entityName must be a string, got null");
        calls.put("delete_entities entityNames", with(Map.of(), "entityNames"));
        cases.put("delete_entities entityNames", "entityNames must be an array of entity names, got null, e.g. {\"entityNames\"");
        calls.put("delete_observations deletions", with(Map.of(), "deletions"));
        cases.put("delete_observations deletions", "deletions must be an array of {entityName, observations} objects, got null");
        calls.put("delete_observations observations", Map.of("deletions", List.of(with(Map.of("entityName", "Alice"), "observations"))));
        cases.put("delete_observations observations", "deletions[0].observations must be an array of strings, got null");
        calls.put("delete_relations relations", with(Map.of(), "relations"));
        cases.put("delete_relations relations", "relations must be an array of relations, got null");
        calls.put("delete_relations relationType", Map.of("relations", List.of(with(Map.of("from", "A", "to", "B"), "relationType"))));
        cases.put("delete_relations relationType", "relations[0].relationType must be a string, got null");
        calls.put("search_nodes query", with(Map.of(), "query"));
        cases.put("search_nodes query", "query must be a string, got null (e.g. \"query\": \"Acme Corp\")");
        calls.put("open_nodes names", with(Map.of(), "names"));
        cases.put("open_nodes names", "names must be an array of entity names, got null, e.g. {\"names\"");
        for (var c : cases.entrySet()) {
            String tool = c.getKey().substring(0, c.getKey().indexOf(' '));
            String said = error(tool, calls.get(c.getKey()));
            assertTrue(said.startsWith(c.getValue()), c.getKey() + ": " + said);
        }
        ToolProfile unbounded = profile(Map.of(SearchBound.SETTING, "unbounded"));
        String said = text(call(unbounded, "search_nodes", with(Map.of(), "query")));
        assertTrue(said.startsWith("query must be a string, got null"), "unbounded too: " + said);
        assertEquals(List.of("Alice"), names(ok("read_graph", Map.of())), "nothing was written by a refused call");
    }

    @Test
    void theResourceIsTheGraphAsJson() {
        ok("create_entities", Map.of("entities", List.of(entity("Alice", "person", "x"))));
        var spec = profile.resources().get(0);
        assertEquals("memory://knowledge-graph", spec.resource().uri());
        var result = spec.readHandler().apply(null, new io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest("memory://knowledge-graph"));
        String body = ((io.modelcontextprotocol.spec.McpSchema.TextResourceContents) result.contents().get(0)).text();
        assertEquals("{\n  \"entities\": [\n    {\n      \"name\": \"Alice\",\n      \"entityType\": \"person\",\n"
                + "      \"observations\": [\n        \"x\"\n      ]\n    }\n  ],\n  \"relations\": []\n}", body);
    }

    @Test
    void entitiesAndObservationsRecordTheCallersSessionAndBranch() {
        ToolHandler create = profile.tools().stream().filter(t -> t.definition().name().equals("create_entities")).findFirst().orElseThrow();
        CallToolResult r = ToolAdapter.call(create, Map.of("entities", List.of(entity("Jane Roe", "Person", "Likes tea"))),
                new dev.engram.mcp.tool.Caller("claude-code/s-9", "feature/graph"));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        var jane = engine.entities().find("default", "Jane Roe").orElseThrow();
        assertEquals("claude-code/s-9", jane.memory().session());
        assertEquals("feature/graph", jane.memory().branch());
        assertEquals("claude-code/s-9", jane.observations().get(0).session());
    }
}
