package dev.engram.bench.locomo;

import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * A way of ranking a conversation's turns for a question, built from what {@link ConversationRun}
 * measured. {@code latencyNanos} is the time the ranking costs once the query vector exists (query
 * embedding is reported on its own: it is the same for every semantic mode).
 */
record RankingMode(String name, Function<QuestionRun, List<String>> ranking, Source source) {

    /** Where a ranking comes from, which decides what its latency consists of. */
    enum Source { ENGINE, LEXICAL, SEMANTIC, FUSED }

    boolean fromEngine() {
        return source == Source.ENGINE;
    }

    RankingMode renamed(String newName) {
        if (source == Source.ENGINE) {
            throw new IllegalStateException("engine mode " + name + " answers under its own name; do not rename it");
        }
        return new RankingMode(newName, ranking, source);
    }

    List<String> rank(QuestionRun run) {
        return ranking.apply(run);
    }

    long latencyNanos(QuestionRun run) {
        return switch (source) {
            case ENGINE -> run.engine(name).nanos();
            case LEXICAL -> run.bm25Nanos();
            case SEMANTIC -> run.vectorScanNanos();
            case FUSED -> {
                long start = System.nanoTime();
                ranking.apply(run);
                yield run.bm25Nanos() + run.vectorScanNanos() + (System.nanoTime() - start);
            }
        };
    }

    /** One of {@link ConversationRun.EngineMode}'s configurations, answered by the engine itself. */
    static RankingMode engine(String mode) {
        return new RankingMode(mode, r -> r.engine(mode).ranking(), Source.ENGINE);
    }

    static RankingMode bm25() {
        return new RankingMode("bm25 (index only)", r -> ids(r.bm25()), Source.LEXICAL);
    }

    static RankingMode vector() {
        return new RankingMode("vector (cosine scan)", r -> ids(r.vector()), Source.SEMANTIC);
    }

    static RankingMode rrf(int k, double lexicalWeight) {
        String weight = lexicalWeight == 1 ? "" : String.format(Locale.ROOT, ", bm25×%.0f", lexicalWeight);
        return new RankingMode("hybrid-rrf k=" + k + weight,
                r -> ScoreFusion.rrf(r.bm25(), r.vector(), lexicalWeight, k), Source.FUSED);
    }

    static RankingMode rrfAdaptive(double lexicalWeight) {
        String weight = lexicalWeight == 1 ? "" : String.format(Locale.ROOT, ", bm25×%.0f", lexicalWeight);
        return new RankingMode("hybrid-rrf adaptive k" + weight,
                r -> ScoreFusion.rrf(r.bm25(), r.vector(), lexicalWeight, ScoreFusion.adaptiveK(r.bm25(), r.vector())),
                Source.FUSED);
    }

    static RankingMode weighted(double alpha) {
        return new RankingMode(String.format(Locale.ROOT, "hybrid-weighted α=%.1f", alpha),
                r -> ScoreFusion.minMax(r.bm25(), r.vector(), alpha), Source.FUSED);
    }

    private static List<String> ids(List<ScoreFusion.Scored> scored) {
        return scored.stream().map(ScoreFusion.Scored::id).toList();
    }
}
