package dev.engram.access;

import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.WordWeights;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A {@link SearchIndex} searched through the current caller's rights, beside {@link GuardedStore}:
 * a search naming zones needs the read right on each (checked before searching); one over every zone
 * searches the readable ones only. Hits are loaded through the guarded store too, which drops any a
 * lagging index got wrong. Word weights (corpus-wide idf) pass through: they shape ranking and are
 * never shown.
 */
public final class GuardedIndex implements SearchIndex {
    private final SearchIndex index;
    private final GuardedStore store;

    public GuardedIndex(SearchIndex index, GuardedStore store) {
        this.index = index;
        this.store = store;
    }

    /** The zones to search, or null when the caller may read none of them. */
    private Set<String> zones(Set<String> asked) {
        Grants g = store.grants();
        if (!asked.isEmpty()) {
            asked.forEach(z -> g.require(Right.READ, z));
            return asked;
        }
        if (g.everywhere(Right.READ)) return asked;
        Set<String> readable = store.zones();
        return readable.isEmpty() ? null : readable;
    }

    @Override
    public long catchUp() {
        return index.catchUp();
    }

    @Override
    public void catchUpSoon() {
        index.catchUpSoon();
    }

    @Override
    public void catchUpAfterWrite() {
        index.catchUpAfterWrite();
    }

    @Override
    public List<IndexHit> search(IndexQuery q) {
        Set<String> zones = zones(q.zones());
        if (zones == null) return List.of();
        return index.search(new IndexQuery(q.text(), zones, q.types(), q.tags(), q.statuses(), q.from(), q.to(),
                q.limit(), q.match()));
    }

    @Override
    public List<IndexHit> searchVector(VectorQuery q) {
        Set<String> zones = zones(q.zones());
        if (zones == null) return List.of();
        return index.searchVector(new VectorQuery(q.vector(), q.modelId(), zones, q.types(), q.tags(), q.statuses(),
                q.from(), q.to(), q.k()));
    }

    @Override
    public WordWeights wordWeights(Collection<String> words) {
        return index.wordWeights(words);
    }

    @Override
    public long indexedSeq() {
        return index.indexedSeq();
    }

    @Override
    public void close() {
        index.close();
    }
}
