package dev.engram.spi;

import static dev.engram.spi.MemoryFixtures.full;
import static dev.engram.spi.MemoryFixtures.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryVersion;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The transaction reads {@code versions} and {@code embedding}, and the tombstone clauses of
 * {@link StoreTransaction}. Stores run these through {@link MemoryStoreContract}, which extends this class.
 */
public abstract class MemoryStoreTombstoneContract extends MemoryStoreVectorContract {

    private <T> T tx(Function<StoreTransaction, T> work) {
        return store.write(work);
    }

    /** Every field filled, edges in both directions to memories that no longer exist, a vector of awkward floats. */
    private Tombstone tombstone(long n, Instant deletedAt) {
        Memory m = full(clock, n, "work");
        List<Edge> edges = List.of(
                new Edge(m.id(), id(n + 500), EdgeType.RELATED, clock.instant()),
                new Edge(id(n + 501), m.id(), EdgeType.CAUSED_BY, clock.instant().minusSeconds(5)),
                new Edge(m.id(), id(n + 500), EdgeType.BLOCKS, clock.instant()));
        List<MemoryVersion> versions = List.of(
                new MemoryVersion(m.id(), 1, "first", List.of("x"), Importance.LOW, clock.instant().minusSeconds(60)),
                new MemoryVersion(m.id(), 2, "second", List.of(), null, clock.instant().minusSeconds(30)));
        return new Tombstone(m, edges, versions, new StoredEmbedding("model-x", new float[] {0.1f, -0.0f, Float.NaN}),
                deletedAt);
    }

    @Test
    void transactionReadsVersionsAndVectorsIncludingItsOwnWrites() {
        Memory a = insert(fact(1, "work", "a"));
        MemoryVersion v1 = new MemoryVersion(a.id(), 1, "one", List.of("t"), Importance.HIGH, clock.instant());
        MemoryVersion v2 = new MemoryVersion(a.id(), 2, "two", List.of(), null, clock.instant().plusSeconds(1));
        StoredEmbedding e = new StoredEmbedding("m1", new float[] {1f, 2f});
        tx(tx -> {
            assertEquals(List.of(), tx.versions(a.id()));
            assertEquals(Optional.empty(), tx.embedding(a.id()));
            tx.addVersion(v2);
            tx.addVersion(v1);
            tx.putEmbedding(a.id(), e);
            assertEquals(List.of(v1, v2), tx.versions(a.id()), "oldest first, by version number");
            assertEquals(Optional.of(e), tx.embedding(a.id()));
            assertEquals(List.of(), tx.versions(id(404)));
            assertEquals(Optional.empty(), tx.embedding(id(404)));
            return null;
        });
        assertEquals(List.of(v1, v2), tx(tx -> tx.versions(a.id())));
    }

    @Test
    void aTombstoneRoundTripsEveryFieldOutsideTheChangeFeedAndSurvivesReopening() {
        Tombstone t = tombstone(1, clock.instant());
        long head = store.headSeq();
        tx(tx -> {
            tx.putTombstone(t);
            assertEquals(Optional.of(t), tx.tombstone(t.memory().id()), "a transaction reads its own tombstones");
            return null;
        });
        assertEquals(head, store.headSeq(), "not in the change feed");
        assertEquals(Optional.empty(), store.get(t.memory().id()), "a tombstone is not a memory");
        assertEquals(0, store.count());
        store.close();
        store = open(dir, clock);
        Tombstone read = tx(tx -> tx.tombstone(t.memory().id())).orElseThrow();
        assertEquals(t, read);
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(read.embedding().vector()[1]));
        Tombstone bare = new Tombstone(fact(2, "work", "no vector, no edges").toBuilder().build(), List.of(), List.of(),
                null, clock.instant());
        tx(tx -> {
            tx.putTombstone(bare);
            return null;
        });
        assertEquals(Optional.of(bare), tx(tx -> tx.tombstone(bare.memory().id())));
        assertEquals(Optional.empty(), tx(tx -> tx.tombstone(id(404))));
    }

    @Test
    void aTombstoneLivesBesideALiveMemoryWithTheSameIdAndKey() {
        Tombstone t = tombstone(1, clock.instant());
        tx(tx -> {
            tx.putTombstone(t);
            tx.insert(t.memory().toBuilder().content("reborn").build());
            return null;
        });
        assertEquals("reborn", store.get(t.memory().id()).orElseThrow().content());
        assertEquals(Optional.of(t), tx(tx -> tx.tombstone(t.memory().id())));
        assertEquals(Optional.of(t), tx(tx -> tx.tombstoneByKey("work", t.memory().key())));
        assertTrue(this.<Boolean>tx(tx -> tx.delete(t.memory().id())));
        assertEquals(Optional.of(t), tx(tx -> tx.tombstone(t.memory().id())), "deleting the memory leaves its tombstone");
    }

    @Test
    void puttingATombstoneForTheSameIdReplacesItWhole() {
        Tombstone first = tombstone(1, clock.instant());
        Tombstone second = new Tombstone(first.memory().toBuilder().content("deleted again").key("other-key").build(),
                first.edges().subList(0, 1), List.of(), null, clock.instant().plusSeconds(60));
        tx(tx -> {
            tx.putTombstone(first);
            return null;
        });
        tx(tx -> {
            tx.putTombstone(second);
            return null;
        });
        assertEquals(Optional.of(second), tx(tx -> tx.tombstone(first.memory().id())), "no edges or versions left over");
        assertEquals(Optional.empty(), tx(tx -> tx.tombstoneByKey("work", first.memory().key())));
    }

    @Test
    void byKeyFindsTheMostRecentlyDeletedInThatZoneOnly() {
        Instant t0 = clock.instant();
        Memory older = MemoryFixtures.minimal(clock, 1, "work", "older").key("same").build();
        Memory newer = MemoryFixtures.minimal(clock, 2, "work", "newer").key("same").build();
        Memory elsewhere = MemoryFixtures.minimal(clock, 3, "home", "other zone").key("same").build();
        Tombstone tNewer = new Tombstone(newer, List.of(), List.of(), null, t0.plusSeconds(10));
        tx(tx -> {
            tx.putTombstone(tNewer); // put first, deleted later: the order is by deletion time
            tx.putTombstone(new Tombstone(older, List.of(), List.of(), null, t0));
            tx.putTombstone(new Tombstone(elsewhere, List.of(), List.of(), null, t0.plusSeconds(20)));
            return null;
        });
        assertEquals(Optional.of(tNewer), tx(tx -> tx.tombstoneByKey("work", "same")));
        assertEquals("other zone", tx(tx -> tx.tombstoneByKey("home", "same")).orElseThrow().memory().content());
        assertEquals(Optional.empty(), tx(tx -> tx.tombstoneByKey("team", "same")));
    }

    @Test
    void removeAndPurgeDropTombstonesAndSayHowMany() {
        Instant t0 = clock.instant();
        for (int n = 1; n <= 4; n++) {
            Tombstone t = tombstone(n, t0.plusSeconds(n * 10L));
            tx(tx -> {
                tx.putTombstone(t);
                return null;
            });
        }
        assertTrue(this.<Boolean>tx(tx -> tx.removeTombstone(id(4))));
        assertFalse(this.<Boolean>tx(tx -> tx.removeTombstone(id(4))), "second remove reports absence");
        assertEquals(1, (int) tx(tx -> tx.purgeTombstones(t0.plusSeconds(20))), "strictly before: 20 s stays");
        assertEquals(Optional.empty(), tx(tx -> tx.tombstone(id(1))));
        assertTrue(tx(tx -> tx.tombstone(id(2))).isPresent());
        assertEquals(2, (int) tx(tx -> tx.purgeTombstones(t0.plusSeconds(3600))));
        assertEquals(Optional.empty(), tx(tx -> tx.tombstone(id(3))));
        assertEquals(0, (int) tx(tx -> tx.purgeTombstones(t0.plusSeconds(3600))));
    }

    @Test
    void aFailedWriteLeavesTombstonesAsTheyWere() {
        Tombstone kept = tombstone(1, clock.instant());
        tx(tx -> {
            tx.putTombstone(kept);
            return null;
        });
        IllegalStateException boom = new IllegalStateException("boom");
        assertEquals(boom, assertThrows(IllegalStateException.class, () -> tx(tx -> {
            tx.removeTombstone(kept.memory().id());
            tx.putTombstone(tombstone(2, clock.instant()));
            throw boom;
        })));
        assertEquals(Optional.of(kept), tx(tx -> tx.tombstone(kept.memory().id())));
        assertEquals(Optional.empty(), tx(tx -> tx.tombstone(id(2))));
    }
}
