package dev.engram.engine.zone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.engine.graph.MissingEndpoint;
import dev.engram.engine.graph.Relation;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.error.ConflictException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * brain-tools' zone management and cross-zone relation behaviours (tests/cross-zone-relations.test.ts,
 * tests/test-zone-management.js, tests/test-cross-zone.js) on {@link ZoneOperation}.
 */
class ZoneOperationTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final EntityGraph graph = engine.entities();
    private final ZoneOperation zones = engine.zoneAdmin();

    @BeforeEach
    void seed() {
        zones.create("test-zone-a", "Zone A", "Test zone A for unit tests");
        zones.create("test-zone-b", "Zone B", null);
        graph.create("test-zone-a", List.of(
                new EntityDraft("TestEntityA1", "test", List.of("This is a test entity in zone A", "It has multiple observations")),
                new EntityDraft("TestEntityA2", "person", List.of("John likes coffee and programming"))), ExistingEntity.MERGE);
        graph.create("test-zone-b", List.of(new EntityDraft("TestEntityB1", "test", List.of("In zone B"))), ExistingEntity.MERGE);
        graph.relate("test-zone-a", List.of(new RelationDraft("test-zone-a", "TestEntityA1", "test-zone-b", "TestEntityB1", "related_to"),
                RelationDraft.of("TestEntityA1", "TestEntityA2", "knows")), MissingEndpoint.FAIL);
    }

    @Test
    void createListAndStatsCarryDescriptionsAndCounts() {
        List<ZoneSummary> listed = zones.list();
        assertEquals(List.of("default", "test-zone-a", "test-zone-b"), listed.stream().map(ZoneSummary::name).toList());
        ZoneSummary a = listed.get(1);
        assertEquals("Zone A", a.shortDescription());
        assertEquals("Test zone A for unit tests", a.description());
        assertEquals(2, a.entities());
        assertEquals(5, a.memories(), "2 entities + 3 observations");
        ZoneStats stats = zones.stats("test-zone-a");
        assertEquals(2, stats.entityCount());
        assertEquals(3, stats.observationCount());
        assertEquals(2, stats.relationCount());
        assertEquals(Map.of("test", 1, "person", 1), stats.entityTypes());
        assertEquals(Map.of("related_to", 1, "knows", 1), stats.relationTypes());
    }

    @Test
    void creatingTheDefaultOrAnExistingZoneIsRefused() {
        assertThrows(InvalidArgumentException.class, () -> zones.create("default", null, null));
        assertThrows(ConflictException.class, () -> zones.create("test-zone-a", null, null));
        assertThrows(InvalidArgumentException.class, () -> zones.create("Bad Zone!", null, null));
        var e = assertThrows(NotFoundException.class, () -> zones.stats("nowhere"));
        assertTrue(e.getMessage().contains("create_zone") && e.getMessage().contains("test-zone-a"), e.getMessage());
    }

    @Test
    void deleteNeedsConfirmationAndTakesEverythingWithIt() {
        var e = assertThrows(InvalidArgumentException.class, () -> zones.delete("test-zone-b", false));
        assertTrue(e.getMessage().contains("\"confirm\": true"), e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> zones.delete("default", true));
        assertEquals(2, zones.delete("test-zone-b", true));
        assertFalse(zones.exists("test-zone-b"));
        assertTrue(graph.find("test-zone-b", "TestEntityB1").isEmpty());
        assertEquals(List.of("knows"), graph.read("test-zone-a").relations().stream().map(Relation::type).toList(),
                "the cross-zone relation went with its end");
        assertThrows(NotFoundException.class, () -> zones.delete("test-zone-b", true));
        assertTrue(store.write(tx -> tx.tombstoneByKey("test-zone-b", "testentityb1")).isPresent(),
                "a deleted zone's memories are tombstones, restorable like any hard forget");
    }

    @Test
    void copyKeepsObservationsInOrderAndRelationsAcrossZones() {
        CopyResult r = zones.copy(List.of("TestEntityA1", "missing"), "test-zone-a", "test-zone-b", true, false);
        assertEquals(List.of("TestEntityA1"), r.copied());
        assertEquals("missing", r.skipped().get(0).name());
        assertTrue(r.skipped().get(0).reason().contains("not found in source zone 'test-zone-a'"));
        var copy = graph.find("test-zone-b", "TestEntityA1").orElseThrow();
        assertEquals(List.of("This is a test entity in zone A", "It has multiple observations"), copy.observationTexts());
        assertEquals(2, r.relationsCopied());
        List<Relation> rels = graph.read("test-zone-b").relations();
        assertTrue(rels.contains(new Relation("test-zone-b", "TestEntityA1", "test-zone-b", "TestEntityB1", "related_to")),
                "the end that lives in the target points at it: " + rels);
        assertTrue(rels.contains(new Relation("test-zone-b", "TestEntityA1", "test-zone-a", "TestEntityA2", "knows")),
                "the end left behind is pointed at across zones: " + rels);
        assertTrue(graph.find("test-zone-a", "TestEntityA1").isPresent(), "a copy leaves the source");
        graph.markImportant("test-zone-a", "TestEntityA2", true);
        clock.advance(java.time.Duration.ofDays(20));
        zones.copy(List.of("TestEntityA2"), "test-zone-a", "test-zone-b", false, false);
        var copied = graph.find("test-zone-b", "TestEntityA2").orElseThrow().memory();
        assertEquals(10, copied.relevance(), 1e-9, "as important as the original");
        assertEquals(dev.engram.rank.FreshnessLabel.STALE, dev.engram.rank.Freshness.of(copied, clock.instant()).label(),
                "as stale as the original (20 days on a 7-day interval), not fresh because it was just copied");
    }

    @Test
    void copyOfAnExistingNameSkipsOrOverwrites() {
        graph.create("test-zone-b", List.of(new EntityDraft("TestEntityA1", "old", List.of("stale fact", "It has multiple observations"))),
                ExistingEntity.MERGE);
        CopyResult skip = zones.copy(List.of("TestEntityA1"), "test-zone-a", "test-zone-b", false, false);
        assertEquals(List.of(), skip.copied());
        assertTrue(skip.skipped().get(0).reason().contains("overwrite"));
        CopyResult over = zones.copy(List.of("TestEntityA1"), "test-zone-a", "test-zone-b", false, true);
        assertEquals(List.of("TestEntityA1"), over.copied());
        var e = graph.find("test-zone-b", "TestEntityA1").orElseThrow();
        assertEquals("test", e.entityType());
        assertEquals(List.of("It has multiple observations", "This is a test entity in zone A"), e.observationTexts(),
                "the stale observation is gone, the source's are all there");
    }

    @Test
    void moveDeletesFromTheSourceAndKeepsTheRelations() {
        CopyResult r = zones.move(List.of("TestEntityA2"), "test-zone-a", "test-zone-b", true, false);
        assertEquals(List.of("TestEntityA2"), r.copied());
        assertTrue(graph.find("test-zone-a", "TestEntityA2").isEmpty());
        assertTrue(graph.read("test-zone-a").relations().contains(
                new Relation("test-zone-a", "TestEntityA1", "test-zone-b", "TestEntityA2", "knows")));
        assertThrows(InvalidArgumentException.class, () -> zones.move(List.of("TestEntityA1"), "test-zone-a", "test-zone-a", true, false));
        assertThrows(NotFoundException.class, () -> zones.move(List.of("x"), "nowhere", "test-zone-a", true, false));
    }

    @Test
    void mergeRenamesConflictsAndCanDeleteTheSources() {
        graph.create("test-zone-b", List.of(new EntityDraft("TestEntityA2", "person", List.of("B's John"))), ExistingEntity.MERGE);
        MergeResult r = zones.merge(List.of("test-zone-a", "nowhere"), "test-zone-b", true, ConflictPolicy.RENAME);
        assertEquals(List.of("test-zone-a"), r.mergedZones());
        assertEquals("nowhere", r.failedZones().get(0).zone());
        assertEquals(2, r.entitiesCopied());
        assertTrue(graph.find("test-zone-b", "TestEntityA2_from_test-zone-a").isPresent());
        assertEquals(List.of("B's John"), graph.find("test-zone-b", "TestEntityA2").orElseThrow().observationTexts());
        assertTrue(graph.read("test-zone-b").relations().contains(
                new Relation("test-zone-b", "TestEntityA1", "test-zone-b", "TestEntityA2_from_test-zone-a", "knows")),
                "relations follow the renamed copy");
        assertFalse(zones.exists("test-zone-a"), "delete_source_zones");
        assertThrows(InvalidArgumentException.class, () -> zones.merge(List.of("test-zone-b"), "test-zone-b", false, ConflictPolicy.SKIP));
        assertEquals(ConflictPolicy.OVERWRITE, ConflictPolicy.parse("f", "Overwrite"));
        assertThrows(InvalidArgumentException.class, () -> ConflictPolicy.parse("overwrite_conflicts", "replace"));
    }
}
