package dev.engram.mcp.profile.brain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.llm.ChatModel;
import dev.engram.llm.ChatPrompt;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.MemoryRules;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The brain profile's tools, with the behaviours brain-tools' own tests check (freshness, cross-zone
 * relations, empty names, relations to missing entities, entity-type filtering, boolean and fuzzy
 * search) transcribed to tool calls, plus the refusals of bad input.
 */
class BrainToolsTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final List<String> prompts = new ArrayList<>();
    private final ToolProfile profile = profile(Optional.empty());

    @TempDir
    Path dir;

    private ToolProfile profile(Optional<ChatModel> model) {
        return BrainProfile.create(ProfileContext.of(engine, "default"), JsonText.standard(), model, clock);
    }

    private static CallToolResult call(ToolProfile p, String tool, Map<String, Object> args) {
        ToolHandler h = p.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> ok(String tool, Object... kv) {
        CallToolResult r = call(profile, tool, args(kv));
        assertFalse(Boolean.TRUE.equals(r.isError()), tool + " failed: " + text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    private String error(String tool, Object... kv) {
        CallToolResult r = call(profile, tool, args(kv));
        assertTrue(Boolean.TRUE.equals(r.isError()), tool + " should fail, got " + text(r));
        assertFalse(text(r).contains("Exception") || text(r).contains(".java"), text(r));
        return text(r);
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static Map<String, Object> entity(String name, String type, String... observations) {
        return args("name", name, "entityType", type, "observations", List.of(observations));
    }

    private void create(String zone, Map<String, Object>... entities) {
        ok("create_entities", "entities", List.of(entities), "memory_zone", zone);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> entities(Map<String, Object> result) {
        return (List<Map<String, Object>>) result.get("entities");
    }

    private static List<Object> names(Map<String, Object> result) {
        return entities(result).stream().map(e -> e.get("name")).toList();
    }

    private Map<String, Object> search(String query, Object... more) {
        List<Object> kv = new ArrayList<>(List.of("query", query, "informationNeeded", "test", "reason", "test", "memory_zone", "default"));
        kv.addAll(List.of(more));
        return ok("search_nodes", kv.toArray());
    }

    @Test
    void theProfileHasBrainToolsTwentyOneToolsInItsOrder() {
        assertEquals(List.of("inspect_files", "inspect_knowledge_graph", "create_entities", "update_entities", "delete_entities",
                "create_relations", "delete_relations", "search_nodes", "open_nodes", "add_observations", "mark_important",
                "get_recent", "list_zones", "create_zone", "delete_zone", "copy_entities", "move_entities", "merge_zones",
                "zone_stats", "verify_entity", "get_time_utc"), profile.tools().stream().map(t -> t.definition().name()).toList());
        assertTrue(profile.resources().isEmpty() && profile.prompts().isEmpty());
        Map<String, Object> schema = profile.tools().get(7).definition().inputSchema();
        assertEquals(List.of("query", "memory_zone", "informationNeeded", "reason"), schema.get("required"));
    }

    @Test
    void textIsJsonStringifyWithTwoSpaces() {
        CallToolResult r = call(profile, "create_entities", args("entities", List.of(entity("iaptic-server", "Project")),
                "memory_zone", "default"));
        assertEquals("{\n  \"success\": true,\n  \"entities\": [\n    {\n      \"name\": \"iaptic-server\",\n"
                + "      \"entityType\": \"Project\"\n    }\n  ]\n}", text(r));
        assertEquals("{\n  \"utc_time\": \"2026-12-01 10:00:00\"\n}", text(call(profile, "get_time_utc", Map.of())));
    }

    @Test
    void observationsAreTheirOwnEntitiesWithTheirOwnFreshness() {
        create("default", entity("test-obs-parent", "project", "uses TypeScript", "build is broken"));
        Map<String, Object> opened = ok("open_nodes", "names", List.of("test-obs-parent"), "memory_zone", "default");
        Map<String, Object> e = entities(opened).get(0);
        assertEquals("fresh", e.get("confidence"));
        assertFalse(e.containsKey("needsReview"), "needsReview is left out, not false");
        assertEquals(0L, ((Number) e.get("daysSinceLastWrite")).longValue());
        assertEquals(List.of(Map.of("name", "test-obs-parent: uses TypeScript", "confidence", "fresh"),
                Map.of("name", "test-obs-parent: build is broken", "confidence", "fresh")), e.get("observations"));
        Map<String, Object> added = ok("add_observations", "name", "test-obs-parent", "observations", List.of("server is down"),
                "memory_zone", "default", "reviewInterval", 1);
        assertEquals(List.of("test-obs-parent: server is down"), added.get("observations_created"));
        var parent = engine.entities().find("default", "test-obs-parent").orElseThrow();
        assertEquals(1, parent.observations().get(2).reviewIntervalDays(), "the observation's own interval");
        assertEquals(7, parent.observations().get(0).reviewIntervalDays());
        create("default", args("name", "volatile", "entityType", "t", "observations", List.of("build is red"), "reviewInterval", 2));
        assertEquals(2, engine.entities().find("default", "volatile").orElseThrow().observations().get(0).reviewIntervalDays(),
                "create_entities gives observations the entity's interval");
        clock.advance(Duration.ofDays(3));
        Map<String, Object> later = entities(ok("open_nodes", "names", List.of("test-obs-parent"), "memory_zone", "default")).get(0);
        assertEquals(Map.of("name", "test-obs-parent: server is down", "confidence", "stale", "needsReview", true),
                ((List<?>) later.get("observations")).get(2), "1 - 3/1 = -2: stale, with its own clock");
    }

    @Test
    void theSpacedRepetitionLifecycle() {
        create("default", args("name", "test-lifecycle", "entityType", "test", "reviewInterval", 1));
        clock.advance(Duration.ofDays(2));
        Map<String, Object> found = entities(search("test-lifecycle")).get(0);
        assertEquals(true, found.get("needsReview"));
        assertEquals("aging", found.get("confidence"), "1 - 2/1 = -1");
        Map<String, Object> verified = ok("verify_entity", "name", "test-lifecycle", "memory_zone", "default");
        @SuppressWarnings("unchecked") Map<String, Object> v = (Map<String, Object>) verified.get("entity");
        assertEquals(2, v.get("reviewInterval"), "doubled from 1");
        assertEquals(1, v.get("verifyCount"));
        assertEquals("fresh", v.get("confidence"));
        assertEquals("2026-12-05T10:00:00.000Z", v.get("nextReviewAt"));
        Map<String, Object> again = entities(search("test-lifecycle")).get(0);
        assertEquals("fresh", again.get("confidence"));
        assertFalse(again.containsKey("needsReview"));
        Map<String, Object> capped = ok("verify_entity", "name", "test-lifecycle", "memory_zone", "default", "reviewInterval", 365);
        assertEquals(365, ((Map<?, ?>) capped.get("entity")).get("reviewInterval"));
        assertTrue(error("verify_entity", "name", "nonexistent-entity", "memory_zone", "default").contains("not found"));
    }

    @Test
    void progressiveWideningFindsStaleEntitiesOnlyWhenNothingFresherMatches() {
        create("default", args("name", "outdatedknowledge", "entityType", "concept", "reviewInterval", 1));
        clock.advance(Duration.ofDays(30));
        create("default", entity("recentconcept", "concept"));
        Map<String, Object> stale = entities(search("outdatedknowledge")).get(0);
        assertEquals("archival", stale.get("confidence"));
        assertEquals(true, stale.get("needsReview"));
        assertEquals(List.of("recentconcept"), names(search("concept")), "a fresh hit hides the archival one");
    }

    @Test
    void booleanAndFuzzyQueriesFilterTheRankedHits() {
        create("default", entity("BooleanTest1", "test", "contains apple and banana"),
                entity("BooleanTest2", "test", "contains an apple only"),
                entity("BooleanTest3", "test", "contains a banana only"),
                entity("BooleanTest4", "test", "contains neither fruit"));
        assertEquals(List.of("BooleanTest1"), names(search("apple AND banana")));
        assertEquals(List.of("BooleanTest2"), names(search("apple NOT banana")));
        assertEquals(List.of("BooleanTest1", "BooleanTest2", "BooleanTest3"),
                names(search("apple OR banana")).stream().sorted().toList());
        assertEquals(List.of("BooleanTest2", "BooleanTest3"),
                names(search("(apple OR banana) AND NOT (apple AND banana)")).stream().sorted().toList());
        assertEquals(List.of("BooleanTest3"), names(search("bananna~1 -apple")), "fuzzy terms scan the zone");
        assertEquals(4, names(search("BooleanTest*")).size(), "wildcards scan the zone");
        assertEquals(4, names(search("*")).size(), "a bare * lists the zone");
        for (String q : List.of("\"unclosed", "(a OR", "AND", "???", "name:", "a^^2")) search(q);
    }

    @Test
    void entityTypeFilterIsCaseInsensitiveAndMatchesPartOfTheType() {
        create("default", entity("TypeFilterTest1", "person", "a test entity"), entity("TypeFilterTest2", "concept", "a test entity"),
                entity("TypeFilterTest3", "person", "another test entity"), entity("TypeFilterTest4", "location", "a test entity"));
        assertEquals(List.of("TypeFilterTest1", "TypeFilterTest3"), names(search("entity", "entityTypes", List.of("person"))).stream().sorted().toList());
        assertEquals(3, names(search("entity", "entityTypes", List.of("person", "location"))).size());
        assertEquals(2, names(search("entity", "entityTypes", List.of("PERSON"))).size());
        assertEquals(2, names(search("entity", "entityTypes", List.of("pers"))).size());
    }

    @Test
    void relationsCrossZonesAndMissingEndsAreCreatedUnlessAutoCreateIsOff() {
        ok("create_zone", "name", "test-zone-b", "shortDescription", "B");
        create("default", entity("ExistingEntity", "test"));
        Map<String, Object> r = ok("create_relations", "relations", List.of(args("from", "ExistingEntity", "to", "NonExistentEntity",
                "type", "test_relation"), args("from", "ExistingEntity", "to", "NonExistentEntityInZoneB", "toZone", "test-zone-b",
                "type", "test_relation")), "memory_zone", "default");
        assertEquals(List.of(Map.of("from", "ExistingEntity", "to", "NonExistentEntity", "type", "test_relation", "fromZone", "default",
                "toZone", "default"), Map.of("from", "ExistingEntity", "to", "NonExistentEntityInZoneB", "type", "test_relation",
                "fromZone", "default", "toZone", "test-zone-b")), r.get("relations"));
        Map<String, Object> created = entities(ok("open_nodes", "names", List.of("NonExistentEntityInZoneB"), "memory_zone", "test-zone-b")).get(0);
        assertEquals("unknown", created.get("entityType"));
        String refused = error("create_relations", "relations", List.of(args("from", "ExistingEntity", "to", "Nobody", "type", "x")),
                "memory_zone", "default", "auto_create_missing_entities", false);
        assertTrue(refused.contains("Nobody") && refused.contains("failedRelations"), refused);
        Map<String, Object> opened = ok("open_nodes", "names", List.of("ExistingEntity"), "memory_zone", "default");
        assertEquals(2, ((List<?>) opened.get("relations")).size(), "relations carry both zones: " + opened);
        Map<String, Object> deleted = ok("delete_relations", "relations", List.of(args("from", "ExistingEntity", "to", "NonExistentEntity",
                "type", "test_relation")), "memory_zone", "default");
        assertEquals(true, ((Map<?, ?>) ((List<?>) deleted.get("results")).get(0)).get("deleted"));
    }

    /** A refused item refuses the call before anything is written: no end created, no relation made. */
    @Test
    void aRelationOfTheWrongShapeRefusesTheWholeCallAndWritesNothing() {
        create("default", entity("E1", "test"));
        String refused = error("create_relations", "relations", List.of(args("from", "E1", "to", "E2", "type", "rel"),
                args("from", "E1", "to", 5, "type", "rel")), "memory_zone", "default");
        assertTrue(refused.contains("relations[1].to") && refused.contains("must be a string"), refused);
        assertEquals(List.of(), entities(ok("open_nodes", "names", List.of("E2"), "memory_zone", "default")));
        assertEquals(List.of(), ok("open_nodes", "names", List.of("E1"), "memory_zone", "default").get("relations"));
        ok("create_relations", "relations", List.of(args("from", "E1", "to", "E2", "type", "rel")), "memory_zone", "default");
        String partly = error("delete_relations", "relations", List.of(args("from", "E1", "to", "E2", "type", "rel"),
                args("from", "E1", "type", "rel")), "memory_zone", "default");
        assertTrue(partly.contains("relations[1].to"), partly);
        assertEquals(1, ((List<?>) ok("open_nodes", "names", List.of("E1"), "memory_zone", "default").get("relations")).size(),
                "the first relation was not deleted by a refused call");
    }

    @Test
    void hangulIsFoundByItsWords() {
        create("default", entity("KoreanNote", "note", "Korean 한국어 메모리 and english words zebra"));
        assertEquals(List.of("KoreanNote"), names(search("메모리")));
        assertEquals(List.of("KoreanNote"), names(search("한국어 AND zebra")));
    }

    @Test
    void anEntityTypeIsBoundedLikeAName() {
        String type = "t".repeat(MemoryRules.MAX_CONTENT_CHARS + 1);
        String refused = error("create_entities", "entities", List.of(entity("Typed", type)), "memory_zone", "default");
        assertTrue(refused.contains("entities[0].entityType") && refused.contains("over the limit"), refused);
        create("default", entity("Typed", "person"));
        assertTrue(error("update_entities", "entities", List.of(args("name", "Typed", "entityType", type)), "memory_zone", "default")
                .contains("entityType"));
        assertEquals("person", entities(ok("open_nodes", "names", List.of("Typed"), "memory_zone", "default")).get(0).get("entityType"));
    }

    @Test
    void emptyNamesAreRefusedEverywhere() {
        assertTrue(error("create_entities", "entities", List.of(entity("", "test")), "memory_zone", "default").contains("entities[0].name"));
        assertTrue(error("create_entities", "entities", List.of(entity("   ", "test")), "memory_zone", "default").contains("cannot be empty"));
        assertTrue(error("delete_entities", "names", List.of(""), "memory_zone", "default").contains("[empty]"));
        assertTrue(error("delete_entities", "names", List.of("ok", "  "), "memory_zone", "default").contains("Entity names cannot be empty"));
        create("default", entity("ValidEntity", "test"));
        assertTrue(error("create_relations", "relations", List.of(args("from", "", "to", "ValidEntity", "type", "t")),
                "memory_zone", "default").contains("relations[0].from"));
        assertTrue(error("add_observations", "name", " ", "observations", List.of("x"), "memory_zone", "default").contains("cannot be empty"));
    }

    @Test
    void badInputSaysWhatToSend() {
        assertTrue(error("create_entities", "entities", List.of(entity("a", "t"))).contains("memory_zone is required"));
        assertTrue(error("create_entities", "entities", List.of(args("name", "a")), "memory_zone", "default").contains("entities[0].entityType"));
        assertTrue(error("create_entities", "entities", "not an array", "memory_zone", "default").contains("entities"));
        assertTrue(error("search_nodes", "query", "x", "memory_zone", "default", "reason", "r").contains("informationNeeded"));
        String zone = error("open_nodes", "names", List.of("a"), "memory_zone", "nowhere");
        assertTrue(zone.contains("zone 'nowhere' does not exist") && zone.contains("create_zone"), zone);
        assertTrue(error("add_observations", "name", "ghost", "observations", List.of("x"), "memory_zone", "default")
                .contains("Please create the entity before adding observations."));
        assertTrue(error("mark_important", "name", "ghost", "important", true, "memory_zone", "default").contains("auto_create"));
        assertTrue(error("update_entities", "entities", List.of(args("name", "ghost")), "memory_zone", "default").contains("not found"));
        assertTrue(error("inspect_knowledge_graph", "information_needed", "x", "keywords", List.of()).contains("keywords"));
        assertTrue(error("delete_zone", "name", "x", "confirm", false).contains("Confirmation required"));
        assertTrue(error("verify_entity", "name", "a", "memory_zone", "default", "reviewInterval", 0).contains("1..365"));
        assertTrue(error("search_nodes", "query", "x", "informationNeeded", "i", "reason", "r", "memory_zone", "default",
                "sortBy", "size").contains("relevance, recency or importance"));
        assertTrue(error("create_entities", "entities", List.of(entity("a", "t")), "memory_zone", "default", "colour", "red")
                .contains("colour"));
        create("default", entity("dup", "t"));
        String dup = error("create_entities", "entities", List.of(entity("dup", "t")), "memory_zone", "default");
        assertTrue(dup.contains("\"conflicts\": [\n    \"dup\"\n  ]") && dup.contains("update_entities"), dup);
    }

    @Test
    void markImportantMultipliesWithinBounds() {
        create("default", entity("vip", "Person"));
        double r = 1;
        for (int i = 0; i < 3; i++) {
            Map<?, ?> e = (Map<?, ?>) ok("mark_important", "name", "vip", "important", true, "memory_zone", "default").get("entity");
            r = Math.min(25, r * 10);
            assertEquals(r, ((Number) e.get("relevanceScore")).doubleValue(), 1e-9);
        }
        Map<String, Object> auto = ok("mark_important", "name", "newbie", "important", false, "memory_zone", "default", "auto_create", true);
        assertEquals(true, auto.get("auto_created"));
        assertEquals(0.1, ((Number) ((Map<?, ?>) auto.get("entity")).get("relevanceScore")).doubleValue(), 1e-9);
        assertEquals(List.of("vip", "newbie"), names(search("vip OR newbie", "sortBy", "importance")));
    }

    @Test
    void recentIsByLastRead() {
        create("default", entity("first", "t"), entity("second", "t"));
        clock.advance(Duration.ofMinutes(1));
        ok("open_nodes", "names", List.of("first"), "memory_zone", "default");
        Map<String, Object> recent = ok("get_recent", "memory_zone", "default");
        assertEquals("first", names(recent).get(0));
        assertEquals(2, recent.get("total"));
    }

    /**
     * brain-tools gives the default zone a record at its first start ("Default knowledge zone", kg-client.ts initialize)
     * and list_zones shows it as any other: name, description, created_at, last_modified, usefulness.
     */
    @Test
    void listZonesDescribesAndDatesTheDefaultZone() {
        Map<?, ?> dflt = (Map<?, ?>) ((List<?>) ok("list_zones").get("zones")).get(0);
        assertEquals(List.of("name", "description", "created_at", "last_modified", "entity_count", "usefulness"),
                List.copyOf(dflt.keySet()), dflt.toString());
        assertEquals("default", dflt.get("name"));
        assertEquals("Default knowledge zone", dflt.get("description"));
        assertEquals("2026-12-01T10:00:00.000Z", dflt.get("created_at"), "an empty store is born now");
        assertEquals(dflt.get("created_at"), dflt.get("last_modified"));
        create("default", entity("first", "t"));
        clock.advance(Duration.ofDays(3));
        Map<?, ?> later = (Map<?, ?>) ((List<?>) ok("list_zones").get("zones")).get(0);
        assertEquals("2026-12-01T10:00:00.000Z", later.get("created_at"), "then as old as the store's first memory");
    }

    @Test
    void zonesThroughTheTools() {
        ok("create_zone", "name", "Billing", "description", "the billing service");
        create("billing", entity("invoice-job", "Project", "runs nightly"));
        Map<String, Object> listed = ok("list_zones");
        assertTrue(listed.toString().contains("name=billing") && listed.toString().contains("very useful"), listed.toString());
        Map<String, Object> copied = ok("copy_entities", "names", List.of("invoice-job"), "source_zone", "billing", "target_zone", "default");
        assertEquals(List.of("invoice-job"), copied.get("entities_copied"));
        Map<String, Object> stats = ok("zone_stats", "zone", "default");
        assertEquals(2, stats.get("entity_count"), "invoice-job and its observation, which brain-tools stored as an entity");
        assertEquals(Map.of("Project", 1, "observation", 1), stats.get("entity_types"));
        assertTrue(error("move_entities", "names", List.of("ghost"), "source_zone", "billing", "target_zone", "default")
                .contains("not found in source zone"));
        ok("create_zone", "name", "archive");
        Map<String, Object> merged = ok("merge_zones", "source_zones", List.of("billing"), "target_zone", "archive",
                "delete_source_zones", true, "overwrite_conflicts", "rename");
        assertEquals(List.of("billing"), merged.get("merged_zones"));
        assertEquals(List.of("billing"), merged.get("deleted_zones"), "everything in billing was merged, so it went");
        assertEquals(List.of(), merged.get("kept_zones"));
        ok("delete_zone", "name", "archive", "confirm", true);
        assertTrue(error("zone_stats", "zone", "archive").contains("does not exist"));
    }

    /**
     * brain-tools' mergeZones (kg-client.ts) keeps the sources unless delete_source_zones is true, and then deletes
     * every merged one, even when entities were skipped on a conflict (they are lost). Engram keeps such a zone,
     * says why, and says so in the argument's description.
     */
    @Test
    void mergeZonesKeepsTheSourcesUnlessAskedAndThenWhatWasNotMerged() {
        ok("create_zone", "name", "old");
        ok("create_zone", "name", "new");
        create("old", entity("A", "t", "a1"), entity("Shared", "t", "old fact"));
        create("new", entity("Shared", "t", "new fact"));
        Map<String, Object> kept = ok("merge_zones", "source_zones", List.of("old"), "target_zone", "new");
        assertEquals(List.of("old"), kept.get("merged_zones"));
        assertFalse(kept.containsKey("deleted_zones"), "nothing asked to be deleted: " + kept);
        assertEquals(List.of("A", "Shared"), names(ok("open_nodes", "names", List.of("A", "Shared"), "memory_zone", "old")),
                "brain-tools' default: the source zone stays as it was");
        Map<String, Object> asked = ok("merge_zones", "source_zones", List.of("old"), "target_zone", "new", "delete_source_zones", true);
        assertEquals(List.of(), asked.get("deleted_zones"));
        Map<?, ?> why = (Map<?, ?>) ((List<?>) asked.get("kept_zones")).get(0);
        assertEquals("old", why.get("zone"));
        assertTrue(why.get("reason").toString().contains("skipped on a name conflict"), why.toString());
        List<?> observations = (List<?>) entities(ok("open_nodes", "names", List.of("Shared"), "memory_zone", "old")).get(0).get("observations");
        assertEquals(List.of("Shared: old fact"), observations.stream().map(o -> ((Map<?, ?>) o).get("name")).toList(),
                "the skipped entity is still there, not lost");
        Map<String, Object> schema = profile.tools().stream().filter(t -> t.definition().name().equals("merge_zones")).findFirst()
                .orElseThrow().definition().inputSchema();
        Object described = ((Map<?, ?>) ((Map<?, ?>) schema.get("properties")).get("delete_source_zones")).get("description");
        assertTrue(described.toString().contains("kept and listed in kept_zones"), "the difference is documented: " + described);
    }

    /**
     * brain-tools' zone_stats (kg-client.ts getMemoryZoneStats) counts every entity document of the zone, and its
     * observations are entity documents of type observation (addObservations), so they are counted and typed.
     */
    @Test
    void zoneStatsCountsObservationsAsBrainToolsDid() {
        ok("create_zone", "name", "stats");
        create("stats", entity("api", "Service", "uses REST", "runs on port 8080"), entity("db", "Database"));
        ok("add_observations", "name", "db", "observations", List.of("PostgreSQL 16"), "memory_zone", "stats");
        ok("create_relations", "relations", List.of(args("from", "api", "to", "db", "type", "reads")), "memory_zone", "stats");
        Map<String, Object> stats = ok("zone_stats", "zone", "stats");
        assertEquals(List.of("zone", "entity_count", "relation_count", "entity_types", "relation_types", "observation_count"),
                List.copyOf(stats.keySet()), "brain-tools' fields in its order, then Engram's");
        assertEquals(5, stats.get("entity_count"), "2 entities and 3 observations");
        assertEquals(3, stats.get("observation_count"));
        assertEquals(Map.of("Service", 1, "Database", 1, "observation", 3), stats.get("entity_types"));
        assertEquals(1, stats.get("relation_count"));
        assertEquals(Map.of("reads", 1), stats.get("relation_types"));
    }

    @Test
    void inspectWithoutAModelRanksAndWithOneAnswers() throws Exception {
        create("default", entity("iaptic-server", "Project", "deploys to GKE"), entity("unrelated", "Thing", "nothing"));
        Map<String, Object> plain = ok("inspect_knowledge_graph", "information_needed", "where is it deployed",
                "keywords", List.of("deploys", "GKE"));
        assertEquals(List.of(Map.of("name", "iaptic-server", "entityType", "Project")), plain.get("entities"));
        assertTrue(((String) plain.get("tentativeAnswer")).contains("No model is configured"));
        ChatModel model = new ChatModel() {
            public String complete(ChatPrompt p) {
                prompts.add(p.user());
                return "{\"relevant\": [\"iaptic-server\"], \"tentativeAnswer\": \"On GKE.\"}";
            }
            public String describe() {
                return "fake";
            }
        };
        CallToolResult r = call(profile(Optional.of(model)), "inspect_knowledge_graph", args("information_needed", "where",
                "keywords", List.of("GKE"), "include_entities", true));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        assertTrue(text(r).contains("\"tentativeAnswer\": \"On GKE.\""), text(r));
        assertTrue(prompts.get(0).contains("deploys to GKE"), "the model reads the observations");

        // inspect_files reads only under the server's working directory (here the module's): a directory in target/
        Path work = Files.createDirectories(Path.of("target", "inspect-files-test"));
        Path file = work.resolve("deploy.sh");
        Files.writeString(file, "#!/bin/sh\nset -e\n\n\n\necho build\nkubectl apply -f gke.yaml\necho done\n");
        Map<String, Object> files = ok("inspect_files", "file_paths", List.of(work.toString(), "target/no/such/file"),
                "information_needed", "deploy target", "include_lines", true, "keywords", List.of("kubectl"));
        String shown = files.toString();
        assertTrue(shown.contains("5-8") && shown.contains("7\tkubectl apply -f gke.yaml"), shown);
        assertTrue(shown.contains("no such file or directory"), shown);
    }

    @Test
    void writesRecordTheCallersSessionAndBranch() {
        ToolHandler h = profile.tools().stream().filter(t -> t.definition().name().equals("create_entities")).findFirst().orElseThrow();
        CallToolResult r = ToolAdapter.call(h, args("entities", List.of(entity("traced", "t", "an observation")), "memory_zone", "default"),
                new dev.engram.mcp.tool.Caller("claude-code abc", "feature/x"));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        var e = engine.entities().find("default", "traced").orElseThrow();
        assertEquals("claude-code abc", e.memory().session());
        assertEquals("feature/x", e.observations().get(0).branch());
    }

    @Test
    void theModelComesFromTheSettingsTheCommandLinePassed() throws Exception {
        create("default", entity("iaptic-server", "Project", "deploys to GKE"));
        try (var fake = dev.engram.llm.FakeChatEndpoint.answering(body -> "{\"relevant\": [\"iaptic-server\"], "
                + "\"tentativeAnswer\": \"It runs on GKE.\"}")) {
            var settings = new dev.engram.llm.LlmConfig(java.net.URI.create(fake.baseUrl()), "fake", null, null).toSettings();
            ToolProfile withModel = BrainProfile.create(ProfileContext.of(engine, "default").withSettings(settings), JsonText.standard());
            CallToolResult r = call(withModel, "inspect_knowledge_graph", args("information_needed", "where does it run",
                    "keywords", List.of("GKE")));
            assertTrue(text(r).contains("It runs on GKE."), text(r));
            assertTrue(fake.bodies.get(0).contains("\"model\":\"fake\""), fake.bodies.get(0));
        }
    }

    /** H1: brain-tools' observations were entities named "<parent>: <text>"; that name addresses one observation. */
    @Test
    @SuppressWarnings("unchecked")
    void anObservationIsVerifiedMarkedOpenedAndDeletedByItsOwnName() {
        create("default", entity("bravo", "Project", "bravo note one", "bravo note two", "bravo note three"));
        clock.advance(Duration.ofDays(40));
        Map<String, Object> v = (Map<String, Object>) ok("verify_entity", "name", "bravo: bravo note one", "memory_zone", "default")
                .get("entity");
        assertEquals("bravo: bravo note one", v.get("name"));
        assertEquals(1, v.get("verifyCount"));
        assertEquals(14, v.get("reviewInterval"), "the observation's own 7 days, doubled");
        assertEquals("fresh", v.get("confidence"));
        List<Map<String, Object>> obs = (List<Map<String, Object>>) entities(ok("open_nodes", "names", List.of("bravo"),
                "memory_zone", "default")).get(0).get("observations");
        assertEquals(Map.of("name", "bravo: bravo note one", "confidence", "fresh"), obs.get(0), "its review clock was refreshed");
        assertEquals(true, obs.get(1).get("needsReview"), "the other observations keep theirs");
        assertEquals(0, engine.entities().find("default", "bravo").orElseThrow().memory().verifyCount(), "the parent is not verified");

        Map<String, Object> marked = (Map<String, Object>) ok("mark_important", "name", "bravo: bravo note two", "important", true,
                "memory_zone", "default").get("entity");
        assertEquals("bravo: bravo note two", marked.get("name"));
        assertEquals("observation", marked.get("entityType"));
        assertEquals(10.0, ((Number) marked.get("relevanceScore")).doubleValue(), 1e-9);

        List<Map<String, Object>> opened = entities(ok("open_nodes", "names", List.of("bravo: bravo note one", "ghost: x"),
                "memory_zone", "default"));
        assertEquals(1, opened.size());
        assertEquals("bravo: bravo note one", opened.get(0).get("name"));
        assertEquals("observation", opened.get(0).get("entityType"));
        assertEquals("fresh", opened.get(0).get("confidence"));
        assertEquals(1L, engine.entities().find("default", "bravo").orElseThrow().observations().get(0).accessCount(),
                "opening an observation reads it, as opening an entity does");

        Map<String, Object> deleted = ok("delete_entities", "names", List.of("bravo: bravo note three", "bravo: never said"),
                "memory_zone", "default");
        assertEquals(List.of(Map.of("name", "bravo: bravo note three", "deleted", true),
                Map.of("name", "bravo: never said", "deleted", false)), deleted.get("results"));
        assertEquals(List.of("bravo note one", "bravo note two"),
                engine.entities().find("default", "bravo").orElseThrow().observationTexts(), "only that observation went");
        assertTrue(error("verify_entity", "name", "bravo: bravo note three", "memory_zone", "default").contains("not found"));
    }

    /** H1 / L4: add_observations saves a text sent again, as brain-tools' saveEntity did, and lists every text sent. */
    @Test
    void addObservationsSavesATextSentAgainAndListsEveryText() {
        create("default", entity("charlie", "Project", "runs on GKE"));
        clock.advance(Duration.ofDays(20));
        Map<String, Object> added = ok("add_observations", "name", "charlie", "observations", List.of("runs on GKE", "uses Redis"),
                "reviewInterval", 30, "memory_zone", "default");
        assertEquals(List.of("charlie: runs on GKE", "charlie: uses Redis"), added.get("observations_created"));
        var observations = engine.entities().find("default", "charlie").orElseThrow().observations();
        assertEquals(2, observations.size(), "the text is not stored twice");
        assertEquals(30, observations.get(0).reviewIntervalDays(), "it takes the interval sent");
        assertEquals(clock.instant(), observations.get(0).updatedAt(), "its last write is now");
        assertEquals("normal", ((Map<?, ?>) ((List<?>) entities(ok("open_nodes", "names", List.of("charlie"), "memory_zone", "default"))
                .get(0).get("observations")).get(0)).get("confidence"), "1 - 20/30: its verification was kept (not fresh), only the interval changed (not stale)");
        String blank = error("add_observations", "name", "charlie", "observations", List.of("", "  "), "memory_zone", "default");
        assertTrue(blank.contains("only blank texts") && !blank.contains("is empty"), blank);
        create("default", entity("delta", "Project", "", "kept"));
        assertEquals(List.of("kept"), engine.entities().find("default", "delta").orElseThrow().observationTexts(),
                "create_entities leaves blank texts out too");
        Map<String, Object> twice = ok("create_entities", "entities", List.of(entity("echo", "A", "one"), entity("echo", "B", "two")),
                "memory_zone", "default");
        assertEquals(List.of(Map.of("name", "echo", "entityType", "A"), Map.of("name", "echo", "entityType", "B")), twice.get("entities"),
                "one entry per item sent, as brain-tools");
        var echo = engine.entities().find("default", "echo").orElseThrow();
        assertEquals("B", echo.entityType(), "the later item was saved over the earlier");
        assertEquals(List.of("one", "two"), echo.observationTexts());
    }

    /** M5 / M4: a search is no read (only open_nodes is), and sortBy recency (or brain-tools' 'recent') orders by last read. */
    @Test
    void searchesAreNoReadsAndRecencyOrdersByLastRead() {
        create("default", entity("Bravo", "thing", "shared marker"));
        clock.advance(Duration.ofMinutes(1));
        create("default", entity("Charlie", "thing", "shared marker"));
        clock.advance(Duration.ofMinutes(1));
        create("default", entity("Alpha", "thing", "shared marker alpha marker"));
        clock.advance(Duration.ofMinutes(1));
        ok("open_nodes", "names", List.of("Charlie"), "memory_zone", "default");
        clock.advance(Duration.ofMinutes(1));
        List<Object> before = names(ok("get_recent", "memory_zone", "default"));
        search("Bravo");
        search("marker", "sortBy", "importance");
        assertEquals(before, names(ok("get_recent", "memory_zone", "default")), "searching reordered get_recent");
        assertEquals(0, engine.entities().find("default", "Bravo").orElseThrow().memory().accessCount());
        assertEquals(List.of("Charlie", "Alpha", "Bravo"), names(search("marker", "sortBy", "recency")),
                "last read first; never read counts from its creation");
        assertEquals(List.of("Charlie", "Alpha", "Bravo"), names(search("marker", "sortBy", "recent")));
    }

    /** M10: includeObservations adds brain-tools' lastWrite and lastRead. */
    @Test
    void searchWithObservationsCarriesLastWriteAndLastRead() {
        create("default", entity("echo", "thing", "an echo"));
        Map<String, Object> e = entities(search("echo", "includeObservations", true)).get(0);
        assertEquals("2026-12-01T10:00:00.000Z", e.get("lastWrite"));
        assertEquals("2026-12-01T10:00:00.000Z", e.get("lastRead"));
        assertFalse(entities(search("echo")).get(0).containsKey("lastRead"), "only with observations, as brain-tools");
    }

    /** L1, M6: queries with no token, and blank ones, find nothing; a bare * still lists the zone. */
    @Test
    void aQueryWithNoTokenFindsNothing() {
        create("default", entity("fresh-one", "thing", "some text"), entity("fresh-two", "thing", "more text"));
        for (String q : List.of("%", "_", "?", "#", "-", "...", "{}", "*:*", "AND", "(((", "\"", "\"\"", "", "   ")) {
            Map<String, Object> r = search(q);
            assertEquals(List.of(), r.get("entities"), "query " + q);
            assertEquals(List.of(), r.get("relations"), "query " + q);
        }
        assertEquals(2, names(search("*")).size());
        assertEquals(List.of("fresh-two"), names(search("NOT some")), "a negation alone still filters the zone");
    }

    /** M6: what brain-tools accepts. */
    @Test
    void callsBrainToolsAcceptsAreAccepted() {
        ok("create_zone", "name", "ops", "shortDescription", "Ops", "description", "first");
        assertEquals(Map.of("success", true, "zone", "ops", "message", "Zone \"ops\" created successfully"),
                ok("create_zone", "name", "ops", "description", "second", "config", Map.of()));
        String listed = ok("list_zones").toString();
        assertTrue(listed.contains("description=second") && listed.contains("shortDescription=Ops"), listed);
        assertEquals(Map.of("success", true, "message", "Zone \"gone\" deleted successfully"),
                ok("delete_zone", "name", "gone", "confirm", true, "force", true));
        ok("zone_stats", "zone", "default", "verbose", true);
        create("default", args("name", "scored", "entityType", "t", "relevanceScore", 5));
        assertEquals(5, engine.entities().find("default", "scored").orElseThrow().memory().relevance(), 1e-9);
        ok("update_entities", "entities", List.of(args("name", "scored", "relevanceScore", 2.5)), "memory_zone", "default");
        assertEquals(2.5, engine.entities().find("default", "scored").orElseThrow().memory().relevance(), 1e-9);
        assertTrue(error("create_entities", "entities", List.of(args("name", "s2", "entityType", "t", "relevanceScore", "high")),
                "memory_zone", "default").contains("entities[0].relevanceScore must be a number"));
        assertTrue(error("create_entities", "entities", List.of(args("name", "s2", "entityType", "t", "relevanceScore", 100)),
                "memory_zone", "default").contains("0.01 to 25"));
        ok("create_zone", "name", "ops2");
        ok("copy_entities", "names", List.of("scored"), "source_zone", "default", "target_zone", "ops", "note", "x");
        ok("move_entities", "names", List.of("scored"), "source_zone", "ops", "target_zone", "ops2", "note", "x");
        ok("merge_zones", "source_zones", List.of("ops2"), "target_zone", "ops", "note", "x");
        create("default", entity("many", "t"));
        assertEquals(2, names(ok("get_recent", "memory_zone", "default", "limit", 0)).size(), "limit 0 is the default");
        assertEquals(2, names(search("*", "limit", 0)).size());
        assertTrue(error("get_recent", "memory_zone", "default", "limit", -1).contains("limit"));
        assertTrue(error("create_entities", "entities", List.of(entity("a", "t")), "memory_zone", "default", "colour", "red")
                .contains("colour"), "tools with a closed brain-tools schema still refuse unknown arguments");
    }

    /** L3: the defaults brain-tools' schemas declare. */
    @Test
    @SuppressWarnings("unchecked")
    void theSchemasDeclareBrainToolsDefaults() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("delete_entities.cascade_relations", true);
        expected.put("create_relations.auto_create_missing_entities", true);
        expected.put("search_nodes.includeObservations", false);
        expected.put("get_recent.includeObservations", false);
        expected.put("mark_important.auto_create", false);
        expected.put("delete_zone.confirm", false);
        expected.put("copy_entities.copy_relations", true);
        expected.put("copy_entities.overwrite", false);
        expected.put("move_entities.move_relations", true);
        expected.put("move_entities.overwrite", false);
        expected.put("merge_zones.delete_source_zones", false);
        expected.put("merge_zones.overwrite_conflicts", "skip");
        expected.forEach((where, value) -> {
            String[] parts = where.split("\\.");
            Map<String, Object> schema = profile.tools().stream().filter(t -> t.definition().name().equals(parts[0])).findFirst()
                    .orElseThrow().definition().inputSchema();
            Map<String, Object> p = ((Map<String, Map<String, Object>>) schema.get("properties")).get(parts[1]);
            assertEquals(value, p.get("default"), where);
        });
        for (String open : List.of("create_zone", "delete_zone", "copy_entities", "move_entities", "merge_zones", "zone_stats")) {
            assertFalse(profile.tools().stream().filter(t -> t.definition().name().equals(open)).findFirst().orElseThrow()
                    .definition().inputSchema().containsKey("additionalProperties"), open + ": brain-tools' schema is open");
        }
    }

    @Test
    void aWrongShapeIsAnsweredWithTheJsonToSendNotJavasMapSyntax() {
        String message = error("create_entities", "entities", "x", "memory_zone", "default");
        assertTrue(message.contains("\"name\":\"iaptic-server\"") && !message.contains("name="), message);
    }
}
