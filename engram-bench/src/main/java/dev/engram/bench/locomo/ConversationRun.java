package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoConversation.Question;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import dev.engram.bench.locomo.ScoreFusion.Scored;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RememberCommand;
import dev.engram.memory.MemoryRules;
import dev.engram.render.TokenEstimate;
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

    /** Everything measured for one question; rankings are dia ids, best first. */
    record QuestionRun(Question question, List<String> engine, int engineTokens, long engineNanos,
                       List<Scored> bm25, long bm25Nanos, List<Scored> vector, long vectorScanNanos,
                       long queryEmbedNanos) {
    }

    /** One conversation's outcome; {@code tokensByDiaId} is what one result would cost the agent. */
    record Outcome(LocomoConversation conversation, List<QuestionRun> questions, Map<String, Integer> tokensByDiaId,
                   long ingestNanos, long embedNanos) {
    }

    private final Embedder embedder;
    private final Clock clock;
    private final LocomoConversation.TurnText turnText;

    ConversationRun(Embedder embedder, Clock clock, LocomoConversation.TurnText turnText) {
        this.embedder = embedder;
        this.clock = clock;
        this.turnText = turnText;
    }

    Outcome run(LocomoConversation conversation) throws IOException {
        Path dir = Files.createTempDirectory("engram-locomo-" + conversation.sampleId() + "-");
        try (EmbeddedStore store = EmbeddedStore.open(dir, clock)) {
            Engine engine = new Engine(store.store(), store.index(), clock);
            Map<String, String> diaIdByKey = new HashMap<>();
            Map<String, String> diaIdByMemoryId = new HashMap<>();
            Map<String, Integer> tokensByDiaId = new HashMap<>();
            long ingestStart = System.nanoTime();
            for (Turn t : conversation.turns()) {
                var saved = engine.remember(new RememberCommand(t.content(turnText), t.key(), null, null, null, null, null, null,
                        null, null, null, false, null, null)).memory();
                diaIdByKey.put(saved.key(), t.diaId());
                diaIdByMemoryId.put(saved.id(), t.diaId());
                // the engine's own per-result estimate: header line + content (see RecallOperation.cost)
                tokensByDiaId.put(t.diaId(), TokenEstimate.of("[00] " + saved.type().wireName() + "/" + saved.key()
                        + " (" + saved.id() + ") 100%\n" + saved.content() + "\n"));
            }
            long ingestNanos = System.nanoTime() - ingestStart;

            long embedStart = System.nanoTime();
            float[][] turnVectors = embedTurns(conversation.turns());
            long embedNanos = System.nanoTime() - embedStart;

            List<QuestionRun> runs = new ArrayList<>();
            for (Question q : conversation.questions()) {
                runs.add(ask(q, engine, store, diaIdByKey, diaIdByMemoryId, conversation.turns(), turnVectors));
            }
            return new Outcome(conversation, runs, tokensByDiaId, ingestNanos, embedNanos);
        } finally {
            deleteRecursively(dir);
        }
    }

    private QuestionRun ask(Question q, Engine engine, EmbeddedStore store, Map<String, String> diaIdByKey,
                            Map<String, String> diaIdByMemoryId, List<Turn> turns, float[][] turnVectors) {
        long t0 = System.nanoTime();
        RecallResult recalled = engine.recall(RecallQuery.builder(q.text()).limit(RECALL_LIMIT).build());
        long engineNanos = System.nanoTime() - t0;
        List<String> engineRanking = recalled.results().stream().map(r -> diaIdByKey.get(r.memory().key())).toList();

        long t1 = System.nanoTime();
        List<IndexHit> hits = store.index().search(IndexQuery.text(q.text(), MemoryRules.DEFAULT_ZONE, DEPTH));
        long bm25Nanos = System.nanoTime() - t1;
        List<Scored> bm25 = hits.stream().map(h -> new Scored(diaIdByMemoryId.get(h.id()), h.score())).toList();

        long t2 = System.nanoTime();
        float[] query = embedder.embed(q.text());
        long embedNanos = System.nanoTime() - t2;

        long t3 = System.nanoTime();
        List<Scored> vector = cosineTop(query, turns, turnVectors);
        long scanNanos = System.nanoTime() - t3;
        return new QuestionRun(q, engineRanking, recalled.tokens(), engineNanos, bm25, bm25Nanos, vector, scanNanos, embedNanos);
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

    private float[][] embedTurns(List<Turn> turns) {
        float[][] out = new float[turns.size()][];
        for (int from = 0; from < turns.size(); from += EMBED_BATCH) {
            int to = Math.min(turns.size(), from + EMBED_BATCH);
            List<float[]> batch = embedder.embedAll(turns.subList(from, to).stream().map(t -> t.content(turnText)).toList());
            for (int i = from; i < to; i++) out[i] = batch.get(i - from);
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
