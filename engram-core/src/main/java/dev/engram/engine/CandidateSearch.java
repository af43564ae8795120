package dev.engram.engine;

import dev.engram.analysis.StopWords;
import dev.engram.analysis.Words;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.rank.ScoreFusion;
import dev.engram.spi.Embedder;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import dev.engram.spi.VectorQuery;
import dev.engram.spi.WordWeights;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The retrieval cascade (Memento's idea, measured on LoCoMo): L1 exact (an id or key equal to the
 * query), L2 BM25 with the metadata filters inside the index, L3 semantic (kNN over the embedder's
 * vectors with the same filters) — skipped when the cascade may stop and the best lexical hit already
 * holds the query's informative words (see {@link #stopReason}) — then weighted min-max fusion and expansion along edges
 * (0.5^hops from each of the top hits). Filters are re-checked on the record by the caller.
 */
final class CandidateSearch {
    /**
     * Rescaled cosine ({@link Similarity}) below which a semantic hit is noise, not a match: MiniLM gave
     * unrelated sentences 0.0-0.2 and a question its answer 0.35-0.6 (docs/benchmarks.md). Without it,
     * min-max scaling would hand the nearest of a set of unrelated memories a full semantic score, and
     * every recall would return k results.
     */
    static final double SEMANTIC_FLOOR = 0.25;
    /** Hits whose neighbours are pulled in; deeper expansion mostly adds noise. */
    private static final int GRAPH_SEEDS = 5;

    private final MemoryStore store;
    private final SearchIndex index;
    private final Embedder embedder;
    private final RecallSettings settings;
    private final QueryVectorLane lane;
    private final RecentQueryVectors recent = new RecentQueryVectors();

    CandidateSearch(MemoryStore store, SearchIndex index, Embedder embedder, RecallSettings settings, QueryVectorLane lane) {
        this.lane = lane;
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.settings = settings;
    }

    /** {@code forceAll} (mode hybrid) runs every layer and expands two hops (or the query's {@code hops}). */
    Candidates search(RecallQuery q, Set<MemoryStatus> statuses, Instant from, Instant to, boolean forceAll) {
        List<String> layers = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, Candidates.Signals> out = new LinkedHashMap<>();

        // read once: the model may finish loading during this recall, and every layer decides on the same answer
        boolean semanticReady = embedder != null && embedder.ready();
        boolean runSemantic = settings.runs(RecallStep.SEMANTIC) || forceAll;
        // the stop rule reads the top hit and the words' idf: only worth it when L3 could run at all
        boolean mayStop = runSemantic && !forceAll && settings.runs(RecallStep.CASCADE) && settings.runs(RecallStep.LEXICAL)
                && semanticReady;
        List<String> words = mayStop ? contentWords(q) : List.of();
        // the vector does not depend on the lexical layers: when L3 is sure to run, it is computed beside them
        boolean early = settings.runs(RecallStep.LEXICAL) && (!mayStop || !settings.stop().mayStop(words.size()));
        float[] known = runSemantic && semanticReady ? recent.get(embedder.modelId(), q.query()) : null;
        QueryVectorLane.Pending vector = !runSemantic || !semanticReady ? null
                : known != null ? () -> known : lane.begin(embedder, q.query(), early);

        Optional<Memory> exact = exact(q);
        exact.ifPresent(m -> out.put(m.id(), new Candidates.Signals(null, null, 1.0, 0, null, true)));
        layers.add(exact.isPresent() ? "L1 exact: '" + q.query() + "' is a key or id" : "L1 exact: no key or id");

        List<IndexHit> lexicalHits = List.of();
        if (settings.runs(RecallStep.LEXICAL) || !semanticReady) {
            lexicalHits = index.search(new IndexQuery(q.query(), Set.of(q.zone()), q.types(), Set.copyOf(q.tags()),
                    statuses, from, to, depth(q)));
            layers.add("L2 bm25: " + lexicalHits.size() + " hits");
        }

        String skip = null;
        StopSignal signal = null;
        if (mayStop) {
            signal = stopSignal(words, lexicalHits);
            if (signal != null) skip = stopReason(q, lexicalHits.size(), signal);
        }
        List<IndexHit> semanticHits = List.of();
        if (runSemantic && skip == null) {
            if (vector == null) {
                skip = embedder == null ? "no embedder configured" : "embedding model still loading";
                if (embedder != null) notes.add("semantic layer not ready (" + skip + "): lexical results only");
            } else {
                float[] v = vector.get();
                if (known == null) recent.put(embedder.modelId(), q.query(), v);
                double unrelated = embedder.unrelatedCosine();
                semanticHits = index.searchVector(new VectorQuery(v, embedder.modelId(), Set.of(q.zone()), q.types(),
                        Set.copyOf(q.tags()), statuses, from, to, depth(q))).stream()
                        .filter(h -> Similarity.ofIndexScore(h.score(), unrelated) >= SEMANTIC_FLOOR).toList();
                layers.add("L3 semantic: " + semanticHits.size() + " hits");
            }
        }
        if (runSemantic && skip != null) layers.add("L3 semantic: skipped, " + skip);

        Map<String, Double> lexical = semanticHits.isEmpty() ? relativeToBest(lexicalHits) : ScoreFusion.scaled(lexicalHits);
        Map<String, Double> semantic = ScoreFusion.scaled(semanticHits);
        double alpha = lexicalHits.isEmpty() ? 0 : semanticHits.isEmpty() ? 1 : settings.lexicalWeight();
        Map<String, Double> fused = ScoreFusion.fuse(lexical, semantic, alpha);
        fused.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).forEach(e ->
                out.putIfAbsent(e.getKey(), new Candidates.Signals(lexical.get(e.getKey()), semantic.get(e.getKey()),
                        e.getValue(), 0, null, false)));

        if (settings.runs(RecallStep.GRAPH) || forceAll || q.hops() != null) {
            int added = expand(out, q.hops() != null ? q.hops() : forceAll ? 2 : settings.graphHops());
            layers.add("graph: " + added + " neighbour signal(s)");
        }
        return new Candidates(out, layers, notes, signal);
    }

    /** Candidates per list: the tuned depth, or more when the caller asks for more results than that. */
    private int depth(RecallQuery q) {
        return Math.max(settings.depth(), q.effectiveLimit());
    }

    /** L1: the whole query is a memory id, or a key of the zone. */
    private Optional<Memory> exact(RecallQuery q) {
        String t = q.query().strip();
        if (t.isEmpty() || t.indexOf(' ') >= 0) return Optional.empty();
        return References.find(store, t.toLowerCase(java.util.Locale.ROOT), q.zone())
                .filter(m -> q.types().isEmpty() || q.types().contains(m.type()));
    }

    /** The query's content words, as the stop rule counts them: distinct, longer than one letter, no stop words. */
    private static List<String> contentWords(RecallQuery q) {
        return Words.of(q.query()).stream().filter(w -> w.length() > 1 && !StopWords.contains(w)).distinct().toList();
    }

    /**
     * What the stop rule weighs, or null when there is nothing to weigh (no hit, no content word, the top
     * hit gone from the store). The words of a query are not equally telling: a name that half the
     * memories hold says little, a word that few hold says much. So each content word counts by its idf
     * in the index (what BM25 itself weighs it by): the share of the query's idf the best lexical hit
     * holds, the idf it lacks, and how far it outscores the next hit.
     */
    private StopSignal stopSignal(List<String> words, List<IndexHit> hits) {
        if (hits.isEmpty() || words.isEmpty()) return null;
        Optional<Memory> top = store.get(hits.get(0).id());
        if (top.isEmpty()) return null;
        Memory m = top.get();
        Set<String> have = Words.setOf(m.content() + " " + m.key() + " " + String.join(" ", m.tags()));
        WordWeights weights = index.wordWeights(words);
        double held = 0, lacking = 0;
        int found = 0;
        for (String w : words) {
            if (have.contains(w)) {
                held += weights.of(w);
                found++;
            } else {
                lacking += weights.of(w);
            }
        }
        double share = held + lacking > 0 ? held / (held + lacking) : 0;
        double missing = weights.unseen() > 0 ? lacking / weights.unseen() : 0;
        // a lone hit stands out from nothing: it counts as decisive
        double margin = hits.size() > 1 && hits.get(1).score() > 0 ? hits.get(0).score() / hits.get(1).score()
                : Double.POSITIVE_INFINITY;
        return new StopSignal(found, words.size(), share, missing, margin);
    }

    /**
     * Null to run L3, else why it is skipped: {@link StopRule} accepts the signal (a short query, decisively
     * matched), and there are enough hits to fill the answer or the top hit holds every query word.
     */
    private String stopReason(RecallQuery q, int hitCount, StopSignal s) {
        boolean enoughHits = hitCount >= q.effectiveLimit();
        boolean heldWhole = s.found() == s.words();
        return settings.stop().stops(s) && (enoughHits || heldWhole)
                ? String.format(Locale.ROOT, "top lexical hit holds %d/%d query words, %.0f%% of their idf; the rest weigh"
                        + " %.2f of an unseen word; %s", s.found(), s.words(), 100 * s.share(), s.missing(),
                        Double.isInfinite(s.margin()) ? "it is the only hit"
                                : String.format(Locale.ROOT, "it scores %.2f× the next", s.margin()))
                : null;
    }

    private static Map<String, Double> relativeToBest(List<IndexHit> hits) {
        Map<String, Double> out = new HashMap<>();
        double best = hits.stream().mapToDouble(IndexHit::score).max().orElse(1);
        for (IndexHit h : hits) out.merge(h.id(), best > 0 ? h.score() / best : 0, Math::max);
        return out;
    }

    /**
     * Adds neighbours of the top hits. Each seed passes {@code relevance × 0.5^hops × graph weight} to every
     * memory it reaches (its strongest path only), and a memory reached from several seeds adds up what they
     * pass: a turn linked to two hits is likelier to belong with them than one linked to a single hit (dev
     * R@10 0.719 → 0.730 against taking the strongest seed alone, docs/benchmarks.md §6). The explanation
     * names the seed that passed the most. Inferred episode edges ({@code follows}) only lift memories
     * that are candidates already: on LoCoMo dev that kept hybrid's R@5 / R@10 (0.599 / 0.712 against
     * 0.590 / 0.718 when they could add any neighbour) and keeps unrelated memories that were merely
     * written next to a hit out of the results (docs/benchmarks.md §6).
     */
    private int expand(Map<String, Candidates.Signals> out, int hops) {
        List<Walk> walks = out.entrySet().stream()
                .sorted(Comparator.comparingDouble((Map.Entry<String, Candidates.Signals> e) -> e.getValue().relevance()).reversed())
                .limit(GRAPH_SEEDS).map(e -> new Walk(e.getKey(), e.getValue().relevance())).toList();
        Map<String, Double> total = new HashMap<>();
        Map<String, Share> strongest = new HashMap<>();
        // Most memories have no edge. One batched link count (cached by the store, and the same counts
        // the ranking's centrality reads next, so it asks for every candidate when that weight is on) says
        // which seeds have any; a memory reached by an edge has one, so later hops need no count.
        Set<String> linked = new HashSet<>(store.degrees(settings.centralityWeight() > 0 ? out.keySet()
                : walks.stream().map(Walk::seed).toList()).keySet());
        // the seeds walk hop by hop together, so each hop reads the edges of all their frontiers at once: asked seed
        // by seed, that was a statement per memory on a server store
        Map<String, List<Edge>> read = new HashMap<>();
        for (int hop = 1; hop <= hops; hop++) {
            List<Walk> walking = walks.stream().filter(x -> x.base > 0 && !x.frontier.isEmpty()).toList();
            if (walking.isEmpty()) break;
            Set<String> unread = new java.util.LinkedHashSet<>();
            for (Walk x : walking) for (String id : x.frontier) if (linked.contains(id) && !read.containsKey(id)) unread.add(id);
            if (!unread.isEmpty()) {
                Map<String, List<Edge>> found = store.edgesOf(unread);
                for (String id : unread) read.put(id, found.getOrDefault(id, List.of()));
            }
            for (Walk x : walking) {
                List<String> next = new ArrayList<>();
                double w = x.base * Math.pow(GraphOperation.HOP_DECAY, hop) * settings.graphWeight();
                for (String id : x.frontier) {
                    if (!linked.contains(id)) continue; // no edge at all
                    for (Edge e : read.get(id)) {
                        String other = e.other(id);
                        // an episode neighbour must have come up on its own (lexically or semantically): the
                        // episode lifts it, but a memory that merely was written next to a hit stays out
                        if (e.type() == EdgeType.FOLLOWS && !out.containsKey(other)) continue;
                        if (other.equals(x.seed) || x.reached.containsKey(other)) continue; // nearer hops weigh more
                        x.reached.put(other, new Share(w, e.type().wireName() + " from " + x.seed));
                        next.add(other);
                        linked.add(other);
                    }
                }
                x.frontier = next;
            }
        }
        for (Walk x : walks) {
            x.reached.forEach((id, share) -> {
                total.merge(id, share.weight(), Double::sum);
                strongest.merge(id, share, (a, b) -> b.weight() > a.weight() ? b : a);
            });
        }
        total.forEach((id, w) -> {
            Candidates.Signals s = out.get(id);
            String via = strongest.get(id).via();
            out.put(id, s == null ? new Candidates.Signals(null, null, 0, w, via, false)
                    : new Candidates.Signals(s.lexical(), s.semantic(), s.fused(), w, via, s.exact()));
        });
        return total.size();
    }

    /** One seed's walk: its strongest path to each memory it reached, and the memories its next hop starts from. */
    private static final class Walk {
        final String seed;
        final double base;
        final Map<String, Share> reached = new HashMap<>();
        List<String> frontier;

        Walk(String seed, double base) {
            this.seed = seed;
            this.base = base;
            this.frontier = List.of(seed);
        }

        String seed() {
            return seed;
        }
    }

    /** What one seed passes to one memory, and along which edge. */
    private record Share(double weight, String via) {
    }
}
