package dev.engram.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/** The over-fetch policy and field naming, which the contract suite can only observe indirectly. */
class VectorSearchTest {
    @Test
    void hnswIsAskedForFiveTimesKAtLeastFiftyAtMostAThousandNeverFewerThanK() {
        assertEquals(50, VectorSearch.fetch(1, 100_000));
        assertEquals(50, VectorSearch.fetch(10, 100_000));
        assertEquals(100, VectorSearch.fetch(20, 100_000));
        assertEquals(1_000, VectorSearch.fetch(500, 100_000));
        assertEquals(2_000, VectorSearch.fetch(2_000, 100_000));
        assertEquals(30, VectorSearch.fetch(10, 30), "never more than there are documents");
        assertEquals(1, VectorSearch.fetch(10, 0));
    }

    @Test
    void theKnnQueryOverFetchesAndCarriesTheFilter() throws IOException {
        FilterCoverage reader = new FilterCoverage(Zones.reader("home", "work"));
        VectorQuery plain = new VectorQuery(new float[] {3f, 4f}, "m", null, null, null, null, null, null, 10);
        KnnFloatVectorQuery q = (KnnFloatVectorQuery) VectorSearch.translate(plain, reader).orElseThrow();
        assertEquals(2, q.getK(), "never more than there are documents");
        assertNull(q.getFilter(), "no filter clause: an empty BooleanQuery would match nothing");
        assertEquals(0.6f, q.getTargetCopy()[0], 1e-6f, "the query vector is normalised like the stored ones");
        assertEquals(VectorFields.field("m", 2), q.getField());
        VectorQuery zoned = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work"), null, null, null, null, null, 10);
        assertNotNull(((KnnFloatVectorQuery) VectorSearch.translate(zoned, reader).orElseThrow()).getFilter());
        VectorQuery both = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work", "home"), null, null, null, null, null, 10);
        assertNull(((KnnFloatVectorQuery) VectorSearch.translate(both, reader).orElseThrow()).getFilter(),
                "a filter every document passes is left out");
        assertTrue(VectorSearch.translate(new VectorQuery(new float[] {0f, 0f}, "m", null, null, null, null, null, null, 1), reader)
                .isEmpty());
    }

    @Test
    void fieldNamesAreReadableDistinctPerModelAndSize() {
        String f = VectorFields.field("sentence-transformers/all-MiniLM-L6-v2", 384);
        assertTrue(f.matches("vec_[a-z0-9_]+_[0-9a-f]{8}_384"), f);
        assertTrue(f.startsWith("vec_sentence_transformers_all_mini"), f);
        assertNotEquals(VectorFields.field("a/b", 3), VectorFields.field("a_b", 3));
        assertNotEquals(VectorFields.field("m", 3), VectorFields.field("m", 4));
        assertEquals(VectorFields.field("m", 3), VectorFields.field("m", 3));
    }

    /** The figures the rule was drawn from (10,000 memories, docs/benchmarks.md, issue 14). */
    @Test
    void aSegmentIsScannedWhenTheWalkWouldVisitAtLeastAsManyNodesAsTheFilterMatches() {
        assertTrue(VectorSearch.scansExactly(500, 4_238, 10_000), "recall's 500 in a 42% zone: the walk gave up there");
        assertTrue(VectorSearch.scansExactly(500, 1_446, 10_000), "recall's 500 in a 14% zone");
        assertFalse(VectorSearch.scansExactly(75, 4_200, 10_000), "remember's 75 in a 42% zone: the walk finished in 1,624 visits");
        assertTrue(VectorSearch.scansExactly(75, 1_400, 10_000), "remember's 75 in a 14% zone: the walk gave up there");
        assertTrue(VectorSearch.scansExactly(50, 50, 10_000), "no more candidates than neighbours asked for");
        assertFalse(VectorSearch.scansExactly(500, 10_000, 10_000), "unfiltered: 4,500 predicted visits against 10,000 reads");
        assertTrue(VectorSearch.scansExactly(1_000, 5_000, 5_000), "unfiltered, small: 9,000 predicted visits against 5,000 reads");
    }

    /** Whichever way a segment is searched, the answer is the true top k wherever the rule says scan. */
    @Test
    void aScannedSegmentAnswersExactlyTheBruteForceTopK() throws IOException {
        int n = 3_000, dims = 128;
        Random random = new Random(42);
        float[][] vectors = new float[n][];
        String field = VectorFields.field("m", dims);
        try (var dir = new ByteBuffersDirectory()) {
            try (var w = new IndexWriter(dir, new IndexWriterConfig())) {
                for (int i = 0; i < n; i++) {
                    vectors[i] = VectorFields.unit(randomVector(random, dims)).orElseThrow();
                    Document d = new Document();
                    d.add(new StringField("id", Integer.toString(i), Field.Store.YES));
                    d.add(new StringField("zone", i % 5 < 2 ? "small" : "large", Field.Store.NO));
                    d.add(new KnnFloatVectorField(field, vectors[i], VectorFields.SIMILARITY));
                    w.addDocument(d);
                }
                for (int i = 0; i < n; i += 11) w.deleteDocuments(new Term("id", Integer.toString(i)));
                w.commit(); // one segment, its deletions kept as live docs rather than merged away
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                float[] target = VectorFields.unit(randomVector(random, dims)).orElseThrow();
                int live = reader.numDocs();
                long small = IntStream.range(0, n).filter(i -> i % 5 < 2 && i % 11 != 0).count();
                // a filter small enough to scan, and no filter with k large enough to scan all live documents
                assertTrue(VectorSearch.scansExactly(100, small, live));
                assertExact(searcher, new VectorSearch.ScanOrWalk(field, target, 100, 100, new TermQuery(new Term("zone", "small")), small),
                        vectors, target, i -> i % 5 < 2, 100);
                // over-fetched for the walk, a scan keeps only what the caller keeps, and exactly those
                VectorSearch.ScanOrWalk overFetched = new VectorSearch.ScanOrWalk(field, target, 500, 40,
                        new TermQuery(new Term("zone", "small")), small);
                assertEquals(bruteForce(vectors, target, i -> i % 5 < 2, 40), ids(searcher, overFetched, 500));
                assertTrue(VectorSearch.scansExactly(320, live, live));
                assertExact(searcher, new VectorSearch.ScanOrWalk(field, target, 320, 320, null, live), vectors, target, i -> true, 320);
                // where the rule keeps the walk, it still answers k live documents
                assertFalse(VectorSearch.scansExactly(20, live, live));
                List<Integer> walked = ids(searcher, new VectorSearch.ScanOrWalk(field, target, 20, 20, null, live), 20);
                assertEquals(20, walked.size());
                assertTrue(walked.stream().allMatch(i -> i % 11 != 0), "no deleted document: " + walked);
            }
        }
    }

    @Test
    void aFiltersLiveDocumentsAreCountedOncePerReader() throws IOException {
        FilterCoverage coverage = new FilterCoverage(Zones.withDeleted("home", "work", "home", "work", "work"));
        Query work = new TermQuery(new Term(MemoryDocuments.ZONE, "work"));
        assertEquals(3, coverage.count(work));
        assertEquals(3, coverage.count(new TermQuery(new Term(MemoryDocuments.ZONE, "work"))), "an equal filter, the same count");
        assertEquals(0, coverage.count(new TermQuery(new Term(MemoryDocuments.ZONE, "home"))), "deleted documents do not count");
    }

    @Test
    void aSegmentIsAskedForItsShareOfTheNeighboursAndThreeDeviationsMore() {
        assertEquals(500, VectorSearch.leafFetch(500, 10_000, 10_000), "one segment: all of them");
        assertEquals(500, VectorSearch.leafFetch(500, 10_000, 0), "nothing counted: all of them");
        // a tenth of the candidates: 50 expected, sd sqrt(50 * 0.9) = 6.7, so 50 + 20.2 rounded up, + 1
        assertEquals(72, VectorSearch.leafFetch(500, 1_000, 10_000));
        assertEquals(1, VectorSearch.leafFetch(10, 0, 10_000), "a segment without candidates is still asked for one");
        assertEquals(10, VectorSearch.leafFetch(10, 9_000, 10_000), "never more than k");
    }

    /**
     * Several segments, the query's true neighbours all in one of them (segments fill by time, and a query about
     * recent memories finds them in the newest): that segment is searched again for all k, and the answer is as
     * good as Lucene's, which asks every segment for k. With the neighbours spread evenly, nothing is searched again.
     */
    @Test
    void aSegmentThatMayHoldMoreOfTheTopKIsSearchedAgain() throws IOException {
        int perSegment = 4_000, segments = 5, dims = 32, k = 200;
        Random random = new Random(7);
        String field = VectorFields.field("m", dims);
        float[] target = VectorFields.unit(randomVector(random, dims)).orElseThrow();
        float[][] vectors = new float[perSegment * segments][];
        try (var dir = new ByteBuffersDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig().setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
            try (var w = new IndexWriter(dir, config)) {
                for (int i = 0; i < vectors.length; i++) {
                    float[] v = randomVector(random, dims);
                    // the last segment's documents lie near the target: the whole top k is there
                    if (i >= perSegment * (segments - 1)) for (int d = 0; d < dims; d++) v[d] = 0.2f * v[d] + target[d];
                    vectors[i] = VectorFields.unit(v).orElseThrow();
                    Document d = new Document();
                    d.add(new StringField("id", Integer.toString(i), Field.Store.YES));
                    d.add(new KnnFloatVectorField(field, vectors[i], VectorFields.SIMILARITY));
                    w.addDocument(d);
                    if ((i + 1) % perSegment == 0) w.flush();
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(segments, reader.leaves().size());
                IndexSearcher searcher = new IndexSearcher(reader);
                List<Integer> truth = nearest(vectors, target, k);
                VectorSearch.ScanOrWalk skewed = new VectorSearch.ScanOrWalk(field, target, k, k, null, reader.numDocs());
                List<Integer> found = ids(searcher, skewed, k);
                List<Integer> lucene = ids(searcher, new KnnFloatVectorQuery(field, target, k), k);
                assertEquals(1, skewed.searchedAgain(), "the segment holding the top k");
                assertTrue(overlap(found, truth) >= overlap(lucene, truth) - 2,
                        "found " + overlap(found, truth) + " of the true top " + k + ", Lucene " + overlap(lucene, truth));
                assertTrue(overlap(found, truth) >= 0.9 * k, "found " + overlap(found, truth));

                float[] elsewhere = VectorFields.unit(randomVector(random, dims)).orElseThrow();
                VectorSearch.ScanOrWalk even = new VectorSearch.ScanOrWalk(field, elsewhere, 20, 20, null, reader.numDocs());
                List<Integer> evenFound = ids(searcher, even, 20);
                assertEquals(0, even.searchedAgain(), "neighbours spread over the segments: each gave its share");
                assertTrue(overlap(evenFound, nearest(vectors, elsewhere, 20)) >= 16, evenFound.toString());
            }
        }
    }

    /** The true top k of every vector, nothing deleted. */
    private static List<Integer> nearest(float[][] vectors, float[] target, int k) {
        return IntStream.range(0, vectors.length).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -dot(vectors[i], target)).thenComparing(i -> i))
                .limit(k).toList();
    }

    private static long overlap(List<Integer> a, List<Integer> b) {
        return a.stream().filter(b::contains).count();
    }

    private static void assertExact(IndexSearcher searcher, Query q, float[][] vectors, float[] target,
                                    IntPredicate passes, int k) throws IOException {
        assertEquals(bruteForce(vectors, target, passes, k), ids(searcher, q, k));
    }

    private static List<Integer> ids(IndexSearcher searcher, Query q, int k) throws IOException {
        ScoreDoc[] hits = searcher.search(q, k).scoreDocs;
        return Arrays.stream(hits).map(h -> {
            try {
                return Integer.parseInt(searcher.storedFields().document(h.doc).get("id"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    private static List<Integer> bruteForce(float[][] vectors, float[] target, IntPredicate passes, int k) {
        return IntStream.range(0, vectors.length).filter(i -> i % 11 != 0 && passes.test(i)).boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -dot(vectors[i], target)).thenComparing(i -> i))
                .limit(k).toList();
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) s += a[i] * b[i];
        return s;
    }

    private static float[] randomVector(Random random, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) v[i] = (float) random.nextGaussian();
        return v;
    }
}
