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

    /**
     * brain-tools writes the default zone's record ("Default knowledge zone", dated then) when it first starts
     * (kg-client.ts initialize); Engram has no such record, so the list describes the default zone the same way and
     * dates it from the store's first trace, and a zone that only has memories from its first one.
     */
    @Test
    void theDefaultZoneIsDescribedAndEveryZoneDated() {
        java.time.Instant seeded = clock.instant();
        clock.advance(java.time.Duration.ofDays(2));
        graph.create("scratch", List.of(new EntityDraft("note", "t", List.of())), ExistingEntity.MERGE);
        java.time.Instant scratchBorn = clock.instant();
        clock.advance(java.time.Duration.ofDays(3));
        graph.create("default", List.of(new EntityDraft("later", "t", List.of())), ExistingEntity.MERGE);
        List<ZoneSummary> listed = zones.list();
        ZoneSummary dflt = listed.get(0);
        assertEquals("default", dflt.name());
        assertEquals(ZoneOperation.DEFAULT_ZONE_DESCRIPTION, dflt.description());
        assertEquals("Default knowledge zone", dflt.description(), "brain-tools' words");
        assertEquals(seeded, dflt.createdAt(), "as old as the store: its first zone record, not the default zone's first entity");
        assertEquals(seeded, dflt.updatedAt(), "never described since");
        ZoneSummary scratch = listed.stream().filter(z -> z.name().equals("scratch")).findFirst().orElseThrow();
        assertEquals(scratchBorn, scratch.createdAt(), "a zone without a record dates from its first memory");
        assertEquals(scratchBorn, scratch.updatedAt());
        ZoneSummary a = listed.stream().filter(z -> z.name().equals("test-zone-a")).findFirst().orElseThrow();
        assertEquals("Test zone A for unit tests", a.description(), "a record's own description and dates stay");
        assertEquals(seeded, a.createdAt());
        Engine fresh = new Engine(new InMemoryMemoryStore(), new InMemorySearchIndex(new InMemoryMemoryStore()), clock);
        ZoneSummary empty = fresh.zoneAdmin().list().get(0);
        assertEquals(List.of("default", ZoneOperation.DEFAULT_ZONE_DESCRIPTION, clock.instant(), clock.instant()),
                List.of(empty.name(), empty.description(), empty.createdAt(), empty.updatedAt()), "an empty store: born now");
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
        assertEquals(List.of("stale fact", "It has multiple observations", "This is a test entity in zone A"), e.observationTexts(),
                "the target keeps its own observations (brain-tools' overwrite replaced the entity document, not its observation"
                        + " entities), and the source's are all there");
    }

    /** M8: copy A, then move C; A's relation to C stays A's, now pointing into the target. */
    @Test
    void moveKeepsTheRelationOfAnEntityThatStays() {
        zones.create("src", null, null);
        zones.create("dst", null, null);
        graph.create("src", List.of(new EntityDraft("A", "t", List.of()), new EntityDraft("C", "t", List.of())), ExistingEntity.MERGE);
        graph.relate("src", List.of(RelationDraft.of("A", "C", "uses")), MissingEndpoint.FAIL);
        zones.copy(List.of("A"), "src", "dst", true, false);
        zones.move(List.of("C"), "src", "dst", true, false);
        assertEquals(List.of(new Relation("src", "A", "dst", "C", "uses")), graph.read("src").relations(),
                "the A that stayed still uses C, where C went");
        assertTrue(graph.read("dst").relations().contains(new Relation("dst", "A", "dst", "C", "uses")),
                "the copy of A is related to C too, as a copy's relations are: " + graph.read("dst").relations());
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

    /** p14: an entity related to its namesake in the target, moved there with overwrite. */
    @Test
    void moveWithOverwriteSkipsARelationThatWouldJoinTheEntityToItself() {
        zones.create("a", null, null);
        zones.create("b", null, null);
        graph.create("a", List.of(new EntityDraft("X", "t", List.of("in a")), new EntityDraft("Y", "t", List.of())), ExistingEntity.MERGE);
        graph.create("b", List.of(new EntityDraft("X", "t", List.of("in b"))), ExistingEntity.MERGE);
        graph.relate("a", List.of(new RelationDraft("a", "X", "b", "X", "mirrors"), RelationDraft.of("X", "Y", "knows")), MissingEndpoint.FAIL);
        CopyResult r = zones.move(List.of("Y", "X"), "a", "b", true, true);
        assertEquals(List.of("Y", "X"), r.copied());
        assertEquals(1, r.relationsCopied());
        assertEquals(1, r.relationsSkipped().size());
        assertTrue(r.relationsSkipped().get(0).contains("mirrors") && r.relationsSkipped().get(0).contains("to itself"),
                r.relationsSkipped().get(0));
        assertTrue(graph.find("a", "X").isEmpty() && graph.find("a", "Y").isEmpty(), "the move deleted the source");
        assertEquals(List.of("in b", "in a"), graph.find("b", "X").orElseThrow().observationTexts(), "overwrite keeps the target's own");
        assertEquals(List.of(new Relation("b", "X", "b", "Y", "knows")), graph.read("b").relations());
    }

    @Test
    void aCopyThatCannotBeDoneIsRefusedBeforeAnyWrite() {
        zones.create("a", null, null);
        graph.create("a", List.of(new EntityDraft("X", "t", List.of("in a"))), ExistingEntity.MERGE);
        var e = assertThrows(InvalidArgumentException.class, () -> zones.move(List.of("X", " "), "a", "test-zone-b", true, true));
        assertTrue(e.getMessage().contains("names[1]"), e.getMessage());
        assertTrue(graph.find("test-zone-b", "X").isEmpty(), "nothing copied");
        assertTrue(graph.find("a", "X").isPresent(), "nothing deleted");
    }

    /** p9: a source zone holding memories the merge did not carry over is kept. */
    @Test
    void mergeKeepsASourceZoneThatHoldsWhatWasNotMerged() {
        zones.create("old", null, null);
        zones.create("new", null, null);
        graph.create("old", List.of(new EntityDraft("A", "t", List.of("a1")), new EntityDraft("Shared", "t", List.of("old fact"))),
                ExistingEntity.MERGE);
        graph.create("new", List.of(new EntityDraft("Shared", "t", List.of("new fact"))), ExistingEntity.MERGE);
        engine.remember(dev.engram.engine.RememberCommand.builder("native note: the deploy key rotates monthly").zone("old").build());
        MergeResult r = zones.merge(List.of("old"), "new", true, ConflictPolicy.SKIP);
        assertEquals(1, r.entitiesCopied());
        assertEquals(1, r.entitiesSkipped());
        assertEquals(List.of(), r.deletedZones());
        assertEquals(1, r.keptZones().size());
        assertEquals(3, r.keptZones().get(0).memoriesLeft(), "Shared, its observation and the native note");
        assertTrue(r.keptZones().get(0).reason().contains("1 entity skipped on a name conflict (with 1 observations) and 1 native memory")
                && r.keptZones().get(0).reason().contains("the zone was kept"), r.keptZones().get(0).reason());
        assertTrue(zones.exists("old"));
        assertEquals(List.of("old fact"), graph.find("old", "Shared").orElseThrow().observationTexts());
        assertEquals(5, zones.stats("old").memoryCount(), "nothing was deleted from the kept zone");
    }
}
