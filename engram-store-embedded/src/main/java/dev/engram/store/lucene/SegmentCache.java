package dev.engram.store.lucene;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;

/**
 * Values derived from a segment's immutable parts (its postings, its vectors), built on first use and kept by the
 * segment's core until it closes: segments outlive readers, so a value serves every search of every reader that holds
 * the segment. Deleted documents are not part of a core; a value must not depend on them. At most {@code max} values are
 * kept; past that a value is built for the caller and not kept. Thread-safe; two threads may build the same value once
 * each, and one is kept.
 *
 * @param <K> what the value is of, within a segment (a field, a filter)
 */
final class SegmentCache<K, V> {
    /** Builds a value; may read the segment. */
    @FunctionalInterface
    interface Builder<V> {
        V build() throws IOException;
    }

    private record Key<K>(IndexReader.CacheKey segment, K part) {
    }

    private final Map<Key<K>, V> values = new ConcurrentHashMap<>();
    private final int max;

    SegmentCache(int max) {
        this.max = max;
    }

    /** The value of {@code part} in {@code reader}'s segment; empty when the segment offers no core key to keep it by. */
    Optional<V> get(LeafReader reader, K part, Builder<V> builder) throws IOException {
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        if (helper == null) return Optional.empty();
        Key<K> key = new Key<>(helper.getKey(), part);
        V known = values.get(key);
        if (known != null) return Optional.of(known);
        V built = builder.build();
        if (values.size() < max && values.putIfAbsent(key, built) == null) {
            helper.addClosedListener(closed -> values.keySet().removeIf(k -> k.segment() == closed));
        }
        return Optional.of(built);
    }

    /** Values kept (for tests). */
    int size() {
        return values.size();
    }
}
