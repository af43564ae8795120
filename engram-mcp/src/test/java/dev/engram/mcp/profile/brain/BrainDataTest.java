package dev.engram.mcp.profile.brain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.Relation;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Importing brain-tools' JSONL export and backup JSON: names that are not slugs, Korean, cross-zone relations. */
class BrainDataTest {
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private final JsonText json = JsonText.standard();

    private static final String JSONL = String.join("\n",
            "{\"type\":\"entity\",\"name\":\"John Smith\",\"entityType\":\"Person\",\"observations\":[],\"zone\":\"ProjectA\",\"reviewInterval\":30,\"relevanceScore\":10,\"verifyCount\":2,\"verifiedAt\":\"2025-01-01T00:00:00.000Z\",\"readCount\":5,\"lastRead\":\"2025-02-01T00:00:00.000Z\"}",
            "{\"type\":\"entity\",\"name\":\"John Smith: prefers tabs\",\"entityType\":\"observation\",\"zone\":\"ProjectA\"}",
            "{\"type\":\"entity\",\"name\":\"John Smith: works remotely\",\"entityType\":\"Observation\",\"zone\":\"ProjectA\"}",
            "{\"type\":\"relation\",\"from\":\"John Smith: prefers tabs\",\"fromZone\":\"ProjectA\",\"to\":\"John Smith\",\"toZone\":\"ProjectA\",\"relationType\":\"is_observation_of\"}",
            "",
            "{\"type\":\"entity\",\"name\":\"한국어 주제\",\"entityType\":\"Concept\",\"observations\":[\"legacy array observation\"]}",
            "{\"type\":\"entity\",\"name\":\"iaptic-server\",\"entityType\":\"Project\",\"zone\":\"projectb\"}",
            "{\"type\":\"relation\",\"from\":\"John Smith\",\"fromZone\":\"projecta\",\"to\":\"iaptic-server\",\"toZone\":\"projectb\",\"relationType\":\"works_on\"}",
            "{\"type\":\"relation\",\"from\":\"한국어 주제\",\"to\":\"Nobody Yet\",\"relationType\":\"mentions\"}");

    @Test
    void jsonlBecomesEntitiesWithObservationsAndCrossZoneRelations() {
        BrainData.Summary s = BrainData.importInto(engine, BrainData.parse(JSONL, "default", json), false);
        assertEquals(3, s.entitiesCreated(), s.describe(false));
        assertEquals(3, s.observationsAdded());
        assertEquals(2, s.relationsCreated());
        assertEquals(1, s.placeholders(), "Nobody Yet is created as unknown");
        assertEquals(2, s.zonesCreated());
        var john = engine.entities().find("projecta", "John Smith").orElseThrow();
        assertEquals("Person", john.entityType());
        assertEquals(List.of("prefers tabs", "works remotely"), john.observationTexts());
        assertEquals(30, john.memory().reviewIntervalDays());
        assertEquals(10, john.memory().relevance(), 1e-9);
        assertEquals(2, john.memory().verifyCount());
        assertEquals(java.time.Instant.parse("2025-01-01T00:00:00Z"), john.memory().lastVerifiedAt(), "a stale entity stays stale");
        assertEquals(5, john.memory().accessCount());
        assertEquals(dev.engram.rank.FreshnessLabel.ARCHIVAL,
                dev.engram.rank.Freshness.of(john.memory(), java.time.Instant.now()).label());
        assertEquals(List.of("legacy array observation"), engine.entities().find("default", "한국어 주제").orElseThrow().observationTexts());
        assertTrue(engine.entities().read("projecta").relations()
                .contains(new Relation("projecta", "John Smith", "projectb", "iaptic-server", "works_on")));
        assertEquals("unknown", engine.entities().find("default", "Nobody Yet").orElseThrow().entityType());
        BrainData.Summary again = BrainData.importInto(engine, BrainData.parse(JSONL, "default", json), false);
        assertEquals(0, again.entitiesCreated(), "a second import adds nothing: " + again.describe(false));
        assertEquals(0, again.observationsAdded());
        assertEquals(0, again.relationsCreated());
    }

    @Test
    void backupJsonCarriesZoneDescriptions() {
        String backup = """
                {
                  "entities": [
                    {"type": "entity", "name": "Kafka cluster", "entityType": "Tool", "zone": "infra", "observations": ["3 brokers"]}
                  ],
                  "relations": [],
                  "zones": [{"name": "infra", "shortDescription": "Infra", "description": "Servers and clusters", "createdAt": "2025-01-01T00:00:00Z"}]
                }""";
        BrainData.Summary dry = BrainData.importInto(engine, BrainData.parse(backup, "default", json), true);
        assertEquals(1, dry.entitiesCreated());
        assertTrue(engine.entities().find("infra", "Kafka cluster").isEmpty(), "a dry run writes nothing");
        BrainData.importInto(engine, BrainData.parse(backup, "default", json), false);
        assertEquals(List.of("3 brokers"), engine.entities().find("infra", "Kafka cluster").orElseThrow().observationTexts());
        var infra = engine.zoneAdmin().list().stream().filter(z -> z.name().equals("infra")).findFirst().orElseThrow();
        assertEquals("Servers and clusters", infra.description());
        assertEquals("Infra", infra.shortDescription());
    }

    @Test
    void malformedFilesAreRefusedNamingTheLine() {
        var e = assertThrows(EngramUserException.class, () -> BrainData.parse("{\"type\":\"entity\",\"name\":\"a\"}\nnot json", "default", json));
        assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
        var t = assertThrows(EngramUserException.class, () -> BrainData.parse("{\"type\":\"thing\"}\n{\"type\":\"entity\"}", "default", json));
        assertTrue(t.getMessage().contains("\"type\" must be"), t.getMessage());
        var n = assertThrows(EngramUserException.class, () -> BrainData.parse("{\"type\":\"entity\",\"name\":\"  \"}\n", "default", json));
        assertTrue(n.getMessage().contains("\"name\" must be a non-empty string"), n.getMessage());
    }
}
