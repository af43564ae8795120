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
    private static final SignCodes.Cache CODES = new SignCodes.Cache();
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
        KnnFloatVectorQuery q = (KnnFloatVectorQuery) VectorSearch.translate(plain, reader, new SignCodes.Cache()).orElseThrow();
        assertEquals(2, q.getK(), "never more than there are documents");
        assertNull(q.getFilter(), "no filter clause: an empty BooleanQuery would match nothing");
        assertEquals(0.6f, q.getTargetCopy()[0], 1e-6f, "the query vector is normalised like the stored ones");
        assertEquals(VectorFields.field("m", 2), q.getField());
        VectorQuery zoned = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work"), null, null, null, null, null, 10);
        assertNotNull(((KnnFloatVectorQuery) VectorSearch.translate(zoned, reader, new SignCodes.Cache()).orElseThrow()).getFilter());
        VectorQuery both = new VectorQuery(new float[] {3f, 4f}, "m", Set.of("work", "home"), null, null, null, null, null, 10);
        assertNull(((KnnFloatVectorQuery) VectorSearch.translate(both, reader, new SignCodes.Cache()).orElseThrow()).getFilter(),
                "a filter every document passes is left out");
        assertTrue(VectorSearch.translate(new VectorQuery(new float[] {0f, 0f}, "m", null, null, null, null, null, null, 1), reader, new SignCodes.Cache())
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
    void aSegmentIsScannedWhenTheWalkWouldCostMoreThanTheScan() {
        assertEquals(1_000, VectorSearch.shortlist(100));
        assertEquals(2_000, VectorSearch.shortlist(200));
        assertEquals(1_500, VectorSearch.scanCost(1_500, 1_000), 1e-9, "up to twice the shortlist: every candidate scored");
        assertEquals(4_238 / 10.0 + 1_000, VectorSearch.scanCost(4_238, 1_000), 1e-9, "more: codes, then the shortlist");
        assertEquals(1_000, VectorSearch.shortlistShare(100, 4_000, 0), "one segment: the whole shortlist");
        // a fifth of the candidates: 200 expected, sd sqrt(200 * 0.8) = 12.6, so 200 + 37.9 rounded up, + 1
        assertEquals(239, VectorSearch.shortlistShare(100, 3_000, 15_000));
        assertTrue(VectorSearch.scans(500, VectorSearch.shortlist(100), 4_238, 10_000), "recall's 500 in a 42% zone: the walk gave up there");
        assertTrue(VectorSearch.scans(500, VectorSearch.shortlist(100), 1_446, 10_000), "recall's 500 in a 14% zone");
        assertTrue(VectorSearch.scans(75, VectorSearch.shortlist(75), 4_200, 10_000), "remember's 75 in a 42% zone: 1,607 visits against 1,420");
        assertTrue(VectorSearch.scans(75, VectorSearch.shortlist(75), 1_400, 10_000), "remember's 75 in a 14% zone: the walk gave up there");
        assertTrue(VectorSearch.scans(50, VectorSearch.shortlist(50), 50, 10_000), "no more candidates than neighbours asked for");
        assertTrue(VectorSearch.scans(500, VectorSearch.shortlist(100), 10_000, 10_000), "unfiltered: 4,500 predicted visits against 2,000");
        assertFalse(VectorSearch.scans(20, VectorSearch.shortlist(20), 10_000, 10_000), "20 neighbours: 180 predicted visits against 2,000");
        assertFalse(VectorSearch.scans(500, VectorSearch.shortlist(100), 1_000_000, 1_000_000), "a million candidates: 4,500 visits against 101,000");
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
                    Document d = document(i, field, vectors[i]);
                    d.add(new StringField("zone", i % 5 < 2 ? "small" : "large", Field.Store.NO));
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
                assertTrue(VectorSearch.scans(100, VectorSearch.shortlist(100), small, live));
                assertExact(searcher, new VectorSearch.ScanOrWalk(field, target, 100, 100, new TermQuery(new Term("zone", "small")), small, CODES),
                        vectors, target, i -> i % 5 < 2, 100);
                // over-fetched for the walk, a scan keeps only what the caller keeps, and exactly those
                VectorSearch.ScanOrWalk overFetched = new VectorSearch.ScanOrWalk(field, target, 500, 40,
                        new TermQuery(new Term("zone", "small")), small, CODES);
                assertEquals(bruteForce(vectors, target, i -> i % 5 < 2, 40), ids(searcher, overFetched, 500));
                assertTrue(VectorSearch.scans(320, VectorSearch.shortlist(320), live, live));
                assertExact(searcher, new VectorSearch.ScanOrWalk(field, target, 320, 320, null, live, CODES), vectors, target, i -> true, 320);
                // where the rule keeps the walk, it still answers k live documents
                assertFalse(VectorSearch.scans(20, VectorSearch.shortlist(20), live, live));
                List<Integer> walked = ids(searcher, new VectorSearch.ScanOrWalk(field, target, 20, 20, null, live, CODES), 20);
                assertEquals(20, walked.size());
                assertTrue(walked.stream().allMatch(i -> i % 11 != 0), "no deleted document: " + walked);
            }
        }
    }

    /**
     * Vectors like a sentence model's: a large component they all share, and clusters around it. A scan of more than twice
     * the shortlist ranks by sign codes, scores between one and two shortlists, and still finds the true top k (deleted
     * documents and documents without a vector never among them); its codes are dropped with the segment.
     */
    @Test
    void aLargeScanScoresOnlyTheShortlistItsSignCodesPickAndFindsTheTopK() throws IOException {
        int n = 12_000, dims = 96, k = 50;
        Random random = new Random(11);
        String field = VectorFields.field("m", dims);
        float[] shared = randomVector(random, dims);
        float[][] centres = new float[40][];
        for (int c = 0; c < centres.length; c++) centres[c] = randomVector(random, dims);
        float[][] vectors = new float[n][];
        SignCodes.Cache codes = new SignCodes.Cache();
        try (var dir = new ByteBuffersDirectory()) {
            try (var w = new IndexWriter(dir, new IndexWriterConfig())) {
                for (int i = 0; i < n; i++) {
                    // a few documents hold no vector of this model
                    if (i % 97 != 5) vectors[i] = nearSubject(random, shared, centres[random.nextInt(centres.length)]);
                    w.addDocument(document(i, field, vectors[i]));
                }
                for (int i = 0; i < n; i += 11) w.deleteDocuments(new Term("id", Integer.toString(i))); // as bruteForce expects
                w.commit(); // deletions kept as live docs, not merged away
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(1, reader.leaves().size());
                assertTrue(reader.hasDeletions());
                IndexSearcher searcher = new IndexSearcher(reader);
                IntPredicate live = i -> i % 11 != 0 && i % 97 != 5;
                int found = 0;
                for (int round = 0; round < 5; round++) {
                    float[] target = nearSubject(random, shared, centres[random.nextInt(centres.length)]);
                    // a recall's shape: 10 x k asked of the graph, k kept
                    assertTrue(VectorSearch.scans(10 * k, VectorSearch.shortlist(k), reader.numDocs(), reader.numDocs()));
                    VectorSearch.ScanOrWalk scan = new VectorSearch.ScanOrWalk(field, target, 10 * k, k, null, reader.numDocs(), codes);
                    List<Integer> got = ids(searcher, scan, k);
                    assertTrue(scan.lastShortlist() >= VectorSearch.shortlist(k) && scan.lastShortlist() <= 2 * VectorSearch.shortlist(k),
                            "scored " + scan.lastShortlist() + " of " + reader.numDocs());
                    assertTrue(got.stream().allMatch(live::test), "a deleted document or one without a vector: " + got);
                    List<Integer> truth = bruteForce(vectors, target, live, k);
                    assertEquals(truth.subList(0, 10), got.subList(0, 10), "the top 10 exactly");
                    found += overlap(got, truth);
                }
                assertTrue(found >= 0.97 * 5 * k, found + " of the true top " + k + " in 5 queries");
                assertEquals(1, codes.size(), "one segment's codes, built once");
            }
            assertEquals(0, codes.size(), "dropped when the segment closed");
        }
    }

    /**
     * Five segments of 2,000: each holds fewer than twice the whole shortlist, so each gets its share of it (239). A
     * query whose top is spread over them is answered from the shares; one whose whole top lies in the newest segment
     * makes that segment be scored again with the whole shortlist. Both find the true top 10 and nearly all the top 100.
     */
    @Test
    void eachSegmentScoresItsShareOfTheShortlistAndOneHoldingMoreOfTheTopIsScoredAgain() throws IOException {
        int perSegment = 2_000, segments = 5, dims = 64, kept = 100;
        Random random = new Random(5);
        String field = VectorFields.field("m", dims);
        float[] shared = randomVector(random, dims);
        float[][] centres = new float[30][];
        for (int c = 0; c < centres.length; c++) centres[c] = randomVector(random, dims);
        float[] hot = centres[0];
        float[][] vectors = new float[perSegment * segments][];
        try (var dir = new ByteBuffersDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig().setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
            try (var w = new IndexWriter(dir, config)) {
                for (int i = 0; i < vectors.length; i++) {
                    boolean newest = i >= perSegment * (segments - 1);
                    // only the newest segment has memories about the hot subject
                    vectors[i] = nearSubject(random, shared, newest && i % 3 == 0 ? hot : centres[1 + random.nextInt(centres.length - 1)]);
                    w.addDocument(document(i, field, vectors[i]));
                    if ((i + 1) % perSegment == 0) w.flush();
                }
                for (int i = 0; i < vectors.length; i += 11) w.deleteDocuments(new Term("id", Integer.toString(i))); // as bruteForce expects
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(segments, reader.leaves().size());
                IndexSearcher searcher = new IndexSearcher(reader);
                SignCodes.Cache codes = new SignCodes.Cache();
                long live = reader.numDocs();
                long perLeaf = reader.leaves().get(0).reader().numDocs();
                int share = VectorSearch.shortlistShare(kept, perLeaf, live);
                assertTrue(perLeaf > 2L * share && perLeaf < 2L * VectorSearch.shortlist(kept),
                        "each segment is shortlisted only with its share: " + perLeaf + " candidates, share " + share);
                for (boolean skewed : List.of(false, true)) {
                    float[] target = nearSubject(random, shared, skewed ? hot : centres[1 + random.nextInt(centres.length - 1)]);
                    VectorSearch.ScanOrWalk scan = new VectorSearch.ScanOrWalk(field, target, 5 * kept, kept, null, live, codes);
                    List<Integer> got = ids(searcher, scan, kept);
                    List<Integer> truth = bruteForce(vectors, target, i -> true, kept);
                    assertEquals(skewed ? 1 : 0, scan.scoredAgain(), skewed ? "the newest segment holds the top" : "the top is spread");
                    assertEquals(truth.subList(0, 10), got.subList(0, 10), "the top 10 exactly");
                    assertTrue(overlap(got, truth) >= 0.95 * kept, overlap(got, truth) + " of the true top " + kept);
                }
            }
        }
    }

    @Test
    void signCodesAreCloseForVectorsThatPointTheSameWay() throws IOException {
        int dims = 130; // three words, the last partly used
        Random random = new Random(3);
        String field = VectorFields.field("m", dims);
        float[] a = VectorFields.unit(randomVector(random, dims)).orElseThrow();
        float[] near = a.clone();
        near[0] += 0.05f;
        float[] opposite = new float[dims];
        for (int x = 0; x < dims; x++) opposite[x] = -a[x];
        try (var dir = new ByteBuffersDirectory()) {
            try (var w = new IndexWriter(dir, new IndexWriterConfig())) {
                List<float[]> vectors = List.of(a, VectorFields.unit(near).orElseThrow(), opposite);
                for (int i = 0; i < vectors.size(); i++) w.addDocument(document(i, field, vectors.get(i)));
                w.addDocument(document(3, field, null));
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                SignCodes codes = SignCodes.build(reader.leaves().get(0).reader(), field, dims);
                long[] query = codes.encode(a);
                assertEquals(0, codes.distance(0, query));
                assertTrue(codes.distance(1, query) <= 1, "one coordinate moved: " + codes.distance(1, query));
                assertTrue(codes.distance(2, query) >= dims - 2, "every coordinate flipped around the mean (the mean's own may tie)");
                assertTrue(codes.has(2));
                assertFalse(codes.has(3), "no vector");
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
                    w.addDocument(document(i, field, vectors[i]));
                    if ((i + 1) % perSegment == 0) w.flush();
                }
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(segments, reader.leaves().size());
                IndexSearcher searcher = new IndexSearcher(reader);
                List<Integer> truth = nearest(vectors, target, k);
                VectorSearch.ScanOrWalk skewed = new VectorSearch.ScanOrWalk(field, target, k, k, null, reader.numDocs(), CODES);
                List<Integer> found = ids(searcher, skewed, k);
                List<Integer> lucene = ids(searcher, new KnnFloatVectorQuery(field, target, k), k);
                assertEquals(1, skewed.searchedAgain(), "the segment holding the top k");
                assertTrue(overlap(found, truth) >= overlap(lucene, truth) - 2,
                        "found " + overlap(found, truth) + " of the true top " + k + ", Lucene " + overlap(lucene, truth));
                assertTrue(overlap(found, truth) >= 0.9 * k, "found " + overlap(found, truth));

                float[] elsewhere = VectorFields.unit(randomVector(random, dims)).orElseThrow();
                VectorSearch.ScanOrWalk even = new VectorSearch.ScanOrWalk(field, elsewhere, 20, 20, null, reader.numDocs(), CODES);
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

    /** A document with its {@code id} stored and, unless null, a vector in {@code field}. */
    private static Document document(int id, String field, float[] vector) {
        Document d = new Document();
        d.add(new StringField("id", Integer.toString(id), Field.Store.YES));
        if (vector != null) d.add(new KnnFloatVectorField(field, vector, VectorFields.SIMILARITY));
        return d;
    }

    /** A unit vector like a sentence model's: a large component all share, the subject's centre, and noise. */
    private static float[] nearSubject(Random random, float[] shared, float[] centre) {
        float[] v = randomVector(random, shared.length);
        for (int x = 0; x < v.length; x++) v[x] = 3 * shared[x] + centre[x] + 0.6f * v[x];
        return VectorFields.unit(v).orElseThrow();
    }

    private static float[] randomVector(Random random, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) v[i] = (float) random.nextGaussian();
        return v;
    }
}
