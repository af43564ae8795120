package dev.engram.bench.locomo;

import dev.engram.bench.locomo.LocomoEvaluation.Cell;
import dev.engram.bench.locomo.LocomoEvaluation.Latency;
import dev.engram.bench.locomo.LocomoEvaluation.Split;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Markdown tables of a {@link LocomoEvaluation}; every column names its metric. */
final class LocomoTables {
    private static final String[] CATEGORY_NAMES = {"", "multi-hop", "temporal", "open-domain", "single-hop", "adversarial"};

    private final LocomoEvaluation eval;

    LocomoTables(LocomoEvaluation eval) {
        this.eval = eval;
    }

    /** Cats 1–4: dev, test and all ten conversations side by side, with tokens and latency. */
    String headline(List<RankingMode> modes, boolean audited) {
        StringBuilder sb = new StringBuilder();
        sb.append("| mode | dev R@5 | dev R@10 | dev NDCG@10 | test R@5 | test R@10 | test NDCG@10 | all R@5 | all R@10 "
                + "| tokens/recall (top 10, test) | latency p50 / p95 ms |\n");
        sb.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RankingMode m : modes) {
            Cell dev = eval.cell(m, Split.DEV, LocomoEvaluation.categories1to4(), audited);
            Cell test = eval.cell(m, Split.TEST, LocomoEvaluation.categories1to4(), audited);
            Cell all = eval.cell(m, Split.ALL, LocomoEvaluation.categories1to4(), audited);
            Latency lat = eval.latency(m, Split.ALL);
            sb.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f | %.2f / %.2f |%n",
                    m.name(), dev.recall5(), dev.recall10(), dev.ndcg10(), test.recall5(), test.recall10(), test.ndcg10(),
                    all.recall5(), all.recall10(), test.tokens(), lat.p50Ms(), lat.p95Ms()));
        }
        Cell n = eval.cell(modes.get(0), Split.DEV, LocomoEvaluation.categories1to4(), audited);
        Cell nt = eval.cell(modes.get(0), Split.TEST, LocomoEvaluation.categories1to4(), audited);
        sb.append(String.format(Locale.ROOT, "%nQuestions scored (cats 1–4 with resolvable evidence): dev n=%d, test n=%d.%s%n",
                n.n(), nt.n(), audited ? String.format(Locale.ROOT, " Audit corrections applied: dev %d, test %d.",
                        eval.auditedQuestions(Split.DEV, LocomoEvaluation.categories1to4()),
                        eval.auditedQuestions(Split.TEST, LocomoEvaluation.categories1to4())) : ""));
        return sb.toString();
    }

    /**
     * How often the cascade skipped L3, per split (the issue asks for at least a third): over the scored
     * questions (categories 1–4), and over every question asked (category 5 too).
     */
    String cascadeSkips(String engineMode) {
        StringBuilder sb = new StringBuilder("| split | questions that skipped L3, cats 1–4 | every question asked, cats 1–5 |\n|---|---|---|\n");
        for (Split split : List.of(Split.DEV, Split.TEST, Split.ALL)) {
            sb.append(String.format(Locale.ROOT, "| %s | %.1f%% | %.1f%% |%n", split.name().toLowerCase(Locale.ROOT),
                    100 * eval.semanticSkipRate(engineMode, split, LocomoEvaluation.categories1to4()),
                    100 * eval.semanticSkipRate(engineMode, split, category -> true)));
        }
        return sb.toString();
    }

    /** Recall_frac@5 / @10 per category for one split (official labels), category 5 included as its own column. */
    String perCategory(List<RankingMode> modes, Split split) {
        StringBuilder sb = new StringBuilder("| mode |");
        for (int c = 1; c <= 5; c++) {
            Cell n = eval.cell(modes.get(0), split, LocomoEvaluation.category(c), false);
            sb.append(String.format(Locale.ROOT, " %d %s (n=%d) R@5 / R@10 / NDCG@10 |", c, CATEGORY_NAMES[c], n.n()));
        }
        sb.append("\n|---|---|---|---|---|---|\n");
        for (RankingMode m : modes) {
            sb.append("| ").append(m.name()).append(" |");
            for (int c = 1; c <= 5; c++) {
                Cell cell = eval.cell(m, split, LocomoEvaluation.category(c), false);
                sb.append(String.format(Locale.ROOT, " %.3f / %.3f / %.3f |", cell.recall5(), cell.recall10(), cell.ndcg10()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** The dev-split sweep a fusion was chosen from (cats 1–4, official labels). */
    String devSweep(List<RankingMode> candidates) {
        StringBuilder sb = new StringBuilder("| candidate | dev R@5 | dev R@10 | dev NDCG@10 |\n|---|---|---|---|\n");
        for (RankingMode m : candidates) {
            Cell dev = eval.cell(m, Split.DEV, LocomoEvaluation.categories1to4(), false);
            sb.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f |%n", m.name(), dev.recall5(), dev.recall10(), dev.ndcg10()));
        }
        return sb.toString();
    }

    /** Paired differences on the test split, cats 1–4, official labels: "a − b" with a 95% bootstrap interval. */
    String pairedDifferences(List<RankingMode[]> pairs) {
        PairedBootstrap bootstrap = new PairedBootstrap(20261129L);
        StringBuilder sb = new StringBuilder("| a − b (test, cats 1–4) | ΔR@5 [95% CI] | ΔR@10 [95% CI] | ΔNDCG@10 [95% CI] |\n|---|---|---|---|\n");
        for (RankingMode[] pair : pairs) {
            var a = eval.perQuestion(pair[0], Split.TEST, LocomoEvaluation.categories1to4(), false);
            var b = eval.perQuestion(pair[1], Split.TEST, LocomoEvaluation.categories1to4(), false);
            sb.append("| ").append(pair[0].name()).append(" − ").append(pair[1].name()).append(" |");
            for (ToDoubleFunction<RetrievalMetrics.Scores> metric : List.<ToDoubleFunction<RetrievalMetrics.Scores>>of(
                    RetrievalMetrics.Scores::recall5, RetrievalMetrics.Scores::recall10, RetrievalMetrics.Scores::ndcg10)) {
                PairedBootstrap.Difference d = bootstrap.difference(a, b, metric);
                sb.append(String.format(Locale.ROOT, " %+.3f [%+.3f, %+.3f] |", d.mean(), d.low(), d.high()));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
