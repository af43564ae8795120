package dev.engram.spi;

import static dev.engram.spi.MemoryFixtures.id;
import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.engram.error.NotFoundException;
import dev.engram.memory.Memory;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector clauses of {@link MemoryStore} and {@link StoreTransaction} ({@code embedding},
 * {@code missingEmbeddings}, {@code putEmbedding}, {@code clearEmbedding}), and the fixture the whole
 * store contract shares. Stores extend {@link MemoryStoreContract}, which extends this class, so
 * every store runs these too.
 */
public abstract class MemoryStoreVectorContract {

    /** Opens (or reopens) the store kept in {@code dir}. */
    protected abstract MemoryStore open(Path dir, Clock clock);

    @TempDir
    protected Path dir;
    protected final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    protected MemoryStore store;

    @BeforeEach
    void openStore() {
        store = open(dir, clock);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    protected Memory insert(Memory m) {
        store.write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    protected Memory fact(long n, String zone, String content) {
        clock.advance(Duration.ofSeconds(1));
        return minimal(clock, n, zone, content).build();
    }

    private void put(String id, StoredEmbedding e) {
        store.write(tx -> {
            tx.putEmbedding(id, e);
            return null;
        });
    }

    private void clear(String id) {
        store.write(tx -> {
            tx.clearEmbedding(id);
            return null;
        });
    }

    private static StoredEmbedding vec(String model, float... v) {
        return new StoredEmbedding(model, v);
    }

    /** Values whose bits a lossy encoding (text, double, big-endian mix-up, zero folding) would change. */
    private static final float[] AWKWARD = {0.1f, -0.0f, 0.0f, Float.MIN_VALUE, -Float.MAX_VALUE, Float.MAX_VALUE,
            1.0e-38f, 3.4028235e38f, (float) Math.PI, -1.5f, Float.NaN, 123456.789f, Float.MIN_NORMAL};

    @Test
    void aStoredVectorReadsBackBitForBitAndSurvivesReopening() {
        Memory a = insert(fact(1, "work", "a"));
        StoredEmbedding e = vec("model-x", AWKWARD);
        put(a.id(), e);
        StoredEmbedding read = store.embedding(a.id()).orElseThrow();
        assertEquals("model-x", read.modelId());
        assertBitsEqual(AWKWARD, read.vector());
        store.close();
        store = open(dir, clock);
        assertBitsEqual(AWKWARD, store.embedding(a.id()).orElseThrow().vector());
        assertEquals(Optional.of(e), store.embedding(a.id()));
    }

    private static void assertBitsEqual(float[] expected, float[] actual) {
        assertEquals(expected.length, actual.length, "dimensions");
        for (int i = 0; i < expected.length; i++) {
            assertEquals(Float.floatToRawIntBits(expected[i]), Float.floatToRawIntBits(actual[i]),
                    "component " + i + ": " + expected[i] + " read back as " + actual[i]);
        }
    }

    @Test
    void unknownIdsHaveNoVectorAndCannotGetOne() {
        assertEquals(Optional.empty(), store.embedding(id(404)));
        long head = store.headSeq();
        assertThrows(NotFoundException.class, () -> put(id(404), vec("m", 1f)));
        clear(id(404));
        assertEquals(head, store.headSeq(), "nothing to change, nothing in the feed");
        assertEquals(Optional.empty(), store.embedding(id(404)));
    }

    @Test
    void putReplacesTheVectorAndItsModelAndAppendsAChangeEachTime() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        long head = store.headSeq();
        put(a.id(), vec("m1", 1f, 2f, 3f));
        put(a.id(), vec("m2", 4f, 5f));
        assertEquals(Optional.of(vec("m2", 4f, 5f)), store.embedding(a.id()), "replaced, dimensions may change");
        assertEquals(Optional.empty(), store.embedding(b.id()), "other memories untouched");
        List<Change> changes = store.changesSince(head, 10);
        assertEquals(List.of(a.id(), a.id()), changes.stream().map(Change::memoryId).toList());
        assertEquals(head + 1, changes.get(0).seq(), "same gap-free feed as memory writes");
        assertEquals(head + 2, store.headSeq());
    }

    @Test
    void clearDropsTheVectorAndAppendsAChangeOnlyWhenThereWasOne() {
        Memory a = insert(fact(1, "work", "a"));
        put(a.id(), vec("m1", 1f, 0f));
        long head = store.headSeq();
        clear(a.id());
        assertEquals(Optional.empty(), store.embedding(a.id()));
        assertEquals(List.of(new Change(head + 1, a.id())), store.changesSince(head, 10));
        clear(a.id());
        assertEquals(head + 1, store.headSeq(), "clearing nothing appends nothing");
        assertEquals(Optional.of(a), store.get(a.id()), "the memory itself stays");
    }

    @Test
    void updatingAMemoryKeepsItsVectorAndDeletingItDeletesTheVector() {
        Memory a = insert(fact(1, "work", "a"));
        put(a.id(), vec("m1", 1f, 0f));
        store.write(tx -> {
            tx.update(a.toBuilder().content("a2").build());
            return null;
        });
        assertEquals(Optional.of(vec("m1", 1f, 0f)), store.embedding(a.id()), "dropping it is the caller's call");
        long head = store.headSeq();
        store.write(tx -> tx.delete(a.id()));
        assertEquals(Optional.empty(), store.embedding(a.id()));
        assertEquals(head + 1, store.headSeq(), "one change for the delete");
        insert(minimal(clock, 1, "work", "reborn").build());
        assertEquals(Optional.empty(), store.embedding(a.id()), "a new memory with the old id starts without a vector");
        assertEquals(List.of(a.id()), store.missingEmbeddings("m1", 10));
    }

    @Test
    void missingEmbeddingsListsMemoriesWithoutAVectorOfThatModelOldestFirst() {
        assertEquals(List.of(), store.missingEmbeddings("m1", 10));
        clock.advance(Duration.ofMinutes(10));
        Memory newest = minimal(clock, 9, "home", "newest").build();
        clock.advance(Duration.ofMinutes(-10));
        insert(newest); // inserted first, created last: the order is by creation time, not insertion
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "home", "b"));
        Memory c = insert(fact(3, "work", "c"));
        Memory d = insert(fact(4, "work", "d"));
        put(a.id(), vec("m1", 1f));
        put(b.id(), vec("m2", 1f));
        put(d.id(), vec("m1", 1f));
        assertEquals(List.of(b.id(), c.id(), newest.id()), store.missingEmbeddings("m1", 10),
                "no vector, or one of another model; every zone");
        assertEquals(List.of(a.id(), c.id(), d.id(), newest.id()), store.missingEmbeddings("m2", 10));
        assertEquals(List.of(a.id(), c.id()), store.missingEmbeddings("m2", 2), "at most max");
        assertEquals(List.of(a.id(), b.id(), c.id(), d.id(), newest.id()), store.missingEmbeddings("m3", 10));
        put(b.id(), vec("m1", 2f));
        put(c.id(), vec("m1", 3f));
        put(newest.id(), vec("m1", 4f));
        assertEquals(List.of(), store.missingEmbeddings("m1", 10), "done once every memory has one");
    }

    @Test
    void aFailedWriteLeavesVectorsAndTheFeedAsTheyWere() {
        Memory a = insert(fact(1, "work", "a"));
        Memory b = insert(fact(2, "work", "b"));
        put(a.id(), vec("m1", 1f, 2f));
        long head = store.headSeq();
        IllegalStateException boom = new IllegalStateException("boom");
        assertEquals(boom, assertThrows(IllegalStateException.class, () -> store.write(tx -> {
            tx.clearEmbedding(a.id());
            tx.putEmbedding(b.id(), vec("m1", 3f, 4f));
            tx.delete(a.id());
            throw boom;
        })));
        assertEquals(Optional.of(vec("m1", 1f, 2f)), store.embedding(a.id()));
        assertEquals(Optional.empty(), store.embedding(b.id()));
        assertEquals(head, store.headSeq());
        store.write(tx -> {
            tx.putEmbedding(b.id(), vec("m1", 3f, 4f));
            tx.clearEmbedding(a.id());
            return null;
        });
        assertEquals(head + 2, store.headSeq(), "one transaction, two changes");
        assertEquals(Optional.empty(), store.embedding(a.id()));
        assertEquals(Optional.of(vec("m1", 3f, 4f)), store.embedding(b.id()));
    }

    @Test
    void aSecondHandleSeesVectorsWrittenThroughTheFirst() {
        MemoryStore second = open(dir, clock);
        try {
            Memory a = insert(fact(1, "work", "a"));
            put(a.id(), vec("m1", 0.5f, 0.25f));
            assertEquals(Optional.of(vec("m1", 0.5f, 0.25f)), second.embedding(a.id()));
            assertEquals(List.of(), second.missingEmbeddings("m1", 10));
        } finally {
            second.close();
        }
    }
}
