package dev.engram.engine.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryType;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EntityGraphTest {
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final Engine engine = new Engine(store, new InMemorySearchIndex(store), clock);
    private final EntityGraph graph = engine.entities();

    private static EntityDraft draft(String name, String type, String... observations) {
        return new EntityDraft(name, type, List.of(observations));
    }

    private List<String> names(List<Entity> entities) {
        return entities.stream().map(Entity::name).toList();
    }

    private void people() {
        graph.create("default", List.of(draft("Alice", "person", "works at Acme Corp", "likes programming"),
                draft("Bob", "person", "works at TechCo"), draft("Acme Corp", "company", "tech company")), ExistingEntity.SKIP);
    }

    @Test
    void createKeepsNamesObservationsAndOrderExactly() {
        List<Entity> created = graph.create("default", List.of(draft("John Smith", "person", "  speaks Spanish  ", "b"),
                draft("iaptic-server: uses TypeScript", "project"), draft("김민수", "사람", "서울에 산다")), ExistingEntity.SKIP);
        assertEquals(List.of("John Smith", "iaptic-server: uses TypeScript", "김민수"), names(created));
        assertEquals(List.of("  speaks Spanish  ", "b"), created.get(0).observationTexts());
        Entity john = graph.find("default", "John Smith").orElseThrow();
        assertEquals("person", john.entityType());
        assertEquals("john-smith", john.memory().key());
        assertEquals(MemoryType.ENTITY, john.memory().type());
        assertEquals("John Smith (person)", john.memory().content());
        Memory first = john.observations().get(0);
        assertEquals(MemoryType.FACT, first.type());
        assertEquals(EntityGraph.OBSERVATION_TYPE, first.entityType());
        assertEquals(null, first.name(), "found through its observation_of edge; its brain-tools name is derived when shown");
        assertEquals("  speaks Spanish  ", first.content());
        assertTrue(store.edges(first.id()).contains(new Edge(first.id(), john.id(), EdgeType.OBSERVATION_OF, null,
                store.edges(first.id()).get(0).createdAt())));
        assertTrue(graph.find("default", "john smith").isEmpty(), "names are looked up exactly");
        assertEquals(List.of("John Smith", "iaptic-server: uses TypeScript", "김민수"), names(graph.read("default").entities()));
    }

    @Test
    void aBatchCreatedWithinOneMillisecondComesBackInTheOrderGiven() {
        List<EntityDraft> drafts = IntStream.range(0, 40).mapToObj(i -> draft("e" + (39 - i), "t")).toList();
        graph.create("default", drafts, ExistingEntity.SKIP);
        assertEquals(drafts.stream().map(EntityDraft::name).toList(), names(graph.read("default").entities()));
    }

    @Test
    void skipIgnoresExistingNamesAndReturnsOnlyNewOnes() {
        people();
        List<Entity> again = graph.create("default", List.of(draft("Alice", "robot", "new"), draft("Carol", "person"),
                draft("Carol", "other")), ExistingEntity.SKIP);
        assertEquals(List.of("Carol"), names(again));
        Entity alice = graph.find("default", "Alice").orElseThrow();
        assertEquals("person", alice.entityType());
        assertEquals(List.of("works at Acme Corp", "likes programming"), alice.observationTexts());
        assertEquals("person", graph.find("default", "Carol").orElseThrow().entityType(), "the first of a call wins");
        assertEquals(List.of(), graph.create("default", List.of(), ExistingEntity.SKIP));
    }

    @Test
    void mergeUpdatesTypeAndIntervalAndAddsMissingObservations() {
        people();
        List<Entity> merged = graph.create("default", List.of(new EntityDraft("Alice", "engineer",
                List.of("likes programming", "has a dog"), 14)), ExistingEntity.MERGE);
        assertEquals("engineer", merged.get(0).entityType());
        assertEquals(14, merged.get(0).memory().reviewIntervalDays());
        assertEquals(List.of("works at Acme Corp", "likes programming", "has a dog"), merged.get(0).observationTexts());
    }

    @Test
    void keysAreFreeSlugs() {
        graph.create("default", List.of(draft("Alice", "a"), draft("alice", "b"), draft("ALICE!", "c")), ExistingEntity.SKIP);
        assertEquals(List.of("alice", "alice-2", "alice-3"),
                graph.read("default").entities().stream().map(e -> e.memory().key()).toList());
    }

    @Test
    void blankNamesAndObservationsAreRefusedBeforeAnythingIsWritten() {
        var e = assertThrows(InvalidArgumentException.class, () -> graph.create("default",
                List.of(draft("Ok", "t"), draft("  ", "t")), ExistingEntity.SKIP));
        assertEquals("entities[1].name", e.field());
        var o = assertThrows(InvalidArgumentException.class, () -> graph.create("default",
                List.of(draft("Ok", "t", "fine", "")), ExistingEntity.SKIP));
        assertEquals("entities[0].observations[1]", o.field());
        assertEquals(0, store.count());
    }

    @Test
    void addObservationsAddsOnlyNewTextsAndIsAllOrNothing() {
        people();
        List<Added> added = graph.addObservations("default", List.of(
                new ObservationDraft("Alice", List.of("likes coffee", "works at Acme Corp", "likes coffee")),
                new ObservationDraft("Bob", List.of("has a cat"))));
        assertEquals(List.of(new Added("Alice", List.of("likes coffee")), new Added("Bob", List.of("has a cat"))), added);
        assertEquals(List.of("works at Acme Corp", "likes programming", "likes coffee"),
                graph.find("default", "Alice").orElseThrow().observationTexts());
        long before = store.count();
        var missing = assertThrows(NotFoundException.class, () -> graph.addObservations("default", List.of(
                new ObservationDraft("Alice", List.of("one more")), new ObservationDraft("Ghost", List.of("x")))));
        assertTrue(missing.getMessage().startsWith("Entity with name Ghost not found"), missing.getMessage());
        assertEquals(before, store.count(), "Alice got nothing either");
    }

    @Test
    void deleteObservationsIgnoresWhatIsNotThere() {
        people();
        assertEquals(1, graph.deleteObservations("default", List.of(
                new ObservationDraft("Alice", List.of("likes programming", "never said")),
                new ObservationDraft("Ghost", List.of("x")))));
        assertEquals(List.of("works at Acme Corp"), graph.find("default", "Alice").orElseThrow().observationTexts());
        assertThrows(NotFoundException.class, () -> graph.deleteObservations("default", "Ghost", List.of("x")));
    }

    @Test
    void deleteTakesObservationsAndRelationsAlong() {
        people();
        graph.relate("default", List.of(RelationDraft.of("Alice", "Bob", "knows"), RelationDraft.of("Bob", "Acme Corp", "competitor")),
                MissingEndpoint.FAIL);
        var refused = assertThrows(InvalidArgumentException.class, () -> graph.delete("default", List.of("Bob"), false));
        assertTrue(refused.getMessage().contains("2 relation(s)"), refused.getMessage());
        assertEquals(List.of("Bob"), graph.delete("default", List.of("Bob", "Ghost", "Bob"), true));
        Graph g = graph.read("default");
        assertEquals(List.of("Alice", "Acme Corp"), names(g.entities()));
        assertEquals(List.of(), g.relations());
        assertEquals(5, store.count(), "Bob's observation went with him: 2 entities + 3 observations");
    }

    @Test
    void relateAddsOnlyNewRelationsAndFailsWholeOnAMissingEnd() {
        people();
        List<Relation> first = graph.relate("default", List.of(RelationDraft.of("Alice", "Bob", "knows"),
                RelationDraft.of("Alice", "Bob", "works_with"), RelationDraft.of("Alice", "Bob", "knows")), MissingEndpoint.FAIL);
        assertEquals(2, first.size());
        assertEquals(List.of(), graph.relate("default", List.of(RelationDraft.of("Alice", "Bob", "knows")), MissingEndpoint.FAIL));
        var missing = assertThrows(NotFoundException.class, () -> graph.relate("default", List.of(
                RelationDraft.of("Bob", "Alice", "knows"), RelationDraft.of("Alice", "Ghost", "knows")), MissingEndpoint.FAIL));
        assertTrue(missing.getMessage().startsWith("Entity with name Ghost not found"), missing.getMessage());
        assertEquals(2, graph.read("default").relations().size(), "Bob -> Alice was not written either");
        assertThrows(InvalidArgumentException.class,
                () -> graph.relate("default", List.of(RelationDraft.of("Alice", "Alice", "self")), MissingEndpoint.FAIL));
    }

    @Test
    void createUnknownMakesPlaceholderEntitiesAndRelationsMayCrossZones() {
        people();
        graph.create("other", List.of(draft("Dana", "person")), ExistingEntity.SKIP);
        graph.relate("default", List.of(new RelationDraft(null, "Alice", "other", "Dana", "mentors"),
                RelationDraft.of("Alice", "Zed", "knows")), MissingEndpoint.CREATE_UNKNOWN);
        assertEquals(EntityGraph.UNKNOWN_TYPE, graph.find("default", "Zed").orElseThrow().entityType());
        List<Relation> fromOther = graph.read("other").relations();
        assertEquals(List.of(new Relation("default", "Alice", "other", "Dana", "mentors")), fromOther);
        assertEquals(1, graph.unrelate("default", List.of(new RelationDraft(null, "Alice", "other", "Dana", "mentors"),
                RelationDraft.of("Alice", "Nobody", "knows"))));
        assertEquals(List.of(), graph.read("other").relations());
    }

    @Test
    void readListsRelationsInTheOrderTheyWereMade() {
        people();
        graph.relate("default", List.of(RelationDraft.of("Bob", "Acme Corp", "competitor"), RelationDraft.of("Alice", "Bob", "knows")),
                MissingEndpoint.FAIL);
        clock.advance(Duration.ofSeconds(1));
        graph.relate("default", List.of(RelationDraft.of("Acme Corp", "Alice", "employs")), MissingEndpoint.FAIL);
        assertEquals(List.of("competitor", "knows", "employs"), graph.read("default").relations().stream().map(Relation::type).toList());
    }

    @Test
    void openKeepsTheOrderAskedSkipsUnknownNamesAndCountsARead() {
        people();
        List<Entity> opened = graph.open("default", List.of("Bob", "Nope", "Alice", "Bob"));
        assertEquals(List.of("Bob", "Alice"), names(opened));
        assertEquals(1, store.get(opened.get(0).id()).orElseThrow().accessCount());
        assertNotNull(store.get(opened.get(0).id()).orElseThrow().lastAccessedAt());
    }

    @Test
    void relationsAmongNeedsBothEndsTouchingNeedsOne() {
        people();
        graph.relate("default", List.of(RelationDraft.of("Alice", "Bob", "knows"), RelationDraft.of("Bob", "Acme Corp", "competitor")),
                MissingEndpoint.FAIL);
        List<Entity> alice = graph.open("default", List.of("Alice", "Bob"));
        assertEquals(0, graph.relationsAmong(alice.subList(0, 1)).size());
        assertEquals(1, graph.relationsAmong(alice).size());
        assertEquals(2, graph.relationsTouching(alice).size());
    }

    @Test
    void searchRanksByNameTypeAndObservationsAndMapsHitsToTheirEntity() {
        people();
        assertEquals(List.of("Alice"), names(graph.search("default", "programming", 20)));
        assertEquals(List.of("Alice"), names(graph.search("default", "ALICE", 20)));
        assertTrue(names(graph.search("default", "company", 20)).contains("Acme Corp"));
        List<String> acme = names(graph.search("default", "Acme", 20));
        assertEquals(2, acme.size(), acme.toString());
        assertTrue(acme.containsAll(List.of("Alice", "Acme Corp")), acme.toString());
        assertEquals(1, graph.search("default", "Acme", 1).size());
        assertEquals(List.of(), graph.search("default", "zzyzx", 20));
        assertEquals(List.of(), graph.search("never-written", "Acme", 20));
    }

    @Test
    void searchLeavesOutNeighboursThatDoNotMatch() {
        people();
        graph.create("default", List.of(draft("Carol", "person")), ExistingEntity.SKIP);
        graph.relate("default", List.of(RelationDraft.of("Bob", "Acme Corp", "competitor"), RelationDraft.of("Carol", "Alice", "knows")),
                MissingEndpoint.FAIL);
        List<String> acme = names(graph.search("default", "Acme", 20));
        assertEquals(2, acme.size(), acme.toString());
        assertTrue(acme.containsAll(List.of("Alice", "Acme Corp")), acme.toString());
    }

    @Test
    void searchSkipsNativeMemoriesOfTheZone() {
        engine.remember(dev.engram.engine.RememberCommand.of("Acme Corp deploys on Fridays"));
        people();
        List<String> acme = names(graph.search("default", "Acme", 20));
        assertTrue(acme.containsAll(List.of("Alice", "Acme Corp")) && acme.size() == 2, acme.toString());
    }

    @Test
    void matchAllIsServerMemoryssubstringSearchInGraphOrder() {
        people();
        assertEquals(List.of("Alice", "Acme Corp"), names(graph.matchAll("default", "acme")));
        assertEquals(List.of("Alice", "Bob", "Acme Corp"), names(graph.matchAll("default", "")));
        assertEquals(List.of("Alice", "Bob"), names(graph.matchAll("default", "PERSON")));
    }

    @Test
    void verifyDoublesTheIntervalUpTo365OrSetsIt() {
        people();
        Entity v = graph.verify("default", "Alice", null);
        assertEquals(14, v.memory().reviewIntervalDays());
        assertEquals(1, v.memory().verifyCount());
        assertEquals(clock.instant(), v.memory().lastVerifiedAt());
        assertEquals(300, graph.verify("default", "Alice", 300).memory().reviewIntervalDays());
        assertEquals(365, graph.verify("default", "Alice", null).memory().reviewIntervalDays());
        assertThrows(InvalidArgumentException.class, () -> graph.verify("default", "Alice", 0));
        assertThrows(NotFoundException.class, () -> graph.verify("default", "Ghost", null));
    }

    @Test
    void markImportantMultipliesOrDividesRelevanceWithinBounds() {
        people();
        assertEquals(10, graph.markImportant("default", "Alice", true).memory().relevance(), 1e-9);
        assertEquals(25, graph.markImportant("default", "Alice", true).memory().relevance(), 1e-9);
        assertEquals(2.5, graph.markImportant("default", "Alice", false).memory().relevance(), 1e-9);
        graph.markImportant("default", "Bob", false);
        graph.markImportant("default", "Bob", false);
        assertEquals(0.01, graph.markImportant("default", "Bob", false).memory().relevance(), 1e-9);
    }

    @Test
    void recentIsByLastReadThenLastChange() {
        people();
        clock.advance(Duration.ofMinutes(1));
        graph.open("default", List.of("Bob"));
        clock.advance(Duration.ofMinutes(1));
        graph.addObservations("default", "Acme Corp", List.of("hiring"));
        assertEquals(List.of("Acme Corp", "Bob"), names(graph.recent("default", 2)));
    }

    @Test
    void importGraphMergesExistingEntitiesKeepsDanglingRelationsAndADryRunWritesNothing() {
        people();
        List<EntityDraft> file = List.of(draft("Alice", "robot", "likes programming", "from the file"), draft("Eve", "person"));
        List<RelationDraft> relations = List.of(RelationDraft.of("Eve", "Alice", "knows"), RelationDraft.of("Eve", "Mallory", "distrusts"));
        long before = store.count();
        EntityGraph.ImportSummary dry = graph.importGraph("default", file, relations, true);
        assertEquals(new EntityGraph.ImportSummary(1, 1, 1, 2, 1, 0), dry);
        assertEquals(before, store.count());
        assertEquals(dry, graph.importGraph("default", file, relations, false));
        Entity alice = graph.find("default", "Alice").orElseThrow();
        assertEquals("person", alice.entityType(), "an import keeps the stored type");
        assertEquals(List.of("works at Acme Corp", "likes programming", "from the file"), alice.observationTexts());
        assertEquals(EntityGraph.UNKNOWN_TYPE, graph.find("default", "Mallory").orElseThrow().entityType());
        assertEquals(new EntityGraph.ImportSummary(0, 2, 0, 0, 0, 0), graph.importGraph("default", file, relations, false),
                "a second import changes nothing");
    }

    @Test
    void aLaterImportFillsThePlaceholderAnEarlierOneCreatedForARelationEnd() {
        // per-zone files imported one after another: the first names work/billing only as a relation end
        graph.importGraph("default", List.of(draft("iaptic-server", "Project")),
                List.of(new RelationDraft("default", "iaptic-server", "work", "billing", "contains")), false);
        Memory placeholder = graph.find("work", "billing").orElseThrow().memory();
        assertEquals(EntityGraph.UNKNOWN_TYPE, placeholder.entityType());
        clock.advance(Duration.ofMinutes(1));
        EntityGraph.ImportSummary s = graph.importGraph("work",
                List.of(new EntityDraft("billing", "Component", List.of("handles Stripe webhooks"), 14)), List.of(),
                List.of(new Restored("billing", 3.0, 1, java.time.Instant.parse("2026-11-20T00:00:00Z"), 3L, null)), false);
        assertEquals(1, s.placeholdersFilled(), s.toString());
        assertEquals(0, s.entitiesCreated());
        assertEquals(0, s.entitiesExisting(), "a filled placeholder is not counted as an entity the store held");
        Entity billing = graph.find("work", "billing").orElseThrow();
        assertEquals(placeholder.id(), billing.id(), "the same memory: its relations stay");
        assertEquals("Component", billing.entityType());
        assertEquals("billing (Component)", billing.memory().content());
        assertEquals(14, billing.memory().reviewIntervalDays());
        assertEquals(List.of("handles Stripe webhooks"), billing.observationTexts());
        assertEquals(3.0, billing.memory().relevance(), 1e-9, "the file's stamps go to the filled entity");
        assertEquals(java.time.Instant.parse("2026-11-20T00:00:00Z"), billing.memory().lastVerifiedAt());
        assertEquals(3, billing.memory().accessCount());
        assertEquals(1, graph.read("work").relations().size());
        // an entity with a type of its own is no placeholder: it keeps its type and stamps
        graph.importGraph("work", List.of(draft("ledger", "Component")), List.of(), false);
        EntityGraph.ImportSummary again = graph.importGraph("work", List.of(draft("ledger", "Database")), List.of(),
                List.of(new Restored("ledger", 9.0, null, null, null, null)), false);
        assertEquals(0, again.placeholdersFilled());
        assertEquals("Component", graph.find("work", "ledger").orElseThrow().entityType());
        assertEquals(1.0, graph.find("work", "ledger").orElseThrow().memory().relevance(), 1e-9);
    }

    @Test
    void anImportKeepsEachObservationsOwnStampsAndTheEntitysLastWrite() {
        java.time.Instant written = java.time.Instant.parse("2026-11-11T00:00:00Z");
        java.time.Instant verified = java.time.Instant.parse("2026-11-01T00:00:00Z");
        Restored obs = new Restored("uses TypeScript", null, 2, verified, 4L, null, written, 7, List.of());
        Restored entity = new Restored("iaptic-server", null, null, null, null, null, written, null, List.of(obs));
        graph.importGraph("default", List.of(new EntityDraft("iaptic-server", "Project", List.of("uses TypeScript", "plain"), 30)),
                List.of(), List.of(entity), false);
        Entity e = graph.find("default", "iaptic-server").orElseThrow();
        assertEquals(written, e.memory().updatedAt(), "lastWrite is kept");
        assertEquals(30, e.memory().reviewIntervalDays());
        Memory typescript = e.observations().get(0);
        assertEquals(7, typescript.reviewIntervalDays(), "the observation's own interval, not its entity's");
        assertEquals(verified, typescript.lastVerifiedAt());
        assertEquals(2, typescript.verifyCount());
        assertEquals(written, typescript.updatedAt());
        assertEquals(30, e.observations().get(1).reviewIntervalDays(), "without stamps of its own: the entity's interval");
    }

    @Test
    void anEntityMayBeNamedLikeAnotherEntitysObservation() {
        // server-memory and brain-tools both allow it; observations have no display name of their own
        graph.create("default", List.of(draft("A", "t", "b: c")), ExistingEntity.SKIP);
        graph.create("default", List.of(draft("A: b", "t", "c")), ExistingEntity.SKIP);
        assertEquals(List.of("b: c"), graph.find("default", "A").orElseThrow().observationTexts());
        assertEquals(List.of("c"), graph.find("default", "A: b").orElseThrow().observationTexts());
    }

    @Test
    void deletedEntitiesAndObservationsAreRestorableLikeAHardForget() {
        people();
        graph.relate("default", List.of(new RelationDraft(null, "Alice", null, "Acme Corp", "works_at")), MissingEndpoint.FAIL);
        graph.deleteObservations("default", "Bob", List.of("works at TechCo"));
        assertEquals(List.of("Alice"), graph.delete("default", List.of("Alice"), true));
        assertTrue(graph.find("default", "Alice").isEmpty());
        // the native forget restores by key; entity first, then its observations, which re-attach to it
        Memory aliceTomb = store.write(tx -> tx.tombstoneByKey("default", "alice")).orElseThrow().memory();
        engine.forget(new dev.engram.engine.ForgetCommand(aliceTomb.id(), "default", dev.engram.engine.ForgetAction.RESTORE));
        for (String key : List.of("alice-works-at-acme-corp", "alice-likes-programming")) {
            String id = store.write(tx -> tx.tombstoneByKey("default", key)).orElseThrow().memory().id();
            engine.forget(new dev.engram.engine.ForgetCommand(id, "default", dev.engram.engine.ForgetAction.RESTORE));
        }
        Entity alice = graph.find("default", "Alice").orElseThrow();
        assertEquals(List.of("works at Acme Corp", "likes programming"), alice.observationTexts());
        assertEquals(1, graph.relationsTouching(List.of(alice)).size(), "the relation came back with its entity");
        assertTrue(store.write(tx -> tx.tombstoneByKey("default", "bob-works-at-techco")).isPresent(),
                "a deleted observation is kept as a tombstone too");
    }

    @Test
    void creatingAnEntityANativeForgetArchivedBringsItBack() {
        graph.create("default", List.of(draft("Carol", "person", "plays chess")), ExistingEntity.SKIP);
        Entity carol = graph.find("default", "Carol").orElseThrow();
        engine.forget(new dev.engram.engine.ForgetCommand(carol.memory().key(), "default", dev.engram.engine.ForgetAction.SOFT));
        assertTrue(graph.find("default", "Carol").isEmpty(), "archived: the graph profiles no longer see it");
        List<Entity> created = graph.create("default", List.of(draft("Carol", "engineer", "writes Rust")), ExistingEntity.SKIP);
        assertEquals(List.of("Carol"), names(created));
        Entity back = graph.find("default", "Carol").orElseThrow();
        assertEquals(carol.id(), back.id(), "the same memory, revived");
        assertEquals("engineer", back.entityType());
        assertEquals(List.of("plays chess", "writes Rust"), back.observationTexts());
    }
}
