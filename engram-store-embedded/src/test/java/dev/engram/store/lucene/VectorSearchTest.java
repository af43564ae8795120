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

/** The scan, its shortlist and field naming, which the contract suite can only observe indirectly. */
class VectorSearchTest {
    private static final SignCodes.Cache CODES = new SignCodes.Cache();
    @Test
    void theKnnQueryKeepsKAtMostTheDocumentsAndCarriesTheFilter() throws IOException {
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

    @Test
    void theShortlistIsTenPerNeighbourKeptAtLeastAThousandSharedOutBySegment() {
        assertEquals(1_000, VectorSearch.shortlist(100));
        assertEquals(2_000, VectorSearch.shortlist(200));
        assertEquals(1_000, VectorSearch.shortlistShare(100, 4_000, 0), "one segment: the whole shortlist");
        // a fifth of the candidates: 200 expected, sd sqrt(200 * 0.8) = 12.6, so 200 + 37.9 rounded up, + 1
        assertEquals(239, VectorSearch.shortlistShare(100, 3_000, 15_000));
    }

    /** Up to twice the shortlist, a scan scores every candidate: the answer is the true top k, filtered or not. */
    @Test
    void aScanAnswersExactlyTheBruteForceTopK() throws IOException {
        int n = 3_000, dims = 128;
        Random random = new Random(42);
        float[][] vectors = new float[n][];
        String field = VectorFields.field("m", dims);
        try (var dir = new ByteBuffersDirectory()) {
            try (var w = new IndexWriter(dir, flat())) {
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
                assertExact(searcher, new VectorSearch.Scan(field, target, 100, new TermQuery(new Term("zone", "small")), small, CODES),
                        vectors, target, i -> i % 5 < 2, 100);
                assertExact(searcher, new VectorSearch.Scan(field, target, 40, new TermQuery(new Term("zone", "small")), small, CODES),
                        vectors, target, i -> i % 5 < 2, 40);
                assertExact(searcher, new VectorSearch.Scan(field, target, 320, null, live, CODES), vectors, target, i -> true, 320);
                // more than twice the shortlist (1,000 for 20 kept): ranked by codes, still k live documents
                VectorSearch.Scan coded = new VectorSearch.Scan(field, target, 20, null, live, CODES);
                List<Integer> found = ids(searcher, coded, 20);
                assertTrue(coded.lastShortlist() >= 1_000 && coded.lastShortlist() <= 2_000, "scored " + coded.lastShortlist());
                assertEquals(20, found.size());
                assertTrue(found.stream().allMatch(i -> i % 11 != 0), "no deleted document: " + found);
            }
        }
    }

    /**
     * A store an earlier version indexed with Lucene's HNSW graph: its segment is still read and scanned beside a flat
     * one, and a merge rewrites both flat, every vector kept. Opening the merged index from the directory finds the
     * format by its registered name, as the next process does.
     */
    @Test
    void segmentsWrittenWithAGraphAreScannedAndMergedFlat() throws IOException {
        int dims = 16, perSegment = 200;
        Random random = new Random(9);
        String field = VectorFields.field("m", dims);
        float[][] vectors = new float[2 * perSegment][];
        for (int i = 0; i < vectors.length; i++) vectors[i] = VectorFields.unit(randomVector(random, dims)).orElseThrow();
        float[] target = VectorFields.unit(randomVector(random, dims)).orElseThrow();
        try (var dir = new ByteBuffersDirectory()) {
            try (var w = new IndexWriter(dir, new IndexWriterConfig())) { // Lucene's default: HNSW
                for (int i = 0; i < perSegment; i++) w.addDocument(document(i, field, vectors[i]));
                w.commit();
            }
            try (var w = new IndexWriter(dir, flat().setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE))) {
                for (int i = perSegment; i < vectors.length; i++) w.addDocument(document(i, field, vectors[i]));
                for (int i = 0; i < vectors.length; i += 11) w.deleteDocuments(new Term("id", Integer.toString(i))); // as bruteForce expects
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(List.of("Lucene99HnswVectorsFormat", FlatVectors.NAME), formats(reader, field));
                assertExact(new IndexSearcher(reader), new VectorSearch.Scan(field, target, 30, null, reader.numDocs(), CODES),
                        vectors, target, i -> true, 30);
            }
            try (var w = new IndexWriter(dir, flat())) {
                w.forceMerge(1);
                w.commit();
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(List.of(FlatVectors.NAME), formats(reader, field));
                assertEquals(reader.numDocs(), reader.leaves().get(0).reader().getFloatVectorValues(field).size(), "every live vector kept");
                assertExact(new IndexSearcher(reader), new VectorSearch.Scan(field, target, 30, null, reader.numDocs(), CODES),
                        vectors, target, i -> true, 30);
            }
        }
    }

    /** A merged segment's codes are built as the merge writes it, so no search pays for them; a flushed one's on first use. */
    @Test
    void aMergeBuildsTheMergedSegmentsSignCodesBeforeAnySearch() throws IOException {
        int dims = 8;
        Random random = new Random(4);
        String field = VectorFields.field("m", dims);
        SignCodes.Cache codes = new SignCodes.Cache();
        try (var dir = new ByteBuffersDirectory();
             var w = new IndexWriter(dir, flat().setMergedSegmentWarmer(codes::warm)
                     .setMergePolicy(new org.apache.lucene.index.TieredMergePolicy()))) {
            DirectoryReader.open(w).close(); // near-real-time readers: the writer pools its segments, and warms merged ones
            for (int segment = 0; segment < 3; segment++) {
                for (int i = 0; i < 50; i++) w.addDocument(document(segment * 50 + i, field, randomVector(random, dims)));
                w.flush();
            }
            assertEquals(0, codes.size(), "flushed segments wait for their first large scan");
            w.forceMerge(1);
            assertEquals(1, codes.size(), "the merged segment's codes");
            try (DirectoryReader reader = DirectoryReader.open(w)) {
                assertEquals(1, reader.leaves().size());
                IndexSearcher searcher = new IndexSearcher(reader);
                float[] target = VectorFields.unit(randomVector(random, dims)).orElseThrow();
                assertEquals(5, ids(searcher, new VectorSearch.Scan(field, target, 5, null, 0, codes), 5).size());
                assertEquals(1, codes.size(), "the search found them built");
            }
        }
    }

    /** The vector format each segment recorded for {@code field}, oldest first. */
    private static List<String> formats(DirectoryReader reader, String field) {
        return reader.leaves().stream().map(l -> l.reader().getFieldInfos().fieldInfo(field)
                .getAttribute(org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY)).toList();
    }

    /** A writer's configuration with Engram's codec: vectors stored flat. */
    private static IndexWriterConfig flat() {
        return new IndexWriterConfig().setCodec(new VectorCodec());
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
            try (var w = new IndexWriter(dir, flat())) {
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
                    VectorSearch.Scan scan = new VectorSearch.Scan(field, target, k, null, reader.numDocs(), codes);
                    List<Integer> got = ids(searcher, scan, k);
                    assertTrue(scan.lastShortlist() >= VectorSearch.shortlist(k) && scan.lastShortlist() <= 2 * VectorSearch.shortlist(k),
                            "scored " + scan.lastShortlist() + " of " + reader.numDocs());
                    assertEquals(shortlistOf(reader, codes, field, target, VectorSearch.shortlist(k)), scan.lastShortlist(),
                            "every candidate within the shortlist's distance scored, though the scan kept only a few shortlists of them");
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
            IndexWriterConfig config = flat().setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE);
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
                    VectorSearch.Scan scan = new VectorSearch.Scan(field, target, kept, null, live, codes);
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
            try (var w = new IndexWriter(dir, flat())) {
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
    void aSegmentsShareIsItsExpectedPartAndThreeDeviationsMore() {
        assertEquals(500, VectorSearch.share(500, 10_000, 10_000), "one segment: all of them");
        assertEquals(500, VectorSearch.share(500, 10_000, 0), "nothing counted: all of them");
        // a tenth of the candidates: 50 expected, sd sqrt(50 * 0.9) = 6.7, so 50 + 20.2 rounded up, + 1
        assertEquals(72, VectorSearch.share(500, 1_000, 10_000));
        assertEquals(1, VectorSearch.share(10, 0, 10_000), "a segment without candidates still gets one");
        assertEquals(10, VectorSearch.share(10, 9_000, 10_000), "never more than k");
    }

    private static long overlap(List<Integer> a, List<Integer> b) {
        return a.stream().filter(b::contains).count();
    }

    /**
     * How many candidates a coded scan of the one segment must score: all live documents with a vector ranked by their
     * distance to {@code target}'s code, every one closer than the distance where {@code shortlist} fills, and ties
     * with it up to twice the shortlist.
     */
    private static int shortlistOf(DirectoryReader reader, SignCodes.Cache codes, String field, float[] target, int shortlist)
            throws IOException {
        var leaf = reader.leaves().get(0).reader();
        SignCodes signs = codes.of(leaf, field, target.length).orElseThrow();
        long[] query = signs.encode(target);
        int[] byDistance = new int[signs.dimensions() + 1];
        var liveDocs = leaf.getLiveDocs();
        for (int doc = 0; doc < leaf.maxDoc(); doc++) {
            if ((liveDocs == null || liveDocs.get(doc)) && signs.has(doc)) byDistance[signs.distance(doc, query)]++;
        }
        int limit = 0, closer = 0;
        while (limit < byDistance.length - 1 && closer + byDistance[limit] < shortlist) closer += byDistance[limit++];
        return closer + Math.min(byDistance[limit], 2 * shortlist - closer);
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
