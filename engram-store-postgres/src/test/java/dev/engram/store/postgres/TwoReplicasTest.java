package dev.engram.store.postgres;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas (two PostgresStores, each with its own index directory, as two servers on two hosts
 * would have) on one database and schema: each reads the other's writes at once, and each one's
 * Lucene index catches up from the shared change feed, for text, vectors and deletions.
 */
class TwoReplicasTest {
    @TempDir
    Path hostA;
    @TempDir
    Path hostB;
    private final MutableClock clock = MutableClock.at("2026-12-01T10:00:00Z");

    @AfterAll
    static void dropSchemas() {
        TestDatabase.dropAll();
    }

    private static void insert(PostgresStore s, Memory m) {
        s.store().write(tx -> {
            tx.insert(m);
            return null;
        });
    }

    private static List<String> ids(List<IndexHit> hits) {
        return hits.stream().map(IndexHit::id).toList();
    }

    @Test
    void eachReplicaSeesTheOthersWritesAndItsIndexCatchesUp() {
        PostgresLocation location = TestDatabase.freshSchema();
        try (PostgresStore a = PostgresStore.open(location, hostA); PostgresStore b = PostgresStore.open(location, hostB)) {
            assertNotEquals(a.indexDir(), b.indexDir(), "one index per replica");
            assertEquals(a.indexDir().getFileName(), b.indexDir().getFileName(), "named after the same store");

            Memory onA = minimal(clock, 1, "work", "the staging database runs on port 6543").build();
            insert(a, onA);
            assertEquals(Optional.of(onA), b.store().get(onA.id()), "a write acknowledged by A is read on B");
            assertEquals(List.of(onA.id()), ids(b.index().search(IndexQuery.text("staging database", "work", 10))),
                    "B's index caught up from the change feed");

            Memory onB = minimal(clock, 2, "work", "deploys go out every Tuesday after standup").build();
            insert(b, onB);
            assertEquals(List.of(onB.id()), ids(a.index().search(IndexQuery.text("tuesday deploys", "work", 10))));

            b.store().write(tx -> {
                tx.putEmbedding(onA.id(), new StoredEmbedding("m1", new float[] {1f, 0f, 0f}));
                tx.putEmbedding(onB.id(), new StoredEmbedding("m1", new float[] {0f, 1f, 0f}));
                return null;
            });
            List<IndexHit> near = a.index().searchVector(new VectorQuery(new float[] {0.9f, 0.1f, 0f}, "m1",
                    java.util.Set.of("work"), java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), null, null, 2));
            assertEquals(onA.id(), near.get(0).id(), "vectors written on B are searched on A");

            a.store().write(tx -> tx.delete(onA.id()));
            assertEquals(List.of(), ids(b.index().search(IndexQuery.text("staging database", "work", 10))),
                    "a deletion on A leaves B's index too");
            assertTrue(a.check().consistent(), a.check().toString());
            assertTrue(b.check().consistent(), b.check().toString());
            assertEquals(a.store().headSeq(), b.index().indexedSeq());
        }
    }

    @Test
    void aCommitOnOneReplicaWakesTheOthersIndexWithoutASearch() throws Exception {
        PostgresLocation location = TestDatabase.freshSchema();
        try (PostgresStore a = PostgresStore.open(location, hostA); PostgresStore b = PostgresStore.open(location, hostB)) {
            long before = b.index().indexedSeq();
            insert(a, minimal(clock, 1, "work", "the on-call rotation changes on Mondays").build());
            long head = a.store().headSeq();
            long deadline = System.nanoTime() + 3_000_000_000L;
            while (b.index().indexedSeq() < head && System.nanoTime() < deadline) Thread.sleep(20);
            assertTrue(head > before);
            assertEquals(head, b.index().indexedSeq(), "B's index followed A's commit through LISTEN/NOTIFY within 3 s");
        }
    }

    @Test
    void aReplicaStartedLaterBuildsItsIndexFromTheRecord() {
        PostgresLocation location = TestDatabase.freshSchema();
        try (PostgresStore a = PostgresStore.open(location, hostA)) {
            for (int i = 1; i <= 30; i++) insert(a, minimal(clock, i, "work", "note number " + i + " about kafka").build());
        }
        try (PostgresStore b = PostgresStore.open(location, hostB)) {
            assertEquals(30, b.index().search(IndexQuery.text("kafka", "work", 50)).size());
            assertTrue(b.check().consistent());
        }
    }

    @Test
    void writesFromTwoReplicasAtOnceGetOneGapFreeFeed() throws Exception {
        PostgresLocation location = TestDatabase.freshSchema();
        try (PostgresStore a = PostgresStore.open(location, hostA); PostgresStore b = PostgresStore.open(location, hostB)) {
            Thread ta = new Thread(() -> {
                for (int i = 0; i < 50; i++) insert(a, minimal(clock, 1000 + i, "work", "from a " + i).build());
            });
            Thread tb = new Thread(() -> {
                for (int i = 0; i < 50; i++) insert(b, minimal(clock, 2000 + i, "work", "from b " + i).build());
            });
            ta.start();
            tb.start();
            ta.join();
            tb.join();
            List<dev.engram.spi.Change> feed = a.store().changesSince(0, 1000);
            assertEquals(100, feed.size());
            for (int i = 0; i < feed.size(); i++) assertEquals(i + 1, feed.get(i).seq(), "no gaps, no duplicates");
            assertEquals(100, b.store().count());
            assertTrue(a.check().consistent());
            assertTrue(b.check().consistent());
        }
    }
}
