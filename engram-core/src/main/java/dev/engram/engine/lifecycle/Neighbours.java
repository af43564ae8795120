package dev.engram.engine.lifecycle;

import dev.engram.analysis.Words;
import dev.engram.engine.Similarity;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.StoredEmbedding;
import dev.engram.spi.VectorQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The few memories nearest one memory, from the index: what every consolidation step compares, so none is O(n²). */
final class Neighbours {
    /** A neighbour and how close it is: a rescaled cosine ({@link Similarity}) when {@code byVector}, else a word-set Jaccard. */
    record Near(Memory memory, double similarity, boolean byVector) {
    }

    private static final int QUERY_WORDS = 24;

    private Neighbours() {
    }

    /** The active memories of the context's zone (every zone when null), not expired, oldest first. */
    static List<Memory> active(MaintenanceContext c) {
        List<Memory> out = new ArrayList<>();
        Instant now = c.now();
        c.store().forEach(c.zone(), m -> {
            if (m.status() == MemoryStatus.ACTIVE && !m.expiredAt(now)) out.add(m);
        });
        return out;
    }

    /**
     * When this step last finished a complete run over the context's zone (a store mark), or null: the memories
     * written or changed since are the ones that need comparing with their neighbours again.
     */
    static Instant lastRun(MaintenanceContext c, String step) {
        return c.store().mark(markName(c, step)).map(Instant::parse).orElse(null);
    }

    /** Records a complete run at the context's instant (never in a dry run). */
    static void ran(MaintenanceContext c, String step) {
        if (c.dryRun()) return;
        c.store().write(tx -> {
            tx.putMark(markName(c, step), c.now().toString());
            return null;
        });
    }

    /** Whether {@code m} was written or changed at or after {@code since} (always, when there was no run). */
    static boolean changedSince(Memory m, Instant since) {
        return since == null || !m.updatedAt().isBefore(since);
    }

    private static String markName(MaintenanceContext c, String step) {
        return "lifecycle." + step + "." + (c.zone() == null ? "*" : c.zone());
    }

    /** Up to {@code k} nearest active memories of {@code m}'s zone by vector (empty when {@code m} has none). */
    static List<Near> byVector(MaintenanceContext c, Memory m, Set<MemoryType> types, int k) {
        Optional<StoredEmbedding> v = c.store().embedding(m.id());
        if (v.isEmpty()) return List.of();
        double unrelated = Similarity.unrelatedCosine(c.embedder(), v.get().modelId());
        if (Double.isNaN(unrelated)) return List.of(); // a vector of a model not loaded: no known scale to judge it by
        List<IndexHit> hits = c.index().searchVector(new VectorQuery(v.get().vector(), v.get().modelId(), Set.of(m.zone()),
                types, Set.of(), Set.of(MemoryStatus.ACTIVE), null, null, k + 1));
        return resolve(c, m, hits, true, unrelated);
    }

    /** Up to {@code k} active memories of {@code m}'s zone sharing most words with it (BM25 on its first words). */
    static List<Near> byWords(MaintenanceContext c, Memory m, Set<MemoryType> types, int k) {
        List<String> w = Words.of(m.content());
        String text = String.join(" ", w.subList(0, Math.min(w.size(), QUERY_WORDS)));
        if (text.isBlank()) return List.of();
        List<IndexHit> hits = c.index().search(new IndexQuery(text, Set.of(m.zone()), types, Set.of(),
                Set.of(MemoryStatus.ACTIVE), null, null, k + 1, IndexQuery.Match.CONTENT_WORDS));
        return resolve(c, m, hits, false, 0);
    }

    private static List<Near> resolve(MaintenanceContext c, Memory m, List<IndexHit> hits, boolean vector, double unrelated) {
        List<Near> out = new ArrayList<>();
        Set<String> words = vector ? Set.of() : Words.setOf(m.content());
        Map<String, Double> score = new java.util.HashMap<>();
        for (IndexHit h : hits) score.put(h.id(), h.score());
        for (Memory n : c.store().getAll(hits.stream().map(IndexHit::id).filter(id -> !id.equals(m.id())).toList())) {
            if (n.status() != MemoryStatus.ACTIVE || n.expiredAt(c.now()) || !n.zone().equals(m.zone())) continue;
            double sim = vector ? Similarity.ofIndexScore(score.get(n.id()), unrelated)
                    : Words.jaccard(words, Words.setOf(n.content()));
            out.add(new Near(n, sim, vector));
        }
        return out;
    }
}
