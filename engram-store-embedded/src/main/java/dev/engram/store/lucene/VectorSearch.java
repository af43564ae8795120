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
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.util.BitSet;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.Bits;

/**
 * Turns a {@link VectorQuery} into a filtered kNN query that scans.
 *
 * <h2>A scan, not a walk</h2>
 * Vectors are stored without an HNSW graph ({@link FlatVectors}). With a graph, a zone's filter made Lucene's walk
 * visit about nine nodes per neighbour asked for divided by the filter's share of the segment, so a recall's walk
 * in any zone of 10,000 memories gave up after visiting as many nodes as the exact scan then read again
 * (docs/benchmarks.md, issue 14), and the graph's building made merges so costly that the index stayed in several
 * segments. So every segment's candidates (the filter's documents, or its live ones) are scanned, and the answer
 * is exact up to the shortlist below. A segment of an earlier version, written with a graph, is scanned alike.
 *
 * <h2>A large scan ranks by sign codes first</h2>
 * A scan of more than twice {@link #shortlist} candidates ranks them all by their {@link SignCodes} (how many
 * dimensions lie on the other side of the segment's mean from the query's) and computes the dot product of the
 * shortlist only. Over 30,000 generated memories embedded by e5-small-v2, zones of 4-13k, 300 queries
 * (docs/benchmarks.md, issue 14): a shortlist of 1,000 kept 98.2% of the exact top 100 and all of the exact top
 * 10, in a sixth of the exact scan's time; through the engine at 100,000 memories, 99.8% of the recalls'
 * results were the same as with every dot product computed.
 *
 * <h2>Each segment scores its share</h2>
 * A store's candidates are spread over its segments, and each would rarely hold more than twice the whole
 * shortlist: a segment holding a share {@code p} of the filter's candidates scores its expected part of the
 * shortlist and three standard deviations more ({@link #shortlistShare}). Segments fill by time, so a query about
 * recent memories finds most of its neighbours in the newest segment: one that turns out to hold more of the kept
 * top than its share is scored again with the whole shortlist, as Lucene 10's optimistic kNN search searches such
 * a segment again.
 */
final class VectorSearch {
    /** The fewest candidates a scan ranked by sign codes scores exactly, and how many per neighbour kept. */
    static final int MIN_SHORTLIST = 1_000;
    static final int SHORTLIST_PER_KEPT = 10;

    private VectorSearch() {
    }

    /** How many of a scan's candidates, ranked by their sign codes, have their dot product computed, for {@code kept} kept. */
    static int shortlist(int kept) {
        return Math.max(MIN_SHORTLIST, SHORTLIST_PER_KEPT * kept);
    }

    /**
     * The shortlist of a segment holding {@code leafCandidates} of all {@code totalCandidates}: its share of the whole
     * shortlist and three standard deviations more ({@link #share}). A segment that turns out to hold more of the top
     * than its share is scored again with the whole shortlist ({@code mergeLeafResults}).
     */
    static int shortlistShare(int kept, long leafCandidates, long totalCandidates) {
        return share(shortlist(kept), leafCandidates, totalCandidates);
    }

    /**
     * A segment's part of {@code k} drawn from all {@code totalCandidates} documents the filter lets through, when it
     * holds {@code leafCandidates} of them: its expected share plus three standard deviations (the k drawn at random),
     * at least one, at most k; all k when the total was not counted (0).
     */
    static int share(int k, long leafCandidates, long totalCandidates) {
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
        // with one segment there is nothing to share out (0: not counted, every segment scores the whole shortlist)
        long candidates = reader.leaves().size() < 2 ? 0 : filter == null ? reader.numDocs() : coverage.count(filter);
        return Optional.of(new Scan(VectorFields.field(q.modelId(), vector.length), unit.get(),
                Math.max(1, Math.min(q.k(), reader.maxDoc())), filter, candidates, codes));
    }

    /**
     * Lucene's kNN query, scanning every segment's candidates instead of walking a graph, each segment scoring its
     * share of the shortlist ({@link #shortlistShare}) and scored again with the whole one when it holds more of the
     * top. One instance serves one search: it keeps what each segment scored until the results are merged.
     */
    static final class Scan extends KnnFloatVectorQuery {
        /** What a filtered segment's "walk" returns: Lucene then scans the filter's documents ({@code exactSearch}). */
        private static final TopDocs GAVE_UP = new TopDocs(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
                new ScoreDoc[0]);
        /** A segment without the field, or without candidates. */
        private static final TopDocs NOTHING = new TopDocs(new TotalHits(0, TotalHits.Relation.EQUAL_TO), new ScoreDoc[0]);

        private final float[] target;
        private final long candidates;
        private final SignCodes.Cache codes;
        private volatile int lastShortlist;
        /** Segments scanned with their share of the shortlist, by ordinal. */
        private final Map<Integer, Shared> shared = new ConcurrentHashMap<>();
        private int scoredAgain;

        /** A segment scanned with its share of the shortlist: its candidates, to score them again with the whole one. */
        private record Shared(LeafReaderContext context, Supplier<DocIdSetIterator> candidates, long count) {
        }

        /**
         * {@code k}: the neighbours kept; {@code candidates}: the documents the filter lets through in the whole index
         * (its live documents without one; 0 when not counted: then every segment scores the whole shortlist);
         * {@code codes}: the index's sign codes.
         */
        Scan(String field, float[] target, int k, Query filter, long candidates, SignCodes.Cache codes) {
            super(field, target, k, filter);
            this.target = target.clone();
            this.candidates = candidates;
            this.codes = codes;
        }

        /** There is no graph to walk: filtered, Lucene scans the filter's documents once this "gives up". */
        @Override
        protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
                KnnCollectorManager collectors) throws IOException {
            boolean filtered = visitedLimit != Integer.MAX_VALUE;
            return filtered ? GAVE_UP : exactSearch(context, live(context.reader().maxDoc(), acceptDocs), null);
        }

        /** Merges, then scores again with the whole shortlist each segment that holds more of the top than its share. */
        @Override
        protected TopDocs mergeLeafResults(TopDocs[] perLeaf) {
            TopDocs merged = super.mergeLeafResults(perLeaf);
            if (shared.isEmpty()) return merged;
            try {
                for (Shared s : shared.values()) {
                    int from = s.context().docBase;
                    int to = from + s.context().reader().maxDoc();
                    int inTop = 0;
                    for (ScoreDoc d : merged.scoreDocs) {
                        if (d.doc >= from && d.doc < to) inTop++;
                    }
                    if (inTop <= share(k, s.count(), candidates)) continue; // its share of the top, as expected
                    perLeaf[s.context().ord] = inWholeIndex(scan(s.context(), s.candidates().get(), shortlist(k), false), from);
                    scoredAgain++;
                }
                return scoredAgain > 0 ? super.mergeLeafResults(perLeaf) : merged;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Segments scored a second time with the whole shortlist (for tests). */
        int scoredAgain() {
            return scoredAgain;
        }

        /**
         * Scans a segment's candidates, keeping the k best. More than twice the segment's share of the shortlist
         * ({@link #shortlistShare}) are ranked by their sign codes first, and only that share is scored.
         */
        @Override
        protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator, QueryTimeout timeout)
                throws IOException {
            return scan(context, acceptIterator, shortlistShare(k, acceptIterator.cost(), candidates), true);
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
                    if (mayShare && shortlist < shortlist(k)) {
                        shared.put(context.ord, new Shared(context, again(context, acceptIterator), acceptIterator.cost()));
                    }
                    return scoreShortlist(scorer, signs.get(), acceptIterator, shortlist);
                }
            }
            HitQueue queue = new HitQueue((int) Math.min(k, acceptIterator.cost()), true);
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
         *
         * <p>Every candidate's distance is counted, but only candidates that can still make the shortlist are kept:
         * whenever the kept ones fill their arrays, the distance at which the candidates counted so far fill the
         * shortlist is worked out and the farther ones are dropped. That distance only falls as candidates come, so
         * nothing dropped could have been scored, and the arrays stay a few times the shortlist instead of growing to
         * every candidate of the segment (6 bytes a candidate: 600 KB a recall over 100k memories).
         */
        private TopDocs scoreShortlist(VectorScorer scorer, SignCodes signs, DocIdSetIterator acceptIterator, int shortlist)
                throws IOException {
            long[] query = signs.encode(target);
            int capacity = (int) Math.min(acceptIterator.cost(), 4L * shortlist);
            int[] docs = new int[Math.max(16, capacity)];
            short[] distance = new short[docs.length];
            int[] byDistance = new int[signs.dimensions() + 1];
            int kept = 0;
            int candidates = 0;
            int farthest = byDistance.length - 1; // candidates farther than this cannot make the shortlist any more
            for (int doc = acceptIterator.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = acceptIterator.nextDoc()) {
                if (!signs.has(doc)) continue;
                int d = signs.distance(doc, query);
                byDistance[d]++;
                candidates++;
                if (d > farthest) continue;
                if (kept == docs.length) {
                    farthest = fillDistance(byDistance, shortlist);
                    int w = 0;
                    for (int i = 0; i < kept; i++) {
                        if (distance[i] <= farthest) {
                            docs[w] = docs[i];
                            distance[w++] = distance[i];
                        }
                    }
                    kept = w;
                    if (kept > docs.length / 2) { // ties at the shortlist's edge: room for more
                        docs = Arrays.copyOf(docs, docs.length * 2);
                        distance = Arrays.copyOf(distance, docs.length);
                    }
                    if (d > farthest) continue;
                }
                docs[kept] = doc;
                distance[kept++] = (short) d;
            }
            if (candidates == 0) return NOTHING;
            // the distance at which the shortlist fills: every closer candidate, and ties with it up to twice the shortlist
            int limit = fillDistance(byDistance, shortlist);
            int closer = 0;
            for (int d = 0; d < limit; d++) closer += byDistance[d];
            int tiesAllowed = 2 * shortlist - closer;
            HitQueue queue = new HitQueue(Math.min(k, candidates), true);
            DocIdSetIterator vectors = scorer.iterator();
            int scored = 0;
            for (int i = 0; i < kept; i++) {
                int d = distance[i];
                if (d > limit || (d == limit && tiesAllowed-- <= 0)) continue;
                int doc = docs[i];
                if (vectors.docID() < doc && vectors.advance(doc) != doc) continue; // has() said it holds a vector
                offer(queue, doc, scorer.score());
                scored++;
            }
            lastShortlist = scored;
            return best(queue, candidates);
        }

        /** The smallest distance at which the candidates counted in {@code byDistance} fill {@code shortlist}. */
        private static int fillDistance(int[] byDistance, int shortlist) {
            int limit = 0;
            int closer = 0;
            while (limit < byDistance.length - 1 && closer + byDistance[limit] < shortlist) closer += byDistance[limit++];
            return limit;
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
