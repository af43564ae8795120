package dev.engram.mcp.profile.brain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.Relation;
import dev.engram.error.EngramUserException;
import dev.engram.error.StoreException;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import dev.engram.testing.FailingStore;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
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
    void perZoneFilesImportedOneAfterAnotherEndWithTheRealEntity() {
        // admin-cli export, one zone per file: default.jsonl names work/billing only as a relation end
        String defaultZone = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"iaptic-server\",\"entityType\":\"Project\",\"zone\":\"default\"}",
                "{\"type\":\"relation\",\"from\":\"iaptic-server\",\"fromZone\":\"default\",\"to\":\"billing\",\"toZone\":\"work\",\"relationType\":\"contains\"}");
        String work = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"billing\",\"entityType\":\"Component\",\"zone\":\"work\",\"reviewInterval\":14,"
                        + "\"verifiedAt\":\"2026-12-04T14:45:54.266Z\",\"readCount\":3,\"relevanceScore\":2,\"lastWrite\":\"2026-12-04T14:45:54.266Z\"}",
                "{\"type\":\"entity\",\"name\":\"billing: handles Stripe webhooks\",\"entityType\":\"observation\",\"zone\":\"work\"}",
                "{\"type\":\"relation\",\"from\":\"iaptic-server\",\"fromZone\":\"default\",\"to\":\"billing\",\"toZone\":\"work\",\"relationType\":\"contains\"}");
        BrainData.Summary first = BrainData.importInto(engine, BrainData.parse(defaultZone, "default", json), false);
        assertEquals(1, first.placeholders(), first.describe(false));
        BrainData.Summary dry = BrainData.importInto(engine, BrainData.parse(work, "default", json), true);
        assertTrue(dry.describe(true).contains("1 placeholders filled"), dry.describe(true));
        assertEquals("unknown", engine.entities().find("work", "billing").orElseThrow().entityType(), "a dry run writes nothing");
        BrainData.Summary second = BrainData.importInto(engine, BrainData.parse(work, "default", json), false);
        assertTrue(second.describe(false).contains("0 new entities, 0 existing") && second.describe(false).contains("1 placeholders filled"),
                second.describe(false));
        var billing = engine.entities().find("work", "billing").orElseThrow();
        assertEquals("Component", billing.entityType());
        assertEquals(14, billing.memory().reviewIntervalDays());
        assertEquals(java.time.Instant.parse("2026-12-04T14:45:54.266Z"), billing.memory().lastVerifiedAt());
        assertEquals(3, billing.memory().accessCount());
        assertEquals(2.0, billing.memory().relevance(), 1e-9);
        assertEquals(List.of("handles Stripe webhooks"), billing.observationTexts());
        assertEquals(List.of(new Relation("default", "iaptic-server", "work", "billing", "contains")),
                engine.entities().read("work").relations());
    }

    @Test
    void everyFieldTheFileHoldsIsKept() {
        String backup = """
                {"entities": [
                  {"type": "entity", "name": "iaptic-server", "entityType": "Project", "zone": "default", "reviewInterval": 30,
                   "lastWrite": "2026-11-20T00:00:00.000Z", "verifiedAt": "2026-11-21T00:00:00.000Z"},
                  {"type": "entity", "name": "iaptic-server: uses TypeScript", "entityType": "observation", "zone": "default",
                   "reviewInterval": 7, "verifiedAt": "2026-11-01T00:00:00.000Z", "verifyCount": 1, "lastWrite": "2026-11-01T00:00:00.000Z"},
                  {"type": "entity", "name": "Legacy Thing", "entityType": "Concept", "observations": ["old"], "isImportant": true},
                  {"type": "entity", "name": "Plain Thing", "entityType": "Concept", "isImportant": false}
                 ],
                 "relations": [{"type": "relation", "from": "iaptic-server: uses TypeScript", "fromZone": "default",
                   "to": "iaptic-server", "toZone": "default", "relationType": "is_observation_of"}],
                 "zones": [
                   {"name": "default", "description": "Default knowledge zone", "createdAt": "2026-08-29T14:45:54.266Z",
                    "lastModified": "2026-12-06T14:45:54.266Z"},
                   {"name": "emptyzone", "description": "A zone with nothing in it", "createdAt": "2026-11-27T14:45:54.266Z",
                    "lastModified": "2026-11-28T14:45:54.266Z"}]}""";
        BrainData.importInto(engine, BrainData.parse(backup, "default", json), false);
        var iaptic = engine.entities().find("default", "iaptic-server").orElseThrow();
        assertEquals(java.time.Instant.parse("2026-11-20T00:00:00Z"), iaptic.memory().updatedAt(), "lastWrite: daysSinceLastWrite counts from it");
        assertEquals(30, iaptic.memory().reviewIntervalDays());
        var typescript = iaptic.observations().get(0);
        assertEquals(7, typescript.reviewIntervalDays(), "the observation's own interval, not its entity's 30");
        assertEquals(java.time.Instant.parse("2026-11-01T00:00:00Z"), typescript.lastVerifiedAt(), "and its own review clock");
        assertEquals(1, typescript.verifyCount());
        assertEquals(10, engine.entities().find("default", "Legacy Thing").orElseThrow().memory().relevance(), 1e-9,
                "the old format's isImportant is relevance 10, as json-to-es reads it");
        assertEquals(1, engine.entities().find("default", "Plain Thing").orElseThrow().memory().relevance(), 1e-9);
        var zones = engine.zoneAdmin().list();
        var dflt = zones.stream().filter(z -> z.name().equals("default")).findFirst().orElseThrow();
        assertEquals("Default knowledge zone", dflt.description());
        assertEquals(java.time.Instant.parse("2026-08-29T14:45:54.266Z"), dflt.createdAt());
        var empty = zones.stream().filter(z -> z.name().equals("emptyzone")).findFirst().orElseThrow();
        assertEquals("A zone with nothing in it", empty.description());
        assertEquals(java.time.Instant.parse("2026-11-27T14:45:54.266Z"), empty.createdAt());
        assertEquals(java.time.Instant.parse("2026-11-28T14:45:54.266Z"), empty.updatedAt());
    }

    @Test
    void aZoneNameEngramCannotHoldIsMappedAndTheOriginalKept() {
        String file = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"K1\",\"entityType\":\"T\",\"zone\":\"개인\",\"observations\":[]}",
                "{\"type\":\"entity\",\"name\":\"W1\",\"entityType\":\"T\",\"zone\":\"Work\",\"observations\":[]}",
                "{\"type\":\"relation\",\"from\":\"W1\",\"fromZone\":\"Work\",\"to\":\"K1\",\"toZone\":\"개인\",\"relationType\":\"knows\"}");
        BrainData.Parsed parsed = BrainData.parse(file, "default", json);
        BrainData.Summary s = BrainData.importInto(engine, parsed, false);
        String mapped = engine.zoneAdmin().list().stream().map(z -> z.name()).filter(n -> n.startsWith("zone-")).findFirst()
                .orElseThrow(() -> new AssertionError(s.describe(false)));
        assertTrue(mapped.matches("zone-[0-9a-f]{6}"), mapped);
        Engine other = TestEngines.inMemory(Clock.systemUTC());
        BrainData.importInto(other, BrainData.parse(file, "default", json), false);
        assertTrue(other.entities().find(mapped, "K1").isPresent(), "the same name, the same zone");
        assertTrue(s.describe(false).contains("zone '개인' became '" + mapped + "'"), s.describe(false));
        assertTrue(engine.entities().find(mapped, "K1").isPresent());
        assertEquals(List.of(new Relation("work", "W1", mapped, "K1", "knows")), engine.entities().read("work").relations());
        var zone = engine.zoneAdmin().list().stream().filter(z -> z.name().equals(mapped)).findFirst().orElseThrow();
        assertEquals("개인", zone.shortDescription(), "the original name stays readable");
    }

    /**
     * brain-tools' json-to-es logs a line it cannot parse and imports the rest (src/json-to-es.ts, the catch in its
     * line loop); Engram skips each unusable line too, and names it in the summary.
     */
    @Test
    void malformedLinesAreSkippedNamedByLineAndTheRestImported() {
        String file = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"P\",\"entityType\":\"project\",\"observations\":[\"ships weekly\"]}",
                "not json",
                "[1, 2]",
                "{\"type\":\"thing\",\"name\":\"x\"}",
                "",
                "{\"type\":\"entity\",\"name\":\"  \"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"relationType\":\"uses\"}",
                "{\"type\":\"entity\",\"name\":\"Q\",\"entityType\":\"project\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"Q\",\"relationType\":\"uses\"}",
                "{\"entityType\":\"project\"}");
        BrainData.Parsed parsed = BrainData.parse(file, "default", json);
        List<String> skipped = parsed.skipped();
        assertEquals(6, skipped.size(), skipped.toString());
        assertTrue(skipped.get(0).startsWith("line 2: not JSON"), skipped.get(0));
        assertTrue(skipped.get(1).startsWith("line 3: not JSON"), skipped.get(1));
        assertEquals("line 4: \"type\" is \"thing\", neither \"entity\" nor \"relation\"", skipped.get(2));
        assertEquals("line 6: \"name\" must be a non-empty string", skipped.get(3));
        assertEquals("line 7: \"to\" must be a non-empty string", skipped.get(4));
        assertEquals("line 10: \"type\" is missing, neither \"entity\" nor \"relation\"", skipped.get(5));
        BrainData.Summary s = BrainData.importInto(engine, parsed, false);
        assertEquals(2, s.entitiesCreated(), s.describe(false));
        assertEquals(1, s.observationsAdded());
        assertEquals(1, s.relationsCreated());
        assertEquals(List.of("ships weekly"), engine.entities().find("default", "P").orElseThrow().observationTexts());
        assertEquals(List.of(new Relation("default", "P", "default", "Q", "uses")), engine.entities().read("default").relations());
        assertTrue(s.describe(false).endsWith("; 6 line(s) skipped (" + String.join("; ", skipped.subList(0, 5)) + "; and 1 more)"),
                s.describe(false));
    }

    @Test
    void aBackupSkipsItsUnusableItemsByPositionButNotAMisshapenArray() {
        String backup = """
                {"entities": [{"type": "entity", "name": "Kafka", "entityType": "Tool"}, 7, {"type": "entity", "entityType": "Tool"}],
                 "relations": [{"type": "relation", "from": "Kafka", "to": "Kafka", "relationType": "mirrors"}],
                 "zones": [{"description": "no name"}]}""";
        BrainData.Parsed parsed = BrainData.parse(backup, "default", json);
        assertEquals(List.of("entities[1]: not a JSON object", "entities[2]: \"name\" must be a non-empty string",
                "relations[0]: 'Kafka' -mirrors-> itself; Engram keeps relations between two different entities (record it as an"
                        + " observation instead)", "zones[0]: \"name\" must be a non-empty string"), parsed.skipped());
        BrainData.Summary s = BrainData.importInto(engine, parsed, false);
        assertEquals(1, s.entitiesCreated());
        assertTrue(s.describe(false).contains("; 4 item(s) skipped (entities[1]: not a JSON object; "), s.describe(false));
        var e = assertThrows(EngramUserException.class, () -> BrainData.parse("{\"entities\": {\"name\": \"x\"}}", "default", json));
        assertEquals("\"entities\" must be an array", e.getMessage());
    }

    /** Zones, entities and relations are one write: a store failing part-way leaves nothing of the file behind. */
    @Test
    void aStoreFailurePartWayImportsNothing() {
        InMemoryMemoryStore real = new InMemoryMemoryStore();
        MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
        Engine failing = new Engine(FailingStore.onCommitInserting(real, m -> "Q".equals(m.name())), new InMemorySearchIndex(real), clock);
        String backup = """
                {"entities": [{"type": "entity", "name": "P", "entityType": "project", "zone": "first"},
                              {"type": "entity", "name": "Q", "entityType": "project", "zone": "second"}],
                 "relations": [{"type": "relation", "from": "P", "fromZone": "first", "to": "Q", "toZone": "second", "relationType": "uses"}],
                 "zones": [{"name": "first", "description": "the first zone"}]}""";
        var e = assertThrows(StoreException.class, () -> BrainData.importInto(failing, BrainData.parse(backup, "default", json), false));
        assertTrue(e.getMessage().contains("disk full") && e.getMessage().contains("nothing was imported"), e.getMessage());
        assertEquals(0, real.count(), "not the first zone's entity either");
        assertTrue(real.zoneInfo("first").isEmpty(), "nor the zone records");
        Engine healthy = new Engine(real, new InMemorySearchIndex(real), clock);
        BrainData.Summary s = BrainData.importInto(healthy, BrainData.parse(backup, "default", json), false);
        assertEquals(2, s.entitiesCreated(), "the same file again imports everything: " + s.describe(false));
        assertEquals(1, s.relationsCreated());
    }

    @Test
    void aSecondImportKeepsTheStampsOfEntitiesThatExistAlready() {
        BrainData.importInto(engine, BrainData.parse(JSONL, "default", json), false);
        engine.entities().verify("projecta", "John Smith", null);
        engine.entities().markImportant("projecta", "John Smith", false);
        var before = engine.entities().find("projecta", "John Smith").orElseThrow().memory();
        BrainData.importInto(engine, BrainData.parse(JSONL, "default", json), false);
        var after = engine.entities().find("projecta", "John Smith").orElseThrow().memory();
        assertEquals(3, after.verifyCount(), "not reset to the file's 2");
        assertEquals(before.lastVerifiedAt(), after.lastVerifiedAt());
        assertEquals(before.relevance(), after.relevance(), 1e-9);
        assertEquals(before.accessCount(), after.accessCount());
    }

    @Test
    void aDryRunCountsThePlaceholdersTheRealRunCreates() {
        String file = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"P\",\"entityType\":\"project\"}",
                "{\"type\":\"entity\",\"name\":\"Q\",\"entityType\":\"project\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"Q\",\"relationType\":\"uses\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"Ghost\",\"relationType\":\"uses\"}",
                "{\"type\":\"relation\",\"from\":\"Q\",\"to\":\"Ghost\",\"toZone\":\"default\",\"relationType\":\"uses\"}");
        BrainData.Summary dry = BrainData.importInto(engine, BrainData.parse(file, "default", json), true);
        BrainData.Summary real = BrainData.importInto(engine, BrainData.parse(file, "default", json), false);
        assertEquals(1, real.placeholders(), real.describe(false));
        assertEquals(real.placeholders(), dry.placeholders(), dry.describe(true));
        assertEquals(real.relationsCreated(), dry.relationsCreated());
        assertEquals(real.describe(false).replace("imported", ""), dry.describe(true).replace("would import", ""));
    }

    @Test
    void aSelfRelationIsSkippedNamingItsLine() {
        String file = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"P\",\"entityType\":\"project\"}",
                "{\"type\":\"entity\",\"name\":\"Q\",\"entityType\":\"project\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"P\",\"relationType\":\"extends\"}",
                "{\"type\":\"relation\",\"from\":\"P\",\"to\":\"Q\",\"relationType\":\"uses\"}");
        BrainData.Parsed parsed = BrainData.parse(file, "default", json);
        assertEquals(1, parsed.skipped().size());
        assertTrue(parsed.skipped().get(0).startsWith("line 3: ") && parsed.skipped().get(0).contains("itself"),
                parsed.skipped().get(0));
        BrainData.Summary s = BrainData.importInto(engine, parsed, false);
        assertEquals(2, s.entitiesCreated());
        assertEquals(1, s.relationsCreated());
    }

    @Test
    void anItemTheGraphRefusesStopsTheImportBeforeAnyWrite() {
        String file = String.join("\n",
                "{\"type\":\"entity\",\"name\":\"P\",\"entityType\":\"project\",\"zone\":\"first\"}",
                "{\"type\":\"entity\",\"name\":\"Q\",\"entityType\":\"project\",\"zone\":\"second\",\"observations\":[\""
                        + "x".repeat(9000) + "\"]}");
        var e = assertThrows(EngramUserException.class, () -> BrainData.importInto(engine, BrainData.parse(file, "default", json), false));
        assertTrue(e.getMessage().contains("nothing was imported"), e.getMessage());
        assertTrue(engine.entities().find("first", "P").isEmpty());
        assertFalse(engine.zoneAdmin().exists("first"), "not even the zones were created");
    }
}
