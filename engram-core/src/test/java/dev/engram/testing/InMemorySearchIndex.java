package dev.engram.testing;

import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.WordWeights;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Collection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A {@link SearchIndex} in the heap for engine unit tests: plain BM25 (k1 = 1.2, b = 0.75) over
 * lowercase tokens split at every non-letter, non-digit character of content, key, tags and file,
 * with the same filters as the real index. No language analysis. Vector search is an exact
 * brute-force cosine over the vectors of the query's model (score (1 + cos) / 2, as Lucene's
 * DOT_PRODUCT on unit vectors); zero or non-finite vectors have no direction and are never found.
 * Thread-safe (synchronized).
 */
public final class InMemorySearchIndex implements SearchIndex {
    private static final int BATCH = 500;
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final MemoryStore store;
    // the index's own copy, changed only by catchUp: a search must not see what catchUp has not applied
    private final Map<String, Memory> docs = new HashMap<>();
    private final Map<String, List<String>> tokens = new HashMap<>();
    private final Map<String, List<String>> contentTokens = new HashMap<>();
    private final Map<String, StoredEmbedding> vectors = new HashMap<>();
    private long seq;

    public InMemorySearchIndex(MemoryStore store) {
        this.store = store;
    }

    @Override
    public synchronized long catchUp() {
        while (true) {
            List<Change> batch = store.changesSince(seq, BATCH);
            if (batch.isEmpty()) return seq;
            for (Change c : batch) {
                store.get(c.memoryId()).ifPresentOrElse(m -> {
                    docs.put(m.id(), m);
                    tokens.put(m.id(), tokenize(m.content() + " " + m.key() + " " + String.join(" ", m.tags())
                            + " " + (m.file() == null ? "" : m.file())));
                    contentTokens.put(m.id(), tokenize(m.content()));
                    store.embedding(m.id()).ifPresentOrElse(e -> vectors.put(m.id(), e), () -> vectors.remove(m.id()));
                }, () -> {
                    docs.remove(c.memoryId());
                    tokens.remove(c.memoryId());
                    contentTokens.remove(c.memoryId());
                    vectors.remove(c.memoryId());
                });
                seq = c.seq();
            }
        }
    }

    static List<String> tokenize(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")).filter(t -> !t.isEmpty()).toList();
    }

    @Override
    public synchronized List<IndexHit> search(IndexQuery q) {
        Set<String> terms = new LinkedHashSet<>(tokenize(q.text()));
        if (terms.isEmpty() || docs.isEmpty()) return List.of();
        Map<String, List<String>> tokens = q.match() == IndexQuery.Match.CONTENT_WORDS ? contentTokens : this.tokens;
        double avgLength = tokens.values().stream().mapToInt(List::size).average().orElse(1);
        List<IndexHit> hits = new ArrayList<>();
        for (Memory m : docs.values()) {
            if (!matches(q, m)) continue;
            List<String> doc = tokens.get(m.id());
            double score = 0;
            for (String term : terms) {
                long tf = doc.stream().filter(term::equals).count();
                if (tf == 0) continue;
                long df = tokens.values().stream().filter(d -> d.contains(term)).count();
                double idf = Math.log(1 + (docs.size() - df + 0.5) / (df + 0.5));
                score += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * doc.size() / avgLength));
            }
            if (score > 0) hits.add(new IndexHit(m.id(), score));
        }
        hits.sort(Comparator.comparingDouble(IndexHit::score).reversed().thenComparing(IndexHit::id));
        return hits.subList(0, Math.min(q.limit(), hits.size()));
    }

    /** Document frequencies over content only, as the real index counts them. */
    @Override
    public synchronized WordWeights wordWeights(Collection<String> words) {
        Map<String, Long> df = new HashMap<>();
        for (String w : words) {
            df.put(w, docs.values().stream().filter(m -> tokenize(m.content()).contains(w)).count());
        }
        return WordWeights.of(df, docs.size());
    }

    private static boolean matches(IndexQuery q, Memory m) {
        return matches(m, q.zones(), q.types(), q.tags(), q.statuses(), q.from(), q.to());
    }

    private static boolean matches(Memory m, Set<String> zones, Set<MemoryType> types, Collection<String> tags,
                                   Set<MemoryStatus> statuses, Instant from, Instant to) {
        return (zones.isEmpty() || zones.contains(m.zone()))
                && (types.isEmpty() || types.contains(m.type()))
                && m.tags().containsAll(tags)
                && (statuses.isEmpty() || statuses.contains(m.status()))
                && (from == null || !m.createdAt().isBefore(from))
                && (to == null || !m.createdAt().isAfter(to));
    }

    @Override
    public synchronized List<IndexHit> searchVector(VectorQuery q) {
        float[] query = q.vector();
        double queryNorm = norm(query);
        if (!(queryNorm > 0) || Double.isInfinite(queryNorm)) return List.of();
        List<IndexHit> hits = new ArrayList<>();
        for (Map.Entry<String, StoredEmbedding> e : vectors.entrySet()) {
            float[] v = e.getValue().vector();
            // vectors of another model, or of another size, are never compared
            if (!e.getValue().modelId().equals(q.modelId()) || v.length != query.length) continue;
            Memory m = docs.get(e.getKey());
            if (!matches(m, q.zones(), q.types(), q.tags(), q.statuses(), q.from(), q.to())) continue;
            double vNorm = norm(v);
            if (!(vNorm > 0) || Double.isInfinite(vNorm)) continue;
            double dot = 0;
            for (int i = 0; i < v.length; i++) dot += (double) v[i] * query[i];
            double cos = Math.max(-1, Math.min(1, dot / (vNorm * queryNorm)));
            hits.add(new IndexHit(m.id(), (1 + cos) / 2));
        }
        hits.sort(Comparator.comparingDouble(IndexHit::score).reversed().thenComparing(IndexHit::id));
        return List.copyOf(hits.subList(0, Math.min(q.k(), hits.size())));
    }

    /** Euclidean length; NaN when a component is not finite. */
    private static double norm(float[] v) {
        double sum = 0;
        for (float f : v) {
            if (!Float.isFinite(f)) return Double.NaN;
            sum += (double) f * f;
        }
        return Math.sqrt(sum);
    }

    @Override
    public synchronized long indexedSeq() {
        return seq;
    }

    @Override
    public void close() {
        // nothing to release
    }
}
