package dev.engram.spi;

import static dev.engram.spi.MemoryFixtures.minimal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.testing.MutableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The vector clauses of {@link SearchIndex} and {@link VectorQuery} as tests, and the fixture the
 * whole index contract shares. Indexes extend {@link SearchIndexContract}, which extends this class.
 */
public abstract class SearchIndexVectorContract {

    /** A store and the index over it; closing closes the index first. */
    public record Opened(MemoryStore store, SearchIndex index) implements AutoCloseable {
        @Override
        public void close() {
            index.close();
            store.close();
        }
    }

    protected abstract Opened open(Path dir, Clock clock);

    @TempDir
    protected Path dir;
    protected final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    private Opened opened;
    private long next = 1;

    @BeforeEach
    void openPair() {
        opened = open(dir, clock);
    }

    @AfterEach
    void closePair() {
        opened.close();
    }

    /** Closes the store and index and opens them again on the same directory, as a restart would. */
    protected void reopen() {
        opened.close();
        opened = open(dir, clock);
    }

    protected MemoryStore store() {
        return opened.store();
    }

    protected SearchIndex index() {
        return opened.index();
    }

    protected Memory.Builder memory(String content) {
        clock.advance(Duration.ofMinutes(1));
        return minimal(clock, next++, "work", content);
    }

    protected Memory insert(Memory m) {
        store().write(tx -> {
            tx.insert(m);
            return null;
        });
        return m;
    }

    private static final String MODEL = "test/mini-4";
    private static final double EPS = 1e-5;

    private Memory embedded(Memory m, String model, float... v) {
        store().write(tx -> {
            tx.insert(m);
            tx.putEmbedding(m.id(), new StoredEmbedding(model, v));
            return null;
        });
        return m;
    }

    private Memory embedded(Memory m, float... v) {
        return embedded(m, MODEL, v);
    }

    private void put(String id, float... v) {
        store().write(tx -> {
            tx.putEmbedding(id, new StoredEmbedding(MODEL, v));
            return null;
        });
    }

    private static VectorQuery near(int k, float... v) {
        return new VectorQuery(v, MODEL, null, null, null, null, null, null, k);
    }

    private List<String> ids(VectorQuery q) {
        return index().searchVector(q).stream().map(IndexHit::id).toList();
    }

    @Test
    void nearestFirstWithCosineScoresMappedToZeroOne() {
        Memory same = embedded(memory("same direction").build(), 2f, 0f, 0f, 0f); // length 2: cosine ignores it
        Memory close = embedded(memory("close").build(), 0.9f, 0.1f, 0f, 0f);
        Memory orthogonal = embedded(memory("orthogonal").build(), 0f, 0f, 1f, 0f);
        Memory opposite = embedded(memory("opposite").build(), -1f, 0f, 0f, 0f);
        insert(memory("no vector at all").build());
        index().catchUp();
        List<IndexHit> hits = index().searchVector(near(10, 1f, 0f, 0f, 0f));
        assertEquals(List.of(same.id(), close.id(), orthogonal.id(), opposite.id()),
                hits.stream().map(IndexHit::id).toList(), "memories without a vector are not candidates");
        double cosClose = 0.9 / Math.sqrt(0.82);
        assertEquals(1.0, hits.get(0).score(), EPS);
        assertEquals((1 + cosClose) / 2, hits.get(1).score(), EPS);
        assertEquals(0.5, hits.get(2).score(), EPS);
        assertEquals(0.0, hits.get(3).score(), EPS);
        assertEquals(List.of(same.id(), close.id()), ids(near(2, 1f, 0f, 0f, 0f)), "k caps the hits");
    }

    @Test
    void modelsAreNeverMixed() {
        Memory a = embedded(memory("model a").build(), "model-a", 1f, 0f, 0f);
        Memory b = embedded(memory("model b").build(), "model-b", 1f, 0f, 0f);
        Memory b2 = embedded(memory("model b, far").build(), "model-b", 0f, 1f, 0f);
        Memory slashed = embedded(memory("look-alike id").build(), "model/a", 1f, 0f, 0f);
        index().catchUp();
        VectorQuery qa = new VectorQuery(new float[] {1f, 0f, 0f}, "model-a", null, null, null, null, null, null, 10);
        VectorQuery qb = new VectorQuery(new float[] {1f, 0f, 0f}, "model-b", null, null, null, null, null, null, 10);
        VectorQuery unknown = new VectorQuery(new float[] {1f, 0f, 0f}, "model-c", null, null, null, null, null, null, 10);
        VectorQuery wrongSize = new VectorQuery(new float[] {1f, 0f}, "model-a", null, null, null, null, null, null, 10);
        assertEquals(List.of(a.id()), ids(qa));
        assertEquals(List.of(b.id(), b2.id()), ids(qb));
        assertEquals(List.of(slashed.id()), ids(new VectorQuery(new float[] {1f, 0f, 0f}, "model/a",
                null, null, null, null, null, null, 10)), "model ids that sanitise alike stay apart");
        assertEquals(List.of(), ids(unknown), "an unknown model finds nothing");
        assertEquals(List.of(), ids(wrongSize), "a vector of another size is not comparable");
    }

    @Test
    void aModelWhoseVectorSizeChangedKeepsBothSizesSearchable() {
        // a misconfigured model id reused for another vector size must not stop the index from catching up
        Memory three = embedded(memory("three dims").build(), 1f, 0f, 0f);
        Memory four = embedded(memory("four dims").build(), 1f, 0f, 0f, 0f);
        Memory later = insert(memory("written after both").build());
        assertEquals(store().headSeq(), index().catchUp());
        assertEquals(List.of(three.id()), ids(near(10, 1f, 0f, 0f)));
        assertEquals(List.of(four.id()), ids(near(10, 1f, 0f, 0f, 0f)));
        assertEquals(List.of(later.id()), index().search(new IndexQuery("written", null, null, null, null, null, null, 10))
                .stream().map(IndexHit::id).toList());
    }

    @Test
    void hostedModelSizedVectorsAreSearchable() {
        // 1536 (and 3072) dimensions are common for hosted models; Lucene's default limit is 1024
        float[] wide = new float[1536];
        float[] other = new float[1536];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = (float) Math.sin(i);
            other[i] = (float) Math.cos(i);
        }
        Memory a = embedded(memory("wide").build(), wide);
        Memory b = embedded(memory("other").build(), other);
        index().catchUp();
        assertEquals(List.of(a.id(), b.id()), ids(near(2, wide)));
    }

    @Test
    void anEmptyIndexOrAVectorWithoutDirectionFindsNothing() {
        assertEquals(List.of(), ids(near(5, 1f, 0f, 0f, 0f)));
        embedded(memory("a").build(), 1f, 0f, 0f, 0f);
        Memory zero = embedded(memory("zero vector").build(), 0f, 0f, 0f, 0f);
        index().catchUp();
        assertEquals(List.of(), ids(near(5, 0f, 0f, 0f, 0f)), "a zero query has no nearest");
        assertTrue(!ids(near(5, 0f, 0f, 0f, 1f)).contains(zero.id()), "a zero vector has no direction");
    }

    @Test
    void everyFilterApplies() {
        Instant t0 = clock.instant();
        Memory work = embedded(memory("w").type(MemoryType.ERROR).tags(List.of("a", "b")).build(), 1f, 0f, 0f, 0f);
        Memory home = embedded(memory("h").zone("home").type(MemoryType.FACT).tags(List.of("a")).build(), 0.9f, 0.1f, 0f, 0f);
        Memory draft = embedded(memory("d").type(MemoryType.DECISION).status(MemoryStatus.DRAFT).tags(List.of("b")).build(),
                0.8f, 0.2f, 0f, 0f);
        index().catchUp();
        assertEquals(List.of(work.id(), home.id(), draft.id()), ids(q(null, null, null, null, null, null)));
        assertEquals(List.of(work.id(), draft.id()), ids(q(Set.of("work"), null, null, null, null, null)));
        assertEquals(List.of(home.id()), ids(q(Set.of("home"), null, null, null, null, null)));
        assertEquals(List.of(home.id()), ids(q(null, Set.of(MemoryType.FACT), null, null, null, null)));
        assertEquals(List.of(work.id(), draft.id()), ids(q(null, Set.of(MemoryType.ERROR, MemoryType.DECISION), null, null, null, null)));
        assertEquals(List.of(work.id()), ids(q(null, null, Set.of("a", "b"), null, null, null)), "all tags must match");
        assertEquals(List.of(work.id(), draft.id()), ids(q(null, null, Set.of("b"), null, null, null)));
        assertEquals(List.of(draft.id()), ids(q(null, null, null, Set.of(MemoryStatus.DRAFT), null, null)));
        assertEquals(List.of(home.id(), draft.id()), ids(q(null, null, null, null, home.createdAt(), null)), "from is inclusive");
        assertEquals(List.of(work.id(), home.id()), ids(q(null, null, null, null, null, home.createdAt())), "to is inclusive");
        assertEquals(List.of(), ids(q(null, null, null, null, t0.minusSeconds(60), t0)));
        assertEquals(List.of(), ids(q(Set.of("nowhere"), null, null, null, null, null)));
    }

    private static VectorQuery q(Set<String> zones, Set<MemoryType> types, Set<String> tags,
                                 Set<MemoryStatus> statuses, Instant from, Instant to) {
        return new VectorQuery(new float[] {1f, 0f, 0f, 0f}, MODEL, zones, types, tags, statuses, from, to, 10);
    }

    @Test
    void aFilterMatchingFewFarDocumentsStillReturnsThem() {
        // 400 near neighbours crowd the graph; the 3 that pass the filter are far from the query. A
        // search that filtered after taking the top 50 (or top 5 x k) neighbours would return none.
        store().write(tx -> {
            for (int i = 0; i < 400; i++) {
                Memory m = memory("crowd " + i).zone("crowd").build();
                tx.insert(m);
                tx.putEmbedding(m.id(), new StoredEmbedding(MODEL, new float[] {1f, i / 4000f, 0f, 0f}));
            }
            return null;
        });
        Memory r1 = embedded(memory("rare 1").zone("rare").build(), 0.1f, 1f, 0f, 0f);
        Memory r2 = embedded(memory("rare 2").zone("rare").build(), 0f, 0f, 1f, 0f);
        Memory r3 = embedded(memory("rare 3").zone("rare").build(), -1f, 0f, 0f, 0.1f);
        index().catchUp();
        VectorQuery rare = new VectorQuery(new float[] {1f, 0f, 0f, 0f}, MODEL, Set.of("rare"), null, null, null, null, null, 3);
        assertEquals(List.of(r1.id(), r2.id(), r3.id()), ids(rare));
        VectorQuery rareLater = new VectorQuery(new float[] {1f, 0f, 0f, 0f}, MODEL, Set.of("rare"), null, null, null,
                r2.createdAt(), null, 10);
        assertEquals(List.of(r2.id(), r3.id()), ids(rareLater));
    }

    @Test
    void theNearestAmongManyAgreeWithAnExactScan() {
        Random random = new Random(42); // fixed: the same data every run, so a miss is a bug, not noise
        List<float[]> vectors = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        store().write(tx -> {
            for (int i = 0; i < 300; i++) {
                float[] v = new float[16];
                for (int d = 0; d < v.length; d++) v[d] = (float) random.nextGaussian();
                Memory m = memory("random " + i).build();
                tx.insert(m);
                tx.putEmbedding(m.id(), new StoredEmbedding(MODEL, v));
                vectors.add(v);
                ids.add(m.id());
            }
            return null;
        });
        index().catchUp();
        for (int query = 0; query < 10; query++) {
            float[] q = new float[16];
            for (int d = 0; d < q.length; d++) q[d] = (float) random.nextGaussian();
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < vectors.size(); i++) order.add(i);
            order.sort(Comparator.comparingDouble(i -> -cosine(vectors.get(i), q)));
            List<String> exact = order.subList(0, 5).stream().map(ids::get).toList();
            assertEquals(exact, ids(new VectorQuery(q, MODEL, null, null, null, null, null, null, 5)), "query " + query);
        }
    }

    private static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            na += (double) a[i] * a[i];
            nb += (double) b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    @Test
    void putReplaceClearAndDeleteAreReflectedAfterCatchUp() {
        Memory a = embedded(memory("a").build(), 1f, 0f, 0f, 0f);
        Memory b = embedded(memory("b").build(), 0f, 1f, 0f, 0f);
        Memory c = insert(memory("cobalt note").build());
        index().catchUp();
        assertEquals(List.of(a.id(), b.id()), ids(near(10, 1f, 0.1f, 0f, 0f)));
        put(c.id(), 1f, 0.1f, 0f, 0f);
        put(b.id(), 1f, 0.05f, 0f, 0f);
        index().catchUp();
        assertEquals(List.of(c.id(), b.id(), a.id()), ids(near(10, 1f, 0.1f, 0f, 0f)), "added and replaced");
        store().write(tx -> {
            tx.update(a.toBuilder().content("a changed, vector kept").build());
            tx.clearEmbedding(c.id());
            return null;
        });
        index().catchUp();
        assertEquals(List.of(b.id(), a.id()), ids(near(10, 1f, 0.1f, 0f, 0f)),
                "an update keeps the stored vector in the index; a cleared one is gone");
        store().write(tx -> tx.delete(b.id()));
        index().catchUp();
        assertEquals(List.of(a.id()), ids(near(10, 1f, 0.1f, 0f, 0f)));
        assertEquals(List.of(c.id()), index().search(new IndexQuery("cobalt", null, null, null, null, null, null, 10))
                .stream().map(IndexHit::id).toList(), "clearing the vector leaves the text searchable");
    }

    @Test
    void vectorsStaySearchableAfterReopening() {
        Memory a = embedded(memory("a").build(), 1f, 0f, 0f, 0f);
        index().catchUp();
        Memory b = embedded(memory("b").build(), 0.9f, 0.1f, 0f, 0f);
        reopen();
        index().catchUp();
        assertEquals(List.of(a.id(), b.id()), ids(near(10, 1f, 0f, 0f, 0f)));
    }
}
