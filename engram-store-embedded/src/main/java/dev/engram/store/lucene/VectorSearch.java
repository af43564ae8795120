package dev.engram.store.lucene;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
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
 * is exact (up to twice the shortlist below; past it, nearly so). Otherwise the walk runs as before, with
 * Lucene's own fallback when it gives up.
 *
 * <h2>A large scan ranks by sign codes first</h2>
 * A scan of more than twice {@link #shortlist} candidates ranks them all by their {@link SignCodes} (how many
 * dimensions lie on the other side of the segment's mean from the query's) and computes the dot product of the
 * shortlist only. Over 30,000 generated memories embedded by e5-small-v2, zones of 4-13k, 300 queries
 * (docs/benchmarks.md, issue 14): a shortlist of 1,000 kept 98.2% of the exact top 100 and all of the exact top
 * 10, in a sixth of the exact scan's time; through the engine at 100,000 memories, 99.8% of the recalls'
 * results were the same as with every dot product computed. A store's candidates are spread over several
 * segments, and each would rarely hold more than twice the whole shortlist: a segment gets its share of it
 * ({@link #shortlistShare}), as it gets its share of the neighbours, and one that turns out to hold more of the
 * kept top than its share of the neighbours is scored again with the whole shortlist. Such a scan costs
 * {@link #scanCost} dot products, and {@link #scans} compares the walk with that: a segment is scanned wherever
 * it is cheaper.
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
    /** The fewest candidates a scan ranked by sign codes scores exactly, and how many per neighbour kept. */
    static final int MIN_SHORTLIST = 1_000;
    static final int SHORTLIST_PER_KEPT = 10;
    /** Codes compared in the time of one dot product (384 dimensions): six popcounts against 384 multiplications. */
    static final int CODES_PER_DOT = 10;

    private VectorSearch() {
    }

    /** How many neighbours to ask HNSW for, to return {@code k} of an index with {@code maxDoc} documents. */
    static int fetch(int k, int maxDoc) {
        int wanted = Math.max(k, Math.min(MAX_FETCH, Math.max(MIN_FETCH, FETCH_FACTOR * k)));
        // Lucene sizes its queue by k: never more than there are documents
        return Math.max(1, Math.min(wanted, maxDoc));
    }

    /** How many of a scan's candidates, ranked by their sign codes, have their dot product computed, for {@code kept} kept. */
    static int shortlist(int kept) {
        return Math.max(MIN_SHORTLIST, SHORTLIST_PER_KEPT * kept);
    }

    /**
     * The shortlist of a segment holding {@code leafCandidates} of all {@code totalCandidates}: its share of the whole
     * shortlist and three standard deviations more, as {@link #leafFetch} shares out the neighbours. A segment that turns
     * out to hold more of the top than its share is scored again with the whole shortlist ({@code mergeLeafResults}).
     */
    static int shortlistShare(int kept, long leafCandidates, long totalCandidates) {
        return leafFetch(shortlist(kept), leafCandidates, totalCandidates);
    }

    /** What scanning {@code candidates} costs, in dot products, with a shortlist of {@code shortlist}. */
    static double scanCost(long candidates, int shortlist) {
        return candidates <= 2L * shortlist ? candidates : (double) candidates / CODES_PER_DOT + shortlist;
    }

    /**
     * Whether a walk for {@code k} neighbours among the {@code candidates} of {@code live} documents the
     * filter lets through is expected to visit at least as many nodes as scanning the candidates with a shortlist of
     * {@code shortlist} costs dot products.
     */
    static boolean scans(int k, int shortlist, long candidates, long live) {
        if (candidates <= k) return true; // Lucene scans these itself
        return (double) VISITS_PER_NEIGHBOUR * k * live / candidates >= scanCost(candidates, shortlist);
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
    static Optional<Query> translate(VectorQuery q, FilterCoverage coverage, SignCodes.Cache codes) throws IOException {
        float[] vector = q.vector();
        Optional<float[]> unit = VectorFields.unit(vector);
        if (unit.isEmpty()) return Optional.empty();
        Query filter = QueryTranslator.filter(q, coverage).orElse(null);
        IndexReader reader = coverage.reader();
        // with one segment there is nothing to share out (0: not counted, every segment asked for all k)
        long candidates = reader.leaves().size() < 2 ? 0 : filter == null ? reader.numDocs() : coverage.count(filter);
        return Optional.of(new ScanOrWalk(VectorFields.field(q.modelId(), vector.length), unit.get(),
                fetch(q.k(), reader.maxDoc()), Math.max(1, Math.min(q.k(), reader.maxDoc())), filter, candidates, codes));
    }

    /**
     * Lucene's kNN query, which scans a segment's candidates when {@link #scans} says so and asks each
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
        private final SignCodes.Cache codes;
        /** Segments walked for fewer than k neighbours, by their ordinal among the reader's leaves. */
        private final Map<Integer, Partial> partial = new ConcurrentHashMap<>();
        private int searchedAgain;
        private volatile int lastShortlist;
        /** Segments scanned with their share of the shortlist, by ordinal. */
        private final Map<Integer, Shared> shared = new ConcurrentHashMap<>();
        private int scoredAgain;

        /** A segment scanned with its share of the shortlist: its candidates, to score them again with the whole one. */
        private record Shared(LeafReaderContext context, Supplier<DocIdSetIterator> candidates, long count) {
        }

        /** A segment walked for {@code asked} neighbours; what is needed to walk it again for k. */
        private record Partial(LeafReaderContext context, Bits acceptDocs, int visitedLimit, int asked) {
        }

        /**
         * {@code k}: the neighbours asked of the graph, over-fetched; {@code kept}: how many of them the caller keeps;
         * {@code candidates}: the documents the filter lets through in the whole index (its live documents without one;
         * 0 when not counted: then every segment is asked for all k); {@code codes}: the index's sign codes.
         */
        ScanOrWalk(String field, float[] target, int k, int kept, Query filter, long candidates, SignCodes.Cache codes) {
            super(field, target, k, filter);
            this.target = target.clone();
            this.kept = Math.min(kept, k);
            this.candidates = candidates;
            this.codes = codes;
        }

        @Override
        protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
                KnnCollectorManager collectors) throws IOException {
            boolean filtered = visitedLimit != Integer.MAX_VALUE;
            // filtered: Lucene passes the filter's cardinality in this segment + 1
            long here = filtered ? visitedLimit - 1L : context.reader().numDocs();
            int asked = leafFetch(k, here, candidates);
            if (scans(asked, shortlistShare(kept, here, candidates), here, context.reader().numDocs())) {
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

        /**
         * Merges, then searches again for all k each segment that was asked for less and whose last neighbour made the kept
         * top, and scores again with the whole shortlist each segment that holds more of the kept top than its share.
         */
        @Override
        protected TopDocs mergeLeafResults(TopDocs[] perLeaf) {
            TopDocs merged = super.mergeLeafResults(perLeaf);
            if (partial.isEmpty() && shared.isEmpty()) return merged;
            // what decides is the last neighbour the caller keeps: the over-fetch serves the walk, not the answer
            float kth = merged.scoreDocs.length < kept ? Float.NEGATIVE_INFINITY : merged.scoreDocs[kept - 1].score;
            try {
                for (Partial p : partial.values()) {
                    ScoreDoc[] got = perLeaf[p.context().ord].scoreDocs;
                    if (got.length < p.asked() || got[got.length - 1].score < kth) continue; // it gave all it had, or enough
                    perLeaf[p.context().ord] = inWholeIndex(all(p), p.context().docBase);
                    searchedAgain++;
                }
                if (searchedAgain > 0) merged = super.mergeLeafResults(perLeaf);
                int before = scoredAgain;
                for (Shared s : shared.values()) {
                    int from = s.context().docBase;
                    int to = from + s.context().reader().maxDoc();
                    int inTop = 0;
                    for (int i = 0; i < Math.min(kept, merged.scoreDocs.length); i++) {
                        int doc = merged.scoreDocs[i].doc;
                        if (doc >= from && doc < to) inTop++;
                    }
                    if (inTop <= leafFetch(kept, s.count(), candidates)) continue; // its share of the top, as expected
                    perLeaf[s.context().ord] = inWholeIndex(scan(s.context(), s.candidates().get(), shortlist(kept), false), from);
                    scoredAgain++;
                }
                return scoredAgain > before ? super.mergeLeafResults(perLeaf) : merged;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Segments scored a second time with the whole shortlist (for tests). */
        int scoredAgain() {
            return scoredAgain;
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
         * updates and in sorting the merged neighbours (docs/benchmarks.md, issue 14). More than twice the segment's
         * share of the shortlist ({@link #shortlistShare}) are ranked by their sign codes first, and only that share is
         * scored.
         */
        @Override
        protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator, QueryTimeout timeout)
                throws IOException {
            return scan(context, acceptIterator, shortlistShare(kept, acceptIterator.cost(), candidates), true);
        }

        /**
         * Scans with a shortlist of {@code shortlist} when the candidates are more than twice as many, and records a
         * segment given less than the whole shortlist when {@code mayShare}, to be scored again if it holds more of the top.
         */
        private TopDocs scan(LeafReaderContext context, DocIdSetIterator acceptIterator, int shortlist, boolean mayShare)
                throws IOException {
            FloatVectorValues values = context.reader().getFloatVectorValues(field);
            if (values == null || acceptIterator.cost() == 0) return NOTHING;
            VectorScorer scorer = values.scorer(target);
            if (scorer == null) return NOTHING;
            if (acceptIterator.cost() > 2L * shortlist) {
                Optional<SignCodes> signs = codes.of(context.reader(), field, target.length);
                if (signs.isPresent()) {
                    if (mayShare && shortlist < shortlist(kept)) {
                        shared.put(context.ord, new Shared(context, again(context, acceptIterator), acceptIterator.cost()));
                    }
                    return scoreShortlist(scorer, signs.get(), acceptIterator, shortlist);
                }
            }
            HitQueue queue = new HitQueue((int) Math.min(kept, acceptIterator.cost()), true);
            DocIdSetIterator both = ConjunctionUtils.intersectIterators(List.of(scorer.iterator(), acceptIterator));
            for (int doc = both.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = both.nextDoc()) offer(queue, doc, scorer.score());
            return best(queue, acceptIterator.cost());
        }

        /** The same candidates again: the filter's bit set when Lucene passed one, else the segment's live documents. */
        private static Supplier<DocIdSetIterator> again(LeafReaderContext context, DocIdSetIterator candidates) {
            if (candidates instanceof BitSetIterator bits) {
                BitSet set = bits.getBitSet();
                long cost = bits.cost();
                return () -> new BitSetIterator(set, cost);
            }
            return () -> live(context.reader().maxDoc(), context.reader().getLiveDocs());
        }

        /**
         * Ranks the candidates by sign-code distance and scores the {@code shortlist} closest, and those tied with the
         * last of them up to twice as many, in document order, so the vectors are read forwards.
         */
        private TopDocs scoreShortlist(VectorScorer scorer, SignCodes signs, DocIdSetIterator acceptIterator, int shortlist)
                throws IOException {
            long[] query = signs.encode(target);
            int[] docs = new int[(int) Math.min(Integer.MAX_VALUE - 8, acceptIterator.cost())];
            short[] distance = new short[docs.length];
            int[] byDistance = new int[signs.dimensions() + 1];
            int n = 0;
            for (int doc = acceptIterator.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = acceptIterator.nextDoc()) {
                if (!signs.has(doc)) continue;
                if (n == docs.length) { // cost() was an estimate below the truth
                    docs = Arrays.copyOf(docs, docs.length * 2);
                    distance = Arrays.copyOf(distance, docs.length);
                }
                int d = signs.distance(doc, query);
                docs[n] = doc;
                distance[n++] = (short) d;
                byDistance[d]++;
            }
            if (n == 0) return NOTHING;
            // the distance at which the shortlist fills: every closer candidate, and ties with it up to twice the shortlist
            int limit = 0;
            int closer = 0;
            while (limit < byDistance.length - 1 && closer + byDistance[limit] < shortlist) closer += byDistance[limit++];
            int tiesAllowed = 2 * shortlist - closer;
            HitQueue queue = new HitQueue(Math.min(kept, n), true);
            DocIdSetIterator vectors = scorer.iterator();
            int scored = 0;
            for (int i = 0; i < n; i++) {
                int d = distance[i];
                if (d > limit || (d == limit && tiesAllowed-- <= 0)) continue;
                int doc = docs[i];
                if (vectors.docID() < doc && vectors.advance(doc) != doc) continue; // has() said it holds a vector
                offer(queue, doc, scorer.score());
                scored++;
            }
            lastShortlist = scored;
            return best(queue, n);
        }

        /** Dot products computed by the last scan ranked by sign codes (for tests). */
        int lastShortlist() {
            return lastShortlist;
        }

        private static void offer(HitQueue queue, int doc, float score) {
            ScoreDoc top = queue.top();
            if (score > top.score) {
                top.score = score;
                top.doc = doc;
                queue.updateTop();
            }
        }

        private static TopDocs best(HitQueue queue, long candidates) {
            while (queue.size() > 0 && queue.top().score < 0) queue.pop(); // the sentinels no document replaced
            ScoreDoc[] best = new ScoreDoc[queue.size()];
            for (int i = best.length - 1; i >= 0; i--) best[i] = queue.pop();
            return new TopDocs(new TotalHits(candidates, TotalHits.Relation.EQUAL_TO), best);
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
