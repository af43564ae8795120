package dev.engram.spi;

import static dev.engram.spi.MemoryFixtures.full;
import static dev.engram.spi.MemoryFixtures.id;
import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.ConflictException;
import dev.engram.error.NotFoundException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.ZoneInfo;
import dev.engram.testing.InMemoryMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Every clause of the {@link MemoryStore} and {@link StoreTransaction} javadoc, as tests. A store
 * implementation extends this class and supplies {@link #open}; it must pass unchanged. The tombstone
 * clauses are in {@link MemoryStoreTombstoneContract}, the vector clauses and the fixture in
 * {@link MemoryStoreVectorContract}.
 */
public abstract class MemoryStoreContract extends MemoryStoreTombstoneContract {

    @Test
    void insertedMemoryRoundTripsEveryField() {
        Memory m = insert(full(clock, 1, "work"));
        assertEquals(Optional.of(m), store.get(m.id()));
        assertEquals(Optional.of(m), store.getByKey("work", m.key()));
        Memory plain = insert(fact(2, "work", "plain"));
        assertEquals(Optional.of(plain), store.get(plain.id()), "null optionals stay null");
    }

    @Test
    void unknownIdsAndKeysReadAsEmpty() {
        assertEquals(Optional.empty(), store.get(id(404)));
        assertEquals(Optional.empty(), store.getByKey("work", "nope"));
        assertEquals(List.of(), store.edges(id(404)));
        assertEquals(List.of(), store.versions(id(404)));
        assertEquals(List.of(), store.getAll(List.of(id(404))));
        store.write(tx -> {
            assertEquals(Optional.empty(), tx.get(id(404)));
            assertEquals(Optional.empty(), tx.getByKey("work", "nope"));
            assertFalse(tx.delete(id(404)));
            assertEquals(0, tx.versionCount(id(404)));
            return null;
        });
    }

    @Test
    void findNamesAMemoryByIdInAnyZoneOrByKeyInItsZoneKeyFirstUnlessTheReferenceIsIdShaped() {
        Memory a = insert(minimal(clock, 1, "work", "a").key("alpha").build());
        // an id kept from an import: not id-shaped, so a key of the same spelling wins in its zone
        Memory imported = insert(minimal(clock, 2, "home", "imported").id("a1b2c3d4").key("imported-note").build());
        Memory keyed = insert(minimal(clock, 3, "work", "keyed").key("a1b2c3d4").build());
        // a key may not be id-shaped (MemoryRules.key), so an id-shaped reference is always an id
        assertEquals(Optional.of(a), store.find("work", a.id()));
        assertEquals(Optional.of(a), store.find("home", a.id()), "ids reach every zone");
        assertEquals(Optional.of(a), store.find("work", "alpha"));
        assertEquals(Optional.empty(), store.find("home", "alpha"), "keys only within their zone");
        assertEquals(Optional.of(keyed), store.find("work", "a1b2c3d4"), "the key first");
        assertEquals(Optional.of(imported), store.find("home", "a1b2c3d4"), "then the id");
        assertEquals(Optional.empty(), store.find("work", "nope"));
        assertEquals(Optional.empty(), store.find("work", id(404)));
        for (String zone : List.of("work", "home")) {
            for (String ref : List.of(a.id(), "alpha", "a1b2c3d4", "imported-note", "nope", id(404))) {
                assertEquals(MemoryStore.resolve(ref, store::get, key -> store.getByKey(zone, key)), store.find(zone, ref),
                        "find and the two lookups agree on " + zone + "/" + ref);
            }
        }
    }

    @Test
    void readsTogetherSeeWhatWasWrittenBeforeAndTheirOwnWritesAndReturnTheirResult() {
        Memory a = insert(minimal(clock, 1, "work", "a").build());
        Memory b = insert(minimal(clock, 2, "work", "b").build());
        store.write(tx -> {
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant()));
            return null;
        });
        String seen = store.readTogether(() -> {
            assertEquals(List.of(a, b), store.getAll(List.of(a.id(), b.id())));
            assertEquals(Map.of(a.id(), 1, b.id(), 1), store.degrees(List.of(a.id(), b.id())));
            store.write(tx -> {
                tx.update(a.toBuilder().content("a, edited").build());
                tx.delete(b.id());
                return null;
            });
            assertEquals(Map.of(), store.degrees(List.of(a.id(), b.id())), "the write's own changes, in the same reads");
            assertEquals(List.of(), store.getAll(List.of(b.id())));
            return store.readTogether(() -> store.getAll(List.of(a.id())).get(0).content()); // nested: joins
        });
        assertEquals("a, edited", seen);
    }

    @Test
    void findSeesLaterWrites() {
        Memory a = insert(minimal(clock, 1, "work", "a").key("alpha").build());
        assertEquals(Optional.of(a), store.find("work", "alpha"));
        Memory renamed = a.toBuilder().key("beta").content("renamed").build();
        store.write(tx -> {
            tx.update(renamed);
            return null;
        });
        assertEquals(Optional.empty(), store.find("work", "alpha"));
        assertEquals(Optional.of(renamed), store.find("work", "beta"));
        assertEquals(Optional.of(renamed), store.find("work", a.id()));
        store.write(tx -> tx.delete(a.id()));
        assertEquals(Optional.empty(), store.find("work", "beta"));
        assertEquals(Optional.empty(), store.find("work", a.id()));
    }

    @Test
    void getAllKeepsRequestedOrderAndSkipsUnknown() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        assertEquals(List.of(b, a), store.getAll(List.of(b.id(), id(404), a.id())));
    }

    @Test
    void getAllOfEveryLengthFindsEachMemoryOnceAndSeesLaterWrites() {
        List<Memory> all = new java.util.ArrayList<>();
        for (int i = 1; i <= 130; i++) all.add(insert(fact(i, "work", "m" + i)));
        for (int n : new int[] {1, 2, 3, 5, 64, 65, 130}) {
            List<String> ids = all.subList(0, n).stream().map(Memory::id).toList();
            assertEquals(all.subList(0, n), store.getAll(ids), n + " ids");
        }
        Memory later = insert(fact(131, "work", "written after the reads above"));
        assertEquals(List.of(later, all.get(0)), store.getAll(List.of(later.id(), all.get(0).id())));
        assertEquals(later, store.get(later.id()).orElseThrow());
    }

    @Test
    void keyIsUniquePerZoneOnly() {
        insert(minimal(clock, 1, "work", "a").key("same").build());
        insert(minimal(clock, 2, "home", "b").key("same").build());
        assertThrows(ConflictException.class, () -> insert(minimal(clock, 3, "work", "c").key("same").build()));
        assertEquals("a", store.getByKey("work", "same").orElseThrow().content());
        assertEquals("b", store.getByKey("home", "same").orElseThrow().content());
        assertEquals(2, store.count());
    }

    @Test
    void idIsUnique() {
        insert(fact(1, "work", "first"));
        assertThrows(ConflictException.class, () -> insert(minimal(clock, 1, "home", "second").key("other").build()));
        assertEquals("first", store.get(id(1)).orElseThrow().content());
    }

    @Test
    void updateReplacesEveryField() {
        Memory m = insert(fact(1, "work", "old"));
        Memory changed = full(clock, 1, "work").toBuilder().key("renamed").build();
        store.write(tx -> {
            tx.update(changed);
            assertEquals(Optional.of(changed), tx.get(m.id()), "a transaction reads its own writes");
            return null;
        });
        assertEquals(Optional.of(changed), store.get(m.id()));
        assertEquals(Optional.empty(), store.getByKey("work", m.key()));
        assertEquals(Optional.of(changed), store.getByKey("work", "renamed"));
    }

    @Test
    void updateOfUnknownIdOrOntoTakenKeyFails() {
        insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        assertThrows(NotFoundException.class, () -> store.write(tx -> {
            tx.update(fact(3, "work", "ghost"));
            return null;
        }));
        assertThrows(ConflictException.class, () -> store.write(tx -> {
            tx.update(b.toBuilder().key("key-1").build());
            return null;
        }));
        assertEquals(Optional.of(b), store.get(b.id()));
    }

    @Test
    void deleteRemovesMemoryEdgesAndVersions() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Memory c = insert(fact(3, "work", "c"));
        store.write(tx -> {
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant()));
            tx.addEdge(new Edge(c.id(), a.id(), EdgeType.CAUSED_BY, clock.instant()));
            tx.addEdge(new Edge(b.id(), c.id(), EdgeType.RELATED, clock.instant()));
            tx.addVersion(new MemoryVersion(a.id(), 1, "older", List.of("t"), null, clock.instant()));
            return null;
        });
        assertTrue(store.<Boolean>write(tx -> tx.delete(a.id())));
        assertEquals(Optional.empty(), store.get(a.id()));
        assertEquals(List.of(), store.edges(a.id()));
        assertEquals(List.of(), store.versions(a.id()));
        assertEquals(List.of(new Edge(b.id(), c.id(), EdgeType.RELATED, clock.instant())), store.edges(b.id()));
        assertEquals(1, store.edges(c.id()).size());
        assertEquals(2, store.count());
        assertFalse(store.<Boolean>write(tx -> tx.delete(a.id())), "second delete reports absence");
    }

    @Test
    void edgesAreSeenFromBothEndsOldestFirstAndAddingTwiceChangesNothing() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "other-zone", "b"));
        Memory c = insert(fact(3, "work", "c"));
        Edge ab = new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant());
        Edge ca = new Edge(c.id(), a.id(), EdgeType.DEPENDS_ON, clock.instant().plusSeconds(5));
        Edge abOtherType = new Edge(a.id(), b.id(), EdgeType.SUPERSEDES, clock.instant().plusSeconds(9));
        store.write(tx -> {
            tx.addEdge(ab);
            tx.addEdge(ca);
            tx.addEdge(abOtherType);
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant().plusSeconds(60)));
            assertEquals(List.of(ab, ca, abOtherType), tx.edges(a.id()));
            return null;
        });
        store.write(tx -> {
            tx.addEdge(ab);
            return null;
        });
        assertEquals(List.of(ab, ca, abOtherType), store.edges(a.id()));
        assertEquals(List.of(ab, abOtherType), store.edges(b.id()));
        assertEquals(List.of(ca), store.edges(c.id()));
        assertEquals(3, store.edgeCount(null));
        assertEquals(3, store.edgeCount("work"), "counted by the zone of the source memory");
        assertEquals(0, store.edgeCount("other-zone"));
    }

    @Test
    void edgesOfSeveralMemoriesAreWhatEdgesGivesEachOfThem() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Memory c = insert(fact(3, "other-zone", "c"));
        Memory lone = insert(fact(4, "work", "lone"));
        Instant t = clock.instant();
        store.write(tx -> {
            tx.addEdge(new Edge(b.id(), a.id(), EdgeType.DEPENDS_ON, t.plusSeconds(9)));
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, "works_at", t)); // both ends asked: filed under each
            tx.addEdge(new Edge(a.id(), c.id(), EdgeType.RELATED, t)); // same instant: insertion order kept
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.SUPERSEDES, t.minusSeconds(5))); // older, so first
            return null;
        });
        Map<String, List<Edge>> expected = Map.of(a.id(), store.edges(a.id()), b.id(), store.edges(b.id()));
        assertEquals(4, expected.get(a.id()).size(), "the test's own premise");
        assertEquals(expected, store.edgesOf(List.of(a.id(), b.id(), lone.id(), "m_no_such_memory", a.id())),
                "every edge under each end asked for, in edges()'s order; no entry for a memory without edges or unknown");
        assertEquals(Map.of(c.id(), store.edges(c.id())), store.edgesOf(List.of(c.id())));
        assertEquals(Map.of(), store.edgesOf(List.of()));
        assertEquals(Map.of(), store.edgesOf(List.of(lone.id())));
    }

    @Test
    void outgoingEdgesOfAZoneAreWhatEdgesGivesEachOfItsMemoriesInOneRead() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Memory c = insert(fact(3, "other-zone", "c"));
        Memory lone = insert(fact(4, "work", "lone"));
        Instant t = clock.instant();
        store.write(tx -> {
            tx.addEdge(new Edge(b.id(), a.id(), EdgeType.DEPENDS_ON, t.plusSeconds(9)));
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, "works_at", t)); // same instant: insertion order kept
            tx.addEdge(new Edge(a.id(), c.id(), EdgeType.RELATED, t)); // to another zone: still a's
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.SUPERSEDES, t.minusSeconds(5))); // older, so first
            tx.addEdge(new Edge(c.id(), a.id(), EdgeType.RELATED, t)); // into the zone: c's, not the zone's
            return null;
        });
        Map<String, List<Edge>> expected = new java.util.LinkedHashMap<>();
        for (Memory m : List.of(a, b, lone)) {
            List<Edge> from = store.edges(m.id()).stream().filter(e -> e.fromId().equals(m.id())).toList();
            if (!from.isEmpty()) expected.put(m.id(), from);
        }
        assertEquals(3, expected.get(a.id()).size(), "the test's own premise");
        assertEquals(expected, store.outgoingEdges("work"));
        assertEquals(List.of(EdgeType.SUPERSEDES, EdgeType.RELATED, EdgeType.RELATED),
                store.outgoingEdges("work").get(a.id()).stream().map(Edge::type).toList());
        assertEquals("works_at", store.outgoingEdges("work").get(a.id()).get(1).label());
        assertFalse(store.outgoingEdges("work").containsKey(lone.id()), "a memory that is the source of nothing is absent");
        assertEquals(Map.of(c.id(), List.of(new Edge(c.id(), a.id(), EdgeType.RELATED, t))), store.outgoingEdges("other-zone"));
        assertEquals(Set.of(a.id(), b.id(), c.id()), store.outgoingEdges(null).keySet());
        assertEquals(expected.get(a.id()), store.outgoingEdges(null).get(a.id()));
        assertEquals(Map.of(), store.outgoingEdges("no-such-zone"));
    }

    @Test
    void degreesCountDistinctLinkedMemoriesInBothDirections() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Memory c = insert(fact(3, "work", "c"));
        Memory lone = insert(fact(4, "work", "lone"));
        store.write(tx -> {
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant()));
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.DEPENDS_ON, clock.instant())); // same neighbour, counted once
            tx.addEdge(new Edge(c.id(), a.id(), EdgeType.RELATED, clock.instant()));
            return null;
        });
        assertEquals(Map.of(a.id(), 2, b.id(), 1, c.id(), 1),
                store.degrees(List.of(a.id(), b.id(), c.id(), lone.id(), "m_unknown00", a.id())));
        assertEquals(Map.of(), store.degrees(List.of()));
    }

    @Test
    void edgeToUnknownMemoryIsRejected() {
        Memory a = insert(fact(1, "work", "a"));
        assertThrows(NotFoundException.class, () -> store.write(tx -> {
            tx.addEdge(new Edge(a.id(), id(404), EdgeType.RELATED, clock.instant()));
            return null;
        }));
        assertEquals(List.of(), store.edges(a.id()));
    }

    @Test
    void removeEdgeRemovesOnlyThatTypedDirection() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Edge related = new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant());
        Edge blocks = new Edge(a.id(), b.id(), EdgeType.BLOCKS, clock.instant());
        store.write(tx -> {
            tx.addEdge(related);
            tx.addEdge(blocks);
            return null;
        });
        assertFalse(store.<Boolean>write(tx -> tx.removeEdge(b.id(), a.id(), EdgeType.RELATED, null)), "direction matters");
        assertTrue(store.<Boolean>write(tx -> tx.removeEdge(a.id(), b.id(), EdgeType.RELATED, null)));
        assertFalse(store.<Boolean>write(tx -> tx.removeEdge(a.id(), b.id(), EdgeType.RELATED, null)));
        assertEquals(List.of(blocks), store.edges(a.id()));
    }

    @Test
    void labelsAreFreeTextAndPartOfAnEdgesIdentity() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        Instant t = clock.instant();
        Edge worksAt = new Edge(a.id(), b.id(), EdgeType.RELATED, "works_at", t);
        Edge founded = new Edge(a.id(), b.id(), EdgeType.RELATED, "설립자 of", t);
        Edge plain = new Edge(a.id(), b.id(), EdgeType.RELATED, t);
        store.write(tx -> {
            tx.addEdge(worksAt);
            tx.addEdge(founded);
            tx.addEdge(plain);
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, "works_at", t.plusSeconds(5))); // same identity
            return null;
        });
        assertEquals(List.of(worksAt, founded, plain), store.edges(a.id()), "three edges, in the order added");
        assertTrue(store.<Boolean>write(tx -> tx.removeEdge(a.id(), b.id(), EdgeType.RELATED, "works_at")));
        assertFalse(store.<Boolean>write(tx -> tx.removeEdge(a.id(), b.id(), EdgeType.RELATED, "WORKS_AT")), "labels are exact");
        assertTrue(store.<Boolean>write(tx -> tx.removeEdge(a.id(), b.id(), EdgeType.RELATED, null)));
        assertEquals(List.of(founded), store.edges(b.id()));
    }

    @Test
    void aDisplayNameIsFoundExactlyAndIsUniqueInItsZone() {
        Memory john = insert(minimal(clock, 1, "work", "a person").name("John Smith").entityType("Person").build());
        insert(minimal(clock, 2, "home", "the same name in another zone").name("John Smith").build());
        insert(fact(3, "work", "no name"));
        assertEquals(Optional.of(john), store.getByName("work", "John Smith"));
        assertEquals(Optional.empty(), store.getByName("work", "john smith"), "case matters");
        assertEquals(Optional.empty(), store.getByName("work", "John Smith "), "spacing matters");
        assertEquals(Optional.empty(), store.getByName("other", "John Smith"));
        assertThrows(ConflictException.class, () -> insert(minimal(clock, 4, "work", "dup").name("John Smith").build()));
        Memory renamed = john.toBuilder().name("김철수: 한국어 이름").build();
        store.write(tx -> {
            tx.update(renamed);
            assertEquals(Optional.of(renamed), tx.getByName("work", "김철수: 한국어 이름"));
            return null;
        });
        assertEquals(Optional.empty(), store.getByName("work", "John Smith"), "the old name is free again");
        insert(minimal(clock, 5, "work", "takes the freed name").name("John Smith").build());
        Memory other = store.getByName("work", "John Smith").orElseThrow();
        assertThrows(ConflictException.class, () -> store.write(tx -> {
            tx.update(other.toBuilder().name("김철수: 한국어 이름").build());
            return null;
        }));
    }

    @Test
    void marksAreSetOnceReadAndReplaced() {
        assertEquals(Optional.empty(), store.mark("import/default"));
        store.write(tx -> {
            tx.putMark("import/default", "2026-12-01T10:00:00Z");
            assertEquals(Optional.of("2026-12-01T10:00:00Z"), tx.mark("import/default"));
            return null;
        });
        assertEquals(Optional.of("2026-12-01T10:00:00Z"), store.mark("import/default"));
        store.write(tx -> {
            tx.putMark("import/default", "again");
            return null;
        });
        assertEquals(Optional.of("again"), store.mark("import/default"));
        assertEquals(Optional.empty(), store.mark("import/other"));
    }

    @Test
    void sessionHeartbeatsOfConcurrentWritersAreAllKept() throws Exception {
        // one mark read and rewritten per heartbeat: the store's serialized writes must not lose any session
        dev.engram.engine.session.SessionRegistry sessions =
                new dev.engram.engine.session.SessionRegistry(store, clock, "host-a", pid -> true);
        List<Thread> threads = new java.util.ArrayList<>();
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> failures = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int t = 0; t < 3; t++) {
            int n = t;
            Thread thread = new Thread(() -> {
                try {
                    for (int i = 0; i < 5; i++) {
                        sessions.beat(new dev.engram.engine.session.Heartbeat("s" + n, "agent\t" + n + "\\x", "host-a", 100 + n,
                                "feature/é" + n, java.util.Set.of("src/shared.ts", "src/only-" + n + "-" + i + ".ts")));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) thread.join();
        assertEquals(List.of(), List.copyOf(failures));
        List<dev.engram.engine.session.AgentSession> active = sessions.active();
        assertEquals(java.util.Set.of("s0", "s1", "s2"), active.stream().map(dev.engram.engine.session.AgentSession::id)
                .collect(java.util.stream.Collectors.toSet()));
        dev.engram.engine.session.AgentSession s1 = active.stream().filter(s -> s.id().equals("s1")).findFirst().orElseThrow();
        // a heartbeat's fields are one line (a tab is a space), and the mark's own escape character survives it
        assertEquals("agent 1\\x", s1.agent(), "a field survives the mark");
        assertEquals("feature/é1", s1.branch());
        assertEquals(6, s1.files().size(), "every heartbeat's files are kept");
        assertEquals(List.of("src/shared.ts"), dev.engram.engine.session.SessionRegistry.conflicts(active).stream()
                .map(dev.engram.engine.session.SoftConflict::file).toList());
    }

    @Test
    void zoneDescriptionsAreStoredReplacedAndRemoved() {
        Instant t = clock.instant();
        ZoneInfo projects = new ZoneInfo("projects", "Project facts", "Everything about our projects", t, t);
        ZoneInfo bare = new ZoneInfo("bare", null, null, t, t);
        assertEquals(Optional.empty(), store.zoneInfo("projects"));
        store.write(tx -> {
            tx.putZone(projects);
            tx.putZone(bare);
            assertEquals(Optional.of(projects), tx.zoneInfo("projects"));
            return null;
        });
        assertEquals(List.of(bare, projects), store.zoneInfos(), "sorted by name");
        ZoneInfo changed = new ZoneInfo("projects", "Projects", null, t, t.plusSeconds(60));
        store.write(tx -> {
            tx.putZone(changed);
            return null;
        });
        assertEquals(Optional.of(changed), store.zoneInfo("projects"));
        assertTrue(store.<Boolean>write(tx -> tx.removeZone("projects")));
        assertFalse(store.<Boolean>write(tx -> tx.removeZone("projects")));
        assertEquals(List.of(bare), store.zoneInfos());
    }

    @Test
    void versionsAreOldestFirstAndCounted() {
        Memory a = insert(fact(1, "work", "a"));
        MemoryVersion v1 = new MemoryVersion(a.id(), 1, "first", List.of("x", "y"), Importance.LOW, clock.instant());
        MemoryVersion v2 = new MemoryVersion(a.id(), 2, "second", List.of(), null, clock.instant().plusSeconds(1));
        MemoryVersion v3 = new MemoryVersion(a.id(), 3, "third", List.of("z"), Importance.CRITICAL, clock.instant().plusSeconds(2));
        store.write(tx -> {
            tx.addVersion(v1);
            tx.addVersion(v2);
            assertEquals(2, tx.versionCount(a.id()));
            tx.addVersion(v3);
            return null;
        });
        assertEquals(List.of(v1, v2, v3), store.versions(a.id()));
        assertEquals(3, (int) store.write(tx -> tx.versionCount(a.id())));
    }

    @Test
    void versionOfUnknownMemoryIsRejected() {
        assertThrows(NotFoundException.class, () -> store.write(tx -> {
            tx.addVersion(new MemoryVersion(id(404), 1, "ghost", List.of(), null, clock.instant()));
            return null;
        }));
        assertEquals(List.of(), store.versions(id(404)));
    }

    @Test
    void pinnedListsOnlyPinnedMemoriesOfTheZoneHighestPriorityFirst() {
        insert(minimal(clock, 1, "work", "low").pinPriority(1).build());
        insert(minimal(clock, 2, "work", "not pinned").build());
        insert(minimal(clock, 3, "work", "high").pinPriority(5).status(dev.engram.memory.MemoryStatus.ARCHIVED).build());
        insert(minimal(clock, 4, "home", "other zone").pinPriority(5).build());
        insert(minimal(clock, 5, "work", "mid").pinPriority(3).build());
        assertEquals(List.of(id(3), id(5), id(1)), store.pinned("work").stream().map(Memory::id).toList());
        assertEquals(List.of(), store.pinned("empty"));
    }

    @Test
    void forEachVisitsOneZoneOrAllOldestFirst() {
        Memory w1 = insert(fact(1, "work", "w1"));
        Memory h1 = insert(fact(2, "home", "h1"));
        Memory w2 = insert(fact(3, "work", "w2"));
        List<Memory> work = new ArrayList<>();
        store.forEach("work", work::add);
        assertEquals(List.of(w1, w2), work);
        List<Memory> all = new ArrayList<>();
        store.forEach(null, all::add);
        assertEquals(List.of(w1, h1, w2), all);
    }

    /** More memories than a store reads in one go, many sharing a creation instant: each visited once, in order. */
    @Test
    void forEachVisitsEveryMemoryOnceAcrossPagesAndTiedCreationTimes() {
        Instant base = clock.instant();
        List<Memory> written = new ArrayList<>();
        store.write(tx -> {
            for (int i = 0; i < 1_234; i++) {
                Instant created = base.plusMillis(i / 7); // runs of seven memories created in the same millisecond
                Memory m = minimal(clock, 10_000 - i, i % 3 == 0 ? "home" : "work", "m" + i)
                        .createdAt(created).updatedAt(created).build();
                tx.insert(m);
                written.add(m);
            }
            return null;
        });
        java.util.Comparator<Memory> oldestFirst = java.util.Comparator.comparing(Memory::createdAt).thenComparing(Memory::id);
        List<String> expectedWork = written.stream().filter(m -> m.zone().equals("work")).sorted(oldestFirst)
                .map(Memory::id).toList();
        List<String> work = new ArrayList<>();
        store.forEach("work", m -> work.add(m.id()));
        assertEquals(expectedWork, work);
        List<String> all = new ArrayList<>();
        store.forEach(null, m -> all.add(m.id()));
        assertEquals(written.stream().sorted(oldestFirst).map(Memory::id).toList(), all);
    }

    @Test
    void zonesAreSortedAndCountCountsEverything() {
        assertEquals(Set.of(), store.zones());
        assertEquals(0, store.count());
        insert(fact(1, "work", "a"));
        insert(fact(2, "alpha", "b"));
        insert(fact(3, "work", "c"));
        assertEquals(List.of("alpha", "work"), new ArrayList<>(store.zones()));
        assertEquals(3, store.count());
        store.write(tx -> tx.delete(id(2)));
        assertEquals(List.of("work"), new ArrayList<>(store.zones()));
    }

    @Test
    void changeFeedIsOrderedGapFreeAndCoversInsertUpdateDelete() {
        assertEquals(0, store.headSeq());
        assertEquals(List.of(), store.changesSince(0, 10));
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        store.write(tx -> {
            tx.update(a.toBuilder().content("a2").build());
            return null;
        });
        store.write(tx -> tx.delete(b.id()));
        List<Change> changes = store.changesSince(0, 100);
        assertEquals(List.of(a.id(), b.id(), a.id(), b.id()), changes.stream().map(Change::memoryId).toList());
        for (int i = 1; i < changes.size(); i++) {
            assertEquals(changes.get(i - 1).seq() + 1, changes.get(i).seq(), "no gaps: " + changes);
        }
        assertEquals(changes.get(3).seq(), store.headSeq());
        assertEquals(changes.subList(1, 3), store.changesSince(changes.get(0).seq(), 2), "paged by afterSeq and max");
        assertEquals(List.of(), store.changesSince(store.headSeq(), 10));
    }

    @Test
    void everyUpdateAppendsOneChangeEvenInOneTransaction() {
        Memory a = insert(fact(1, "work", "a"));
        long before = store.headSeq();
        store.write(tx -> {
            tx.update(a.toBuilder().content("a2").build());
            tx.update(a.toBuilder().content("a3").build());
            return null;
        });
        assertEquals(before + 2, store.headSeq(), "one entry per update, even in one transaction");
    }

    @Test
    void recordAccessBumpsCountAndTimeWithoutTouchingTheFeed() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        long head = store.headSeq();
        Instant at = clock.instant().plusSeconds(30);
        store.recordAccess(List.of(a.id(), b.id(), id(404)), at);
        store.recordAccess(List.of(a.id()), at.plusSeconds(1));
        assertEquals(2, store.get(a.id()).orElseThrow().accessCount());
        assertEquals(at.plusSeconds(1), store.get(a.id()).orElseThrow().lastAccessedAt());
        assertEquals(1, store.get(b.id()).orElseThrow().accessCount());
        assertEquals(at, store.get(b.id()).orElseThrow().lastAccessedAt());
        assertEquals(head, store.headSeq());
        store.recordAccess(List.of(), at);
    }

    @Test
    void writeReturnsTheWorkResult() {
        assertEquals("done", store.write(tx -> "done"));
    }

    @Test
    void failedWorkLeavesNothingBehind() {
        Memory a = insert(fact(1, "work", "a"));
        long head = store.headSeq();
        IllegalStateException boom = new IllegalStateException("boom");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> store.write(tx -> {
            tx.insert(fact(2, "work", "b"));
            tx.update(a.toBuilder().content("changed").build());
            tx.addEdge(new Edge(a.id(), id(2), EdgeType.RELATED, clock.instant()));
            tx.addVersion(new MemoryVersion(a.id(), 1, "a", List.of(), null, clock.instant()));
            tx.delete(a.id());
            throw boom;
        }));
        assertTrue(thrown == boom, "the work's own exception reaches the caller unchanged");
        assertEquals(Optional.of(a), store.get(a.id()));
        assertEquals(Optional.empty(), store.get(id(2)));
        assertEquals(List.of(), store.edges(a.id()));
        assertEquals(List.of(), store.versions(a.id()));
        assertEquals(head, store.headSeq());
        assertEquals(1, store.count());
        insert(fact(2, "work", "b"));
        assertEquals(head + 1, store.headSeq(), "sequence numbers continue without a gap");
    }

    @Test
    void reopeningSeesEverything() {
        Memory a = insert(full(clock, 1, "work"));
        Memory b = insert(fact(2, "home", "b"));
        store.write(tx -> {
            tx.addEdge(new Edge(a.id(), b.id(), EdgeType.RELATED, clock.instant()));
            tx.addVersion(new MemoryVersion(a.id(), 1, "v1", List.of("t"), Importance.HIGH, clock.instant()));
            return null;
        });
        store.recordAccess(List.of(b.id()), clock.instant());
        long head = store.headSeq();
        List<Change> changes = store.changesSince(0, 100);
        Memory bAccessed = store.get(b.id()).orElseThrow();
        store.close();
        store = open(dir, clock);
        assertEquals(Optional.of(a), store.get(a.id()));
        assertEquals(Optional.of(bAccessed), store.get(b.id()));
        assertEquals(1, store.edges(a.id()).size());
        assertEquals(1, store.versions(a.id()).size());
        assertEquals(head, store.headSeq());
        assertEquals(changes, store.changesSince(0, 100));
        assertEquals(Set.of("home", "work"), store.zones());
    }

    /**
     * Random operations, including conflicting keys, unknown ids and failing work, applied to this
     * store and to the {@link InMemoryMemoryStore} reference; after each one both must agree.
     */
    @Test
    void randomOperationsAgreeWithTheReferenceFake() {
        long seed = Long.getLong("engram.seed", System.nanoTime());
        String reproduce = "reproduce with: -Dtest=" + getClass().getSimpleName()
                + "#randomOperationsAgreeWithTheReferenceFake -Dengram.seed=" + seed;
        Random random = new Random(seed);
        InMemoryMemoryStore reference = new InMemoryMemoryStore();
        List<String> zones = List.of("work", "home", "team");
        for (int step = 0; step < 200; step++) {
            clock.advance(Duration.ofSeconds(random.nextInt(3)));
            Function<StoreTransaction, Object> op = randomOperation(random, zones);
            Object expected = outcome(reference, op);
            Object actual = outcome(store, op);
            String at = "step " + step + "; " + reproduce;
            assertEquals(expected, actual, at);
            assertSameContents(reference, store, zones, at);
        }
    }

    private Function<StoreTransaction, Object> randomOperation(Random random, List<String> zones) {
        String id = id(random.nextInt(12));
        String other = id(random.nextInt(12));
        String zone = zones.get(random.nextInt(zones.size()));
        String key = "k" + random.nextInt(6);
        EdgeType type = random.nextBoolean() ? EdgeType.RELATED : EdgeType.BLOCKS;
        Instant now = clock.instant();
        // every random value is drawn here: the operation runs twice, once per store, and must do the same
        int choice = random.nextInt(11);
        StoredEmbedding embedding = new StoredEmbedding(random.nextBoolean() ? "m1" : "m2",
                new float[] {random.nextFloat(), random.nextFloat() - 0.5f});
        String content = "c" + random.nextInt(100);
        List<String> tags = random.nextBoolean() ? List.of("a") : List.of("a", "b");
        int pin = random.nextInt(3);
        boolean rekey = random.nextBoolean();
        return tx -> switch (choice) {
            case 0, 1 -> {
                tx.insert(minimal(clock, 0, zone, content).id(id).key(key).tags(tags).pinPriority(pin).build());
                yield "inserted";
            }
            case 2 -> {
                Memory m = tx.get(id).orElseThrow(() -> new NotFoundException("no " + id));
                tx.update(m.toBuilder().key(rekey ? key : m.key()).content(content).tags(tags).updatedAt(now).build());
                yield "updated";
            }
            case 3 -> tx.delete(id);
            case 4, 5 -> {
                if (id.equals(other)) yield "self";
                tx.addEdge(new Edge(id, other, type, now));
                yield tx.edges(id);
            }
            case 6 -> tx.removeEdge(id, other, type, null);
            case 7 -> {
                tx.addVersion(new MemoryVersion(id, tx.versionCount(id) + 1, "v", List.of(), null, now));
                yield tx.versionCount(id);
            }
            case 8 -> {
                tx.putEmbedding(id, embedding);
                yield "embedded";
            }
            case 9 -> {
                tx.clearEmbedding(id);
                yield "cleared";
            }
            default -> {
                tx.insert(minimal(clock, 0, zone, "doomed").id(id(100)).key("doomed").build());
                tx.putEmbedding(id(100), embedding);
                throw new IllegalStateException("work failed after writing");
            }
        };
    }

    /** The work's result, or the class of the exception it ended with. */
    private static Object outcome(MemoryStore s, Function<StoreTransaction, Object> op) {
        try {
            return s.write(op);
        } catch (RuntimeException e) {
            return e.getClass();
        }
    }

    private static void assertSameContents(MemoryStore expected, MemoryStore actual, List<String> zones, String at) {
        List<Memory> all = new ArrayList<>();
        expected.forEach(null, all::add);
        List<Memory> allActual = new ArrayList<>();
        actual.forEach(null, allActual::add);
        assertEquals(all, allActual, at);
        for (int n = 0; n < 12; n++) {
            assertEquals(expected.edges(id(n)), actual.edges(id(n)), at);
            assertEquals(expected.versions(id(n)), actual.versions(id(n)), at);
            assertEquals(expected.embedding(id(n)), actual.embedding(id(n)), at);
        }
        assertEquals(expected.missingEmbeddings("m1", 100), actual.missingEmbeddings("m1", 100), at);
        for (String zone : zones) assertEquals(expected.pinned(zone), actual.pinned(zone), at);
        List<String> ids = java.util.stream.IntStream.range(0, 12).mapToObj(MemoryFixtures::id).toList();
        assertEquals(expected.getAll(ids), actual.getAll(ids), at);
        assertEquals(expected.degrees(ids), actual.degrees(ids), at);
        assertEquals(expected.zones(), actual.zones(), at);
        assertEquals(expected.count(), actual.count(), at);
        assertEquals(expected.headSeq(), actual.headSeq(), at);
        assertEquals(expected.changesSince(0, 10_000), actual.changesSince(0, 10_000), at);
    }

    /**
     * A store may keep what it read (the SQLite store caches a recall's rows): every read made before a
     * write, through this handle or another one on the same directory, must still see that write after it.
     */
    @Test
    void readsRepeatedAfterAWriteSeeIt() {
        MemoryStore second = open(dir, clock);
        try {
            Memory a = insert(fact(1, "work", "a"));
            Memory b = insert(fact(2, "work", "b"));
            for (MemoryStore writer : List.of(store, second)) {
                readEverything(store, a, b);
                readEverything(second, a, b);
                Memory changed = a.toBuilder().content("changed by " + (writer == store ? "this" : "the other") + " handle")
                        .pinPriority(a.pinPriority() + 1).build();
                Edge edge = new Edge(a.id(), b.id(), writer == store ? EdgeType.RELATED : EdgeType.BLOCKS, clock.instant());
                writer.write(tx -> {
                    tx.update(changed);
                    tx.addEdge(edge);
                    return null;
                });
                for (MemoryStore reader : List.of(store, second)) {
                    String who = writer == store ? "write here" : "write through the other handle";
                    assertEquals(Optional.of(changed), reader.get(a.id()), who);
                    assertEquals(List.of(changed, b), reader.getAll(List.of(a.id(), b.id())), who);
                    assertEquals(List.of(changed), reader.pinned("work"), who);
                    assertEquals(writer.edges(a.id()), reader.edges(b.id()), who);
                    assertEquals(Map.of(a.id(), 1, b.id(), 1), reader.degrees(List.of(a.id(), b.id())), who);
                }
                a = changed;
            }
        } finally {
            second.close();
        }
    }

    private static void readEverything(MemoryStore s, Memory... ms) {
        List<String> ids = java.util.Arrays.stream(ms).map(Memory::id).toList();
        s.getAll(ids);
        ids.forEach(id -> {
            s.get(id);
            s.edges(id);
        });
        s.degrees(ids);
        s.pinned("work");
    }

    @Test
    void twoHandlesOnOneDirectorySeeEachOthersWrites() {
        MemoryStore second = open(dir, clock);
        try {
            Memory a = insert(fact(1, "work", "a"));
            assertEquals(Optional.of(a), second.get(a.id()));
            Memory b = fact(2, "work", "b");
            second.write(tx -> {
                tx.insert(b);
                return null;
            });
            assertEquals(Optional.of(b), store.get(b.id()));
            assertEquals(second.headSeq(), store.headSeq());
        } finally {
            second.close();
        }
    }
}
