package dev.engram.store.lucene;

import dev.engram.spi.VectorQuery;
import java.io.IOException;
import java.util.Optional;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;

/**
 * Turns a {@link VectorQuery} into a filtered {@link KnnFloatVectorQuery}.
 *
 * <h2>Over-fetch</h2>
 * HNSW is approximate, and the best of a small candidate list is often not the true nearest. On this
 * machine (storage-and-embeddings §1.2, Lucene 9.12.3, 384-d, one merged segment) recall@10 was 0.54
 * asking HNSW for 10, 0.93 asking for 50 and 0.98 asking for 100, while latency barely moved
 * (0.69, 0.92, 0.93 ms p50). So the graph is asked for {@code max(50, 5 k)} neighbours
 * ({@value #MIN_FETCH} is also the hybrid side's depth in §0), capped at {@value #MAX_FETCH} to bound
 * the queue Lucene allocates up front, and never fewer than {@code k}; only the top {@code k} are kept.
 *
 * <h2>Filters</h2>
 * The filter is {@link KnnFloatVectorQuery}'s own argument, so it restricts the graph walk instead of
 * trimming its result: a filter that matches few documents still returns all of them, because Lucene
 * switches to an exact scan of the matching documents when they are fewer than the nodes it would visit.
 */
final class VectorSearch {
    static final int MIN_FETCH = 50;
    static final int FETCH_FACTOR = 5;
    static final int MAX_FETCH = 1_000;

    private VectorSearch() {
    }

    /** How many neighbours to ask HNSW for, to return {@code k} of an index with {@code maxDoc} documents. */
    static int fetch(int k, int maxDoc) {
        int wanted = Math.max(k, Math.min(MAX_FETCH, Math.max(MIN_FETCH, FETCH_FACTOR * k)));
        // Lucene sizes its queue by k: never more than there are documents
        return Math.max(1, Math.min(wanted, maxDoc));
    }

    /** The kNN query, or empty when the query vector has no direction (zero or non-finite). */
    static Optional<Query> translate(VectorQuery q, FilterCoverage coverage) throws IOException {
        float[] vector = q.vector();
        Optional<float[]> unit = VectorFields.unit(vector);
        if (unit.isEmpty()) return Optional.empty();
        return Optional.of(new KnnFloatVectorQuery(VectorFields.field(q.modelId(), vector.length), unit.get(),
                fetch(q.k(), coverage.reader().maxDoc()), QueryTranslator.filter(q, coverage).orElse(null)));
    }
}
