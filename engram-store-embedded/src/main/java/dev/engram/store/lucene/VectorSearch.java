package dev.engram.store.lucene;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.util.Optional;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.FilteredDocIdSetIterator;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.knn.KnnCollectorManager;
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

    /** The kNN query, or empty when the query vector has no direction (zero or non-finite). */
    static Optional<Query> translate(VectorQuery q, FilterCoverage coverage) throws IOException {
        float[] vector = q.vector();
        Optional<float[]> unit = VectorFields.unit(vector);
        if (unit.isEmpty()) return Optional.empty();
        return Optional.of(new ScanOrWalk(VectorFields.field(q.modelId(), vector.length), unit.get(),
                fetch(q.k(), coverage.reader().maxDoc()), QueryTranslator.filter(q, coverage).orElse(null)));
    }

    /** Lucene's kNN query, which scans a segment's candidates when {@link #scansExactly} says so. */
    static final class ScanOrWalk extends KnnFloatVectorQuery {
        /** What a walk that gave up returns: Lucene then scans the filter's documents exactly. */
        private static final TopDocs GAVE_UP = new TopDocs(new TotalHits(0, TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
                new ScoreDoc[0]);

        ScanOrWalk(String field, float[] target, int k, Query filter) {
            super(field, target, k, filter);
        }

        @Override
        protected TopDocs approximateSearch(LeafReaderContext context, Bits acceptDocs, int visitedLimit,
                KnnCollectorManager collectors) throws IOException {
            if (visitedLimit != Integer.MAX_VALUE) {
                // filtered: Lucene passes the filter's cardinality + 1 and scans when the walk gives up
                if (scansExactly(k, visitedLimit - 1L, context.reader().numDocs())) return GAVE_UP;
            } else if (scansExactly(k, context.reader().numDocs(), context.reader().numDocs())) {
                // unfiltered: Lucene keeps whatever the walk returns, so scan the live documents here
                return exactSearch(context, live(context.reader().maxDoc(), acceptDocs), null);
            }
            return super.approximateSearch(context, acceptDocs, visitedLimit, collectors);
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
