package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import dev.engram.bench.locomo.ScoreFusion.Scored;
import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.LinkSpec;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallSettings;
import dev.engram.engine.RecallStep;
import dev.engram.engine.StopSignal;
import dev.engram.engine.StopRule;
import dev.engram.memory.EdgeType;
import dev.engram.memory.MemoryType;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.MemoryRules;
import dev.engram.engine.RecalledMemory;
import dev.engram.mcp.profile.nativeprofile.TextRenderer;
import dev.engram.spi.Embedder;
import dev.engram.spi.IndexHit;
import dev.engram.spi.IndexQuery;
import dev.engram.store.EmbeddedStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One conversation in its own fresh store: every turn remembered through the engine, every turn
 * embedded once, then every question asked three ways (the engine's recall, the raw index, cosine
 * over the turn vectors). Fusions are computed later from the two scored lists, so they cost no
 * extra store work and can be swept on the dev split.
 */
final class ConversationRun {
    /** Results per list, deeper than the k=10 scored so that fusion sees candidates ranked 11..100. */
    static final int DEPTH = 100;
    static final int RECALL_LIMIT = 10;
    private static final int EMBED_BATCH = 64;
    /** Recall's results are priced as the native profile prints them. */
    private static final TextRenderer TEXT = new TextRenderer();

    /** Everything measured for one question; rankings are dia ids, best first. */
    record QuestionRun(Question question, Map<String, EngineAnswer> engine,
                       List<Scored> bm25, long bm25Nanos, List<Scored> vector, long vectorScanNanos,
                       long queryEmbedNanos) {
        EngineAnswer engine(String mode) {
            return engine.get(mode);
        }
    }

    /**
     * One engine mode's answer: ranking, its own token estimate, wall time, whether L3 was skipped, and what
     * the cascade's stop rule read (null when it did not run).
     */
    record EngineAnswer(List<String> ranking, int tokens, long nanos, boolean semanticSkipped, StopSignal stop) {
    }

    /**
     * The engine configurations compared (issue 3: bm25, vector, hybrid, cascade, hybrid+graph); each
     * is the real {@link Engine#recall} over the same store, differing only in {@link RecallSettings}
     * and, for hybrid+graph, in {@code mode: hybrid}.
     */
    record EngineMode(String name, RecallSettings settings, RecallMode mode) {
        /**
         * The five modes, then for a dev sweep: with {@code stopSweep} a cascade that stops whenever it may
         * (see {@link StopRuleSweep}); per extra centrality weight a cascade and a hybrid+graph mode, so that
         * every weight is measured on the same stores as the others.
         */
        static List<EngineMode> all(RecallSettings base, boolean stopSweep, List<Double> centralityWeights) {
            List<EngineMode> out = new ArrayList<>(five(base));
            if (stopSweep) out.add(new EngineMode(StopRuleSweep.ALWAYS_STOP_MODE,
                    base.withStop(StopRule.ALWAYS), RecallMode.RANKED));
            for (double w : centralityWeights) {
                RecallSettings s = base.withCentralityWeight(w);
                out.add(new EngineMode("engine cascade, centrality " + w, s, RecallMode.RANKED));
                out.add(new EngineMode("engine hybrid+graph, centrality " + w, s, RecallMode.HYBRID));
            }
            return out;
        }

        private static List<EngineMode> five(RecallSettings base) {
            return List.of(
                    new EngineMode("engine bm25", base.withSteps(RecallStep.LEXICAL), RecallMode.RANKED),
                    new EngineMode("engine vector", base.withSteps(RecallStep.SEMANTIC), RecallMode.RANKED),
                    new EngineMode("engine hybrid", base.withSteps(RecallStep.LEXICAL, RecallStep.SEMANTIC), RecallMode.RANKED),
                    new EngineMode("engine cascade (default)", base, RecallMode.RANKED),
                    new EngineMode("engine hybrid+graph (mode hybrid)", base, RecallMode.HYBRID));
        }
    }

    /** One conversation's outcome; {@code tokensByDiaId} is what one result would cost the agent. */
    record Outcome(LocomoConversation conversation, List<QuestionRun> questions, Map<String, Integer> tokensByDiaId,
                   long ingestNanos, long embedNanos) {
    }

    private final Embedder embedder;
    private final Clock clock;
    private final LocomoConversation.Ingest ingest;
    private final List<EngineMode> modes;

    ConversationRun(Embedder embedder, Clock clock, LocomoConversation.Ingest ingest, List<EngineMode> modes) {
        this.embedder = embedder;
        this.clock = clock;
        this.ingest = ingest;
        this.modes = List.copyOf(modes);
    }

    Outcome run(LocomoConversation conversation) throws IOException {
        Path dir = Files.createTempDirectory("engram-locomo-" + conversation.sampleId() + "-");
        try {
            Map<String, String> diaIdByKey = new HashMap<>();
            Map<String, Integer> tokensByDiaId = new HashMap<>();
            long ingestNanos;
            long embedNanos;
            try (EmbeddedStore store = EmbeddedStore.open(dir, clock)) {
                // remembered without the model, then embedded in batches by the engine's own backfill (what a
                // server does for memories written while its model loads): same vectors, a fraction of the time
                long ingestStart = System.nanoTime();
                remember(conversation, new Engine(store.store(), store.index(), clock), diaIdByKey, tokensByDiaId);
                ingestNanos = System.nanoTime() - ingestStart;
                long embedStart = System.nanoTime();
                Engine backfill = new Engine(store.store(), store.index(), clock, TagVocabulary.builtInOnly(), embedder,
                        RecallSettings.defaults());
                while (backfill.embedMissing(EMBED_BATCH) > 0) {
                    // keeps going until every turn has a vector of the model
                }
                embedNanos = System.nanoTime() - embedStart;
            }
            // Each turn went into the index twice (remembered, then given its vector), and Lucene keeps a
            // replaced document in its term statistics until a background merge drops it, so BM25 would
            // depend on when merges ran. Questions are asked over an index rebuilt from the finished
            // record instead: every turn once, in store order, the same on every run.
            deleteRecursively(dir.resolve("index"));
            try (EmbeddedStore store = EmbeddedStore.open(dir, clock)) {
                return new Outcome(conversation, ask(conversation, store, diaIdByKey), tokensByDiaId, ingestNanos, embedNanos);
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    private void remember(LocomoConversation conversation, Engine engine, Map<String, String> diaIdByKey,
                          Map<String, Integer> tokensByDiaId) {
        Turn previous = null;
        for (Turn t : conversation.turns()) {
            // enriched only: the conversational thread as edges, each turn related to the one before it in its session
            List<LinkSpec> links = ingest == LocomoConversation.Ingest.ENRICHED && previous != null
                    && previous.sessionDate().equals(t.sessionDate())
                    ? List.of(new LinkSpec(EdgeType.RELATED, previous.key())) : List.of();
            previous = t;
            // type fact, as a client sends it (also the engine's default)
            String key = ingest == LocomoConversation.Ingest.KEYLESS ? null : t.key();
            var saved = engine.remember(new RememberCommand(t.content(ingest), key, MemoryType.FACT, null, null, null, null, links,
                    null, null, null, false, null, null)).memory();
            diaIdByKey.put(saved.key(), t.diaId());
            // what the engine's recall is priced by: the native text entry (a two-digit rank, full relevance)
            tokensByDiaId.put(t.diaId(), TEXT.recalled(new RecalledMemory(saved, 0, 1, List.of(), null), RecallMode.RANKED,
                    RECALL_LIMIT));
        }
    }

    private List<QuestionRun> ask(LocomoConversation conversation, EmbeddedStore store, Map<String, String> diaIdByKey) {
        List<String> turnIds = new ArrayList<>(); // in turn order
        Map<String, String> diaIdByMemoryId = new HashMap<>();
        for (Turn t : conversation.turns()) {
            String id = store.store().getByKey(MemoryRules.DEFAULT_ZONE, t.key()).orElseThrow().id();
            turnIds.add(id);
            diaIdByMemoryId.put(id, t.diaId());
        }
        Map<String, Engine> engines = new LinkedHashMap<>();
        for (EngineMode m : modes) {
            engines.put(m.name(), new Engine(store.store(), store.index(), clock, TagVocabulary.builtInOnly(), embedder,
                    m.settings()));
        }
        float[][] turnVectors = storedVectors(turnIds, store);
        List<QuestionRun> runs = new ArrayList<>();
        for (Question q : conversation.questions()) {
            runs.add(ask(q, engines, store, diaIdByKey, diaIdByMemoryId, conversation.turns(), turnVectors));
        }
        return runs;
    }

    private QuestionRun ask(Question q, Map<String, Engine> engines, EmbeddedStore store, Map<String, String> diaIdByKey,
                            Map<String, String> diaIdByMemoryId, List<Turn> turns, float[][] turnVectors) {
        Map<String, EngineAnswer> answers = new LinkedHashMap<>();
        for (EngineMode m : modes) {
            // as_of = the ingest instant: the same answers, but recall does not count accesses, so one
            // mode's questions cannot change the next mode's ranking (auto importance uses access counts)
            long t0 = System.nanoTime();
            RecallResult recalled = engines.get(m.name()).recall(RecallQuery.builder(q.text()).limit(RECALL_LIMIT)
                    .mode(m.mode()).asOf(clock.instant().toString()).build(), TEXT);
            long nanos = System.nanoTime() - t0;
            List<String> ranking = recalled.results().stream().map(r -> diaIdByKey.get(r.memory().key())).toList();
            boolean skipped = recalled.layers().stream().anyMatch(l -> l.startsWith("L3 semantic: skipped"));
            answers.put(m.name(), new EngineAnswer(ranking, recalled.tokens(), nanos, skipped, recalled.stop()));
        }

        long t1 = System.nanoTime();
        List<IndexHit> hits = store.index().search(IndexQuery.text(q.text(), MemoryRules.DEFAULT_ZONE, DEPTH));
        long bm25Nanos = System.nanoTime() - t1;
        List<Scored> bm25 = hits.stream().map(h -> new Scored(diaIdByMemoryId.get(h.id()), h.score())).toList();

        long t2 = System.nanoTime();
        float[] query = embedder.embedQuery(q.text());
        long embedNanos = System.nanoTime() - t2;

        long t3 = System.nanoTime();
        List<Scored> vector = cosineTop(query, turns, turnVectors);
        long scanNanos = System.nanoTime() - t3;
        return new QuestionRun(q, answers, bm25, bm25Nanos, vector, scanNanos, embedNanos);
    }

    /** Brute force: fine at ~600 turns (0.2M multiply-adds per question). Unit vectors, so dot = cosine. */
    private static List<Scored> cosineTop(float[] query, List<Turn> turns, float[][] turnVectors) {
        List<Scored> all = new ArrayList<>(turns.size());
        for (int i = 0; i < turnVectors.length; i++) {
            double dot = 0;
            float[] v = turnVectors[i];
            for (int d = 0; d < v.length; d++) dot += query[d] * v[d];
            all.add(new Scored(turns.get(i).diaId(), dot));
        }
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return List.copyOf(all.subList(0, Math.min(DEPTH, all.size())));
    }

    /** The vectors the engine stored for the turns, in turn order (for the brute-force reference scan). */
    private static float[][] storedVectors(List<String> turnIds, EmbeddedStore store) {
        float[][] out = new float[turnIds.size()][];
        for (int i = 0; i < turnIds.size(); i++) {
            String id = turnIds.get(i);
            out[i] = store.store().embedding(id).orElseThrow(() -> new IllegalStateException(
                    "turn " + id + " has no vector after the backfill")).vector();
        }
        return out;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the temporary store " + dir, e);
        }
    }
}
