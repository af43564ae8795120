package dev.engram.bench.locomo;

import dev.engram.bench.locomo.ConversationRun.Outcome;
import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import dev.engram.bench.locomo.LocomoConversation.Turn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Scores ranking modes over measured conversations. Gold = normalised evidence ∩ the conversation's
 * turn ids (questions left with no gold are skipped); with the audit overlay, WRONG_CITATION
 * questions use the audit's {@code correct_evidence} instead. Per-question metrics are averaged
 * over the questions of the selection (so "cats 1–4" weighs each question once).
 */
final class LocomoEvaluation {
    /** Conversations 0 and 1 (conv-26, conv-30): the only ones anything may be tuned on. */
    static final Set<Integer> DEV = Set.of(0, 1);

    enum Split {
        DEV, TEST, ALL;

        boolean contains(int conversationIndex) {
            return switch (this) {
                case DEV -> LocomoEvaluation.DEV.contains(conversationIndex);
                case TEST -> !LocomoEvaluation.DEV.contains(conversationIndex);
                case ALL -> true;
            };
        }
    }

    /** Averages over {@code n} questions; {@code tokens} is the mean estimate returned per recall. */
    record Cell(int n, double recall5, double recall10, double ndcg10, double tokens) {
    }

    /** Latency percentiles in milliseconds over every question asked (all categories). */
    record Latency(double p50Ms, double p95Ms) {
    }

    private final List<Outcome> outcomes;
    private final Map<String, List<String>> auditCorrections;

    LocomoEvaluation(List<Outcome> outcomes, Map<String, List<String>> auditCorrections) {
        this.outcomes = List.copyOf(outcomes);
        this.auditCorrections = Map.copyOf(auditCorrections);
    }

    static IntPredicate categories1to4() {
        return c -> c >= 1 && c <= 4;
    }

    static IntPredicate category(int c) {
        return x -> x == c;
    }

    Cell cell(RankingMode mode, Split split, IntPredicate categories, boolean audited) {
        List<Scored> scored = perQuestion(mode, split, categories, audited);
        int n = scored.size();
        if (n == 0) return new Cell(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        double r5 = 0, r10 = 0, ndcg = 0, tokens = 0;
        for (Scored q : scored) {
            r5 += q.scores().recall5();
            r10 += q.scores().recall10();
            ndcg += q.scores().ndcg10();
            tokens += q.tokens();
        }
        return new Cell(n, r5 / n, r10 / n, ndcg / n, tokens / n);
    }

    /** One scored question: its metrics and the tokens the mode returned for it. */
    record Scored(RetrievalMetrics.Scores scores, double tokens) {
    }

    /** Per-question scores in a fixed order (conversation, then qa index), so two modes can be paired. */
    List<Scored> perQuestion(RankingMode mode, Split split, IntPredicate categories, boolean audited) {
        List<Scored> out = new ArrayList<>();
        for (Outcome o : outcomes) {
            if (!split.contains(o.conversation().index())) continue;
            Set<String> turnIds = new HashSet<>();
            for (Turn t : o.conversation().turns()) turnIds.add(t.diaId());
            for (QuestionRun run : o.questions()) {
                if (!categories.test(run.question().category())) continue;
                Set<String> gold = gold(o.conversation().index(), run, turnIds, audited);
                if (gold.isEmpty()) continue;
                List<String> ranked = mode.rank(run);
                out.add(new Scored(RetrievalMetrics.score(ranked, gold), tokens(mode, run, ranked, o)));
            }
        }
        return out;
    }

    /** How many audited questions changed gold in this split (for the table caption). */
    int auditedQuestions(Split split, IntPredicate categories) {
        int changed = 0;
        for (Outcome o : outcomes) {
            if (!split.contains(o.conversation().index())) continue;
            for (QuestionRun run : o.questions()) {
                if (categories.test(run.question().category())
                        && auditCorrections.containsKey(LocomoDataset.auditKey(o.conversation().index(), run.question().qaIndex()))) {
                    changed++;
                }
            }
        }
        return changed;
    }

    Latency latency(RankingMode mode, Split split) {
        return percentiles(outcomes.stream().filter(o -> split.contains(o.conversation().index()))
                .flatMap(o -> o.questions().stream()).mapToLong(mode::latencyNanos).toArray());
    }

    /** Share of questions of {@code categories} for which the engine mode skipped its semantic layer. */
    double semanticSkipRate(String engineMode, Split split, IntPredicate categories) {
        return share(split, categories, r -> r.engine(engineMode).semanticSkipped());
    }

    /** Share of the split's questions (categories 1–4) that satisfy {@code p}; NaN without questions. */
    double share(Split split, java.util.function.Predicate<QuestionRun> p) {
        return share(split, categories1to4(), p);
    }

    private double share(Split split, IntPredicate categories, java.util.function.Predicate<QuestionRun> p) {
        long[] counts = new long[2];
        outcomes.stream().filter(o -> split.contains(o.conversation().index())).forEach(o -> o.questions().stream()
                .filter(r -> categories.test(r.question().category())).forEach(r -> {
                    counts[0]++;
                    if (p.test(r)) counts[1]++;
                }));
        return counts[0] == 0 ? Double.NaN : (double) counts[1] / counts[0];
    }

    Latency queryEmbedding(Split split) {
        return percentiles(outcomes.stream().filter(o -> split.contains(o.conversation().index()))
                .flatMap(o -> o.questions().stream()).mapToLong(QuestionRun::queryEmbedNanos).toArray());
    }

    private Set<String> gold(int conversationIndex, QuestionRun run, Set<String> turnIds, boolean audited) {
        List<String> evidence = run.question().evidence();
        if (audited) {
            evidence = auditCorrections.getOrDefault(LocomoDataset.auditKey(conversationIndex, run.question().qaIndex()), evidence);
        }
        Set<String> gold = new LinkedHashSet<>(evidence);
        gold.retainAll(turnIds);
        return gold;
    }

    /** Engine: its own estimate of what it returned; other modes: the same per-result estimate over the top 10. */
    private static double tokens(RankingMode mode, QuestionRun run, List<String> ranked, Outcome o) {
        if (mode.fromEngine()) return run.engine(mode.name()).tokens();
        int sum = 0;
        for (int i = 0; i < Math.min(ConversationRun.RECALL_LIMIT, ranked.size()); i++) {
            sum += o.tokensByDiaId().get(ranked.get(i));
        }
        return sum;
    }

    private static Latency percentiles(long[] nanos) {
        if (nanos.length == 0) return new Latency(Double.NaN, Double.NaN);
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Latency(sorted[rank(sorted.length, 0.50)] / 1e6, sorted[rank(sorted.length, 0.95)] / 1e6);
    }

    /** Nearest-rank percentile. */
    private static int rank(int n, double p) {
        return Math.max(0, Math.min(n - 1, (int) Math.ceil(p * n) - 1));
    }
}
