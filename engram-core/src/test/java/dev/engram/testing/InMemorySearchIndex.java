package dev.engram.testing;

import dev.engram.memory.Memory;
import dev.engram.spi.Change;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
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
 * with the same filters as the real index. No language analysis. Thread-safe (synchronized).
 */
public final class InMemorySearchIndex implements SearchIndex {
    private static final int BATCH = 500;
    private static final double K1 = 1.2;
    private static final double B = 0.75;

    private final MemoryStore store;
    // the index's own copy, changed only by catchUp: a search must not see what catchUp has not applied
    private final Map<String, Memory> docs = new HashMap<>();
    private final Map<String, List<String>> tokens = new HashMap<>();
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
                }, () -> {
                    docs.remove(c.memoryId());
                    tokens.remove(c.memoryId());
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

    private static boolean matches(IndexQuery q, Memory m) {
        return (q.zones().isEmpty() || q.zones().contains(m.zone()))
                && (q.types().isEmpty() || q.types().contains(m.type()))
                && m.tags().containsAll(q.tags())
                && (q.statuses().isEmpty() || q.statuses().contains(m.status()))
                && (q.from() == null || !m.createdAt().isBefore(q.from()))
                && (q.to() == null || !m.createdAt().isAfter(q.to()));
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
