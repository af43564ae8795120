package dev.engram.store.lucene;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.ConjunctionUtils;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilteredDocIdSetIterator;
import org.apache.lucene.search.HitQueue;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.Bits;

/**
 * Turns a {@link VectorQuery} into a filtered kNN query.
 *
 * <h2>Over-fetch</h2>
 * HNSW is approximate, and the best of a small candidate list is often not the true nearest. On this
 * machine (storage-and-embeddings §1.2, Lucene 9.12.3, 384-d, one merged segment) recall@10 was 0.54
 * asking HNSW for 10, 0.93 asking for 50 and 0.98 asking for 100, while latency barely moved
 * (0.69, 0.92, 0.93 ms p50). So the graph is asked for {@code max(50, 5 k)} neighbours
 * ({@value #MIN_FETCH} is also the hybrid side's depth in §0), capped at {@value #MAX_FETCH} to bound
 * the queue Lucene allocates up front, and never fewer than {@code k}; only the top {@code k} are kept.
 *
 * <h2>Filters, and when to scan instead of walking the graph</h2>
 * The filter is the kNN query's own argument, so it restricts the graph walk instead of trimming its
 * result. Lucene walks the graph first and scans the filter's documents one by one only when the walk
 * has visited more nodes than the filter matches. A filtered walk visits about
 * {@value #VISITS_PER_NEIGHBOUR} nodes per neighbour asked for, divided by the share of documents the
 * filter lets through: on 10,000 memories a remember's walk for 75 neighbours in a zone holding 42% of
 * them visited 1,624 nodes (predicted 1,607), and a recall's walk for 500 in any zone gave up after
 * visiting as many nodes as the scan then read again, half of its vector time thrown away
 * (docs/benchmarks.md, issue 14). So a segment whose walk is expected to visit at least as many nodes
 * as the filter matches is scanned from the start; the scan reads each candidate once and its answer
 * is exact. Otherwise the walk runs as before, with Lucene's own fallback when it gives up.
 *
 * <h2>Each segment asked for its share</h2>
 * Lucene asks every segment for all {@code k} neighbours, and an index has several segments (ten or more
 * once it holds tens of thousands of memories, and several while writes come in): a walk's visits grow
 * with the neighbours asked for, so a store of ten segments walked ten times what one merged segment
 * would. A segment holding a share {@code p} of the filter's candidates is asked for its expected part
 * of the top k and three standard deviations more ({@link #leafFetch}); then, as Lucene 10 does with its
 * optimistic kNN search, every segment whose last neighbour still made the merged top k, and so might
 * hold more of it than it was asked for, is searched again for all k. Segments fill by time, so a
 * query about recent memories finds most of its neighbours in the newest segment: that segment is then
 * searched twice, and the answer is the same as asking every segment for k.
 */
final class VectorSearch {
    static final int MIN_FETCH = 50;
    static final int FETCH_FACTOR = 5;
    static final int MAX_FETCH = 1_000;
    /**
     * Nodes an unfiltered HNSW walk visits per neighbour asked for (Lucene's default graph, M 16 and
     * beam 100), measured on 10,000 memories with 384-dimension vectors.
     */
    static final int VISITS_PER_NEIGHBOUR = 9;

    private VectorSearch() {
    }

    /** How many neighbours to ask HNSW for, to return {@code k} of an index with {@code maxDoc} documents. */
    static int fetch(int k, int maxDoc) {
        int wanted = Math.max(k, Math.min(MAX_FETCH, Math.max(MIN_FETCH, FETCH_FACTOR * k)));
        // Lucene sizes its queue by k: never more than there are documents
        return Math.max(1, Math.min(wanted, maxDoc));
    }

    /**
     * Whether a walk for {@code k} neighbours among the {@code candidates} of {@code live} documents the
     * filter lets through is expected to visit at least as many nodes as scanning the candidates reads.
     */
    static boolean scansExactly(int k, long candidates, long live) {
        if (candidates <= k) return true; // Lucene scans these itself
        return (double) VISITS_PER_NEIGHBOUR * k * live / candidates >= candidates;
    }

    /**
     * Neighbours to ask a segment holding {@code leafCandidates} of all {@code totalCandidates} documents the
     * filter lets through for, when {@code k} are wanted from them all: its expected share of the top k plus
     * three standard deviations (the top k drawn from the candidates at random), at least one, at most k; all k
     * when the total was not counted (0).
     */
    static int leafFetch(int k, long leafCandidates, long totalCandidates) {
        if (totalCandidates <= 0 || leafCandidates >= totalCandidates) return k;
        double p = (double) leafCandidates / totalCandidates;
        double expected = k * p;
        int wanted = (int) Math.ceil(expected + 3 * Math.sqrt(expected * (1 - p))) + 1;
        return Math.max(1, Math.min(k, wanted));
    }

    /** The kNN query, or empty when the query vector has no direction (zero or non-finite). */
    static Optional<Query> translate(VectorQuery q, FilterCoverage coverage) throws IOException {
        float[] vector = q.vector();
        Optional<float[]> unit = VectorFields.unit(vector);
        if (unit.isEmpty()) return Optional.empty();
        Query filter = QueryTranslator.filter(q, coverage).orElse(null);
        IndexReader reader = coverage.reader();
        // with one segment there is nothing to share out (0: not counted, every segment asked for all k)
        long candidates = reader.leaves().size() < 2 ? 0 : filter == null ? reader.numDocs() : coverage.count(filter);
        return Optional.of(new ScanOrWalk(VectorFields.field(q.modelId(), vector.length), unit.get(),
                fetch(q.k(), reader.maxDoc()), Math.max(1, Math.min(q.k(), reader.maxDoc())), filter, candidates));
    }

    /**
     * Lucene's kNN query, which scans a segment's candidates when {@link #scansExactly} says so and asks each
     * segment for its share of the neighbours ({@link #leafFetch}), searching again a segment that may hold more.
     * One instance serves one search: it keeps what each segment was asked for until the results are merged.
     */
    static final class ScanOrWalk extends KnnFloatVectorQuery {
        /** What a walk that gave up returns: Lucene then scans the filter's documents exactly. */
        private static final TopDocs GAVE_UP = new TopDocs(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
                new ScoreDoc[0]);
        /** A segment without the field, or without candidates. */
        private static final TopDocs NOTHING = new TopDocs(new TotalHits(0, TotalHits.Relation.EQUAL_TO), new ScoreDoc[0]);

        private final float[] target;
        private final int kept;
        private final long candidates;
        /** Segments walked for fewer than k neighbours, by their ordinal among the reader's leaves. */
        private final Map<Integer, Partial> partial = new ConcurrentHashMap<>();
        private int searchedAgain;

        /** A segment walked for {@code asked} neighbours; what is needed to walk it again for k. */
        private record Partial(LeafReaderContext context, Bits acceptDocs, int visitedLimit, int asked) {
        }

        /**
         * {@code k}: the neighbours asked of the graph, over-fetched; {@code kept}: how many of them the caller keeps;
         * {@code candidates}: the documents the filter lets through in the whole index (its live documents without one;
         * 0 when not counted: then every segment is asked for all k).
         */
        ScanOrWalk(String field, float[] target, int k, int kept, Query filter, long candidates) {
            super(field, target, k, filter);
            this.target = target.clone();
            this.kept = Math.min(kept, k);
            this.candidates = candidates;
        }

        @Override
        protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
                KnnCollectorManager collectors) throws IOException {
            boolean filtered = visitedLimit != Integer.MAX_VALUE;
            // filtered: Lucene passes the filter's cardinality in this segment + 1
            long here = filtered ? visitedLimit - 1L : context.reader().numDocs();
            int asked = leafFetch(k, here, candidates);
            if (scansExactly(asked, here, context.reader().numDocs())) {
                // filtered, Lucene scans when the walk gives up; unfiltered, it keeps whatever the walk returns
                return filtered ? GAVE_UP : exactSearch(context, live(context.reader().maxDoc(), acceptDocs), null);
            }
            if (asked >= k) return super.approximateSearch(context, acceptDocs, visitedLimit, collectors);
            TopDocs walked = walk(context, acceptDocs, visitedLimit, asked);
            if (walked.totalHits.relation == TotalHits.Relation.EQUAL_TO) {
                partial.put(context.ord, new Partial(context, acceptDocs, visitedLimit, asked));
            }
            return walked; // a walk that gave up is scanned for all k by Lucene
        }

        private TopDocs walk(LeafReaderContext context, Bits acceptDocs, int visitedLimit, int neighbours) throws IOException {
            KnnCollector collector = new TopKnnCollector(neighbours, visitedLimit);
            context.reader().searchNearestVectors(field, target, collector, acceptDocs);
            TopDocs found = collector.topDocs();
            return found == null ? GAVE_UP : found;
        }

        /** Merges, then searches again for all k each segment that was asked for less and whose last neighbour made the kept top. */
        @Override
        protected TopDocs mergeLeafResults(TopDocs[] perLeaf) {
            TopDocs merged = super.mergeLeafResults(perLeaf);
            if (partial.isEmpty()) return merged;
            // what decides is the last neighbour the caller keeps: the over-fetch serves the walk, not the answer
            float kth = merged.scoreDocs.length < kept ? Float.NEGATIVE_INFINITY : merged.scoreDocs[kept - 1].score;
            for (Partial p : partial.values()) {
                ScoreDoc[] got = perLeaf[p.context().ord].scoreDocs;
                if (got.length < p.asked() || got[got.length - 1].score < kth) continue; // it gave all it had, or enough
                try {
                    perLeaf[p.context().ord] = inWholeIndex(all(p), p.context().docBase);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                searchedAgain++;
            }
            return searchedAgain > 0 ? super.mergeLeafResults(perLeaf) : merged;
        }

        /** Segments searched a second time for all k (for tests). */
        int searchedAgain() {
            return searchedAgain;
        }

        /** All k of a segment: walked again, or scanned when that walk gives up. */
        private TopDocs all(Partial p) throws IOException {
            TopDocs walked = walk(p.context(), p.acceptDocs(), p.visitedLimit(), k);
            if (walked.totalHits.relation == TotalHits.Relation.EQUAL_TO) return walked;
            DocIdSetIterator candidates = p.acceptDocs() instanceof BitSet set ? new BitSetIterator(set, set.cardinality())
                    : live(p.context().reader().maxDoc(), p.acceptDocs());
            return exactSearch(p.context(), candidates, null);
        }

        /**
         * Scans a segment's candidates, keeping the {@code kept} best: an exact answer needs no over-fetch, and a queue of
         * the over-fetched size (500 for a recall) cost a quarter of a recall's vector time at 10,000 memories in heap
         * updates and in sorting the merged neighbours (docs/benchmarks.md, issue 14).
         */
        @Override
        protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator, QueryTimeout timeout)
                throws IOException {
            FloatVectorValues values = context.reader().getFloatVectorValues(field);
            if (values == null || acceptIterator.cost() == 0) return NOTHING;
            VectorScorer scorer = values.scorer(target);
            if (scorer == null) return NOTHING;
            HitQueue queue = new HitQueue((int) Math.min(kept, acceptIterator.cost()), true);
            ScoreDoc top = queue.top();
            DocIdSetIterator both = ConjunctionUtils.intersectIterators(List.of(scorer.iterator(), acceptIterator));
            for (int doc = both.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = both.nextDoc()) {
                float score = scorer.score();
                if (score > top.score) {
                    top.score = score;
                    top.doc = doc;
                    top = queue.updateTop();
                }
            }
            while (queue.size() > 0 && queue.top().score < 0) queue.pop(); // the sentinels no document replaced
            ScoreDoc[] best = new ScoreDoc[queue.size()];
            for (int i = best.length - 1; i >= 0; i--) best[i] = queue.pop();
            return new TopDocs(new TotalHits(acceptIterator.cost(), TotalHits.Relation.EQUAL_TO), best);
        }

        /** A segment's results with the document numbers of the whole index, as Lucene hands them to the merge. */
        private static TopDocs inWholeIndex(TopDocs segment, int docBase) {
            for (ScoreDoc d : segment.scoreDocs) d.doc += docBase;
            return segment;
        }

        private static DocIdSetIterator live(int maxDoc, Bits liveDocs) {
            DocIdSetIterator all = DocIdSetIterator.all(maxDoc);
            if (liveDocs == null) return all;
            return new FilteredDocIdSetIterator(all) {
                @Override
                protected boolean match(int doc) {
                    return liveDocs.get(doc);
                }
            };
        }
    }
}
