package dev.engram.bench.locomo;

import dev.engram.bench.locomo.ConversationRun.EngineAnswer;
import dev.engram.bench.locomo.ConversationRun.QuestionRun;
import dev.engram.bench.locomo.LocomoEvaluation.Cell;
import dev.engram.bench.locomo.LocomoEvaluation.Split;
import dev.engram.engine.StopRule;
import dev.engram.engine.StopSignal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Cascade stop rules compared on one set of rankings ({@code --stop-sweep}). A cascade that skips L3
 * answers what the engine answers with L3 off; one that runs it answers what hybrid+graph answers (same
 * hops, same graph). So one run that records, per question, the stop signal and both answers gives every
 * rule's cascade exactly, on the same stores: separate runs differ by more than the rules do, because
 * Lucene's term statistics, and so BM25, move a little with background merges.
 * <p>The both-answers mode is a cascade with no thresholds: it stops whenever the engine may stop at all
 * (enough hits, or a short query held entirely), and its answer carries the signal ({@link StopSignal},
 * exact, not the rounded figures of the explain line).
 */
final class StopRuleSweep {
    static final String ALWAYS_STOP_MODE = "engine cascade, stop whenever allowed (stop sweep)";
    /**
     * The sweep compares thresholds on every question's signal, whatever its length: the engine's limit to
     * short queries ({@link StopRule#maxWords()}) is a separate choice, measured on its own (docs/benchmarks.md §6).
     */
    static final int ANY_LENGTH = Integer.MAX_VALUE;

    record Rule(String name, Predicate<StopSignal> stops) {
        /** The engine's own rule with these thresholds, applied to a question's recorded signal. */
        static Rule of(String name, StopRule rule) {
            return new Rule(name, rule::stops);
        }

        static Rule idf(double share, double missing) {
            String cap = missing >= 99 ? "no missing cap" : String.format(Locale.ROOT, "missing ≤ %.1f", missing);
            String floor = share <= 0 ? "no share floor" : String.format(Locale.ROOT, "idf share ≥ %.2f", share);
            return of(floor + ", " + cap, new StopRule(share, missing, Double.POSITIVE_INFINITY, 0, ANY_LENGTH));
        }

        static Rule margin(double margin) {
            return new Rule(String.format(Locale.ROOT, "top hit ≥ %.2f× the next", margin), s -> s.margin() >= margin);
        }

        /** The idf rule, or a top hit {@code margin} times the next that lacks at most {@code gate} unseen words' idf. */
        static Rule idfOrMargin(double share, double missing, double margin, double gate) {
            String gated = gate >= 99 ? "" : String.format(Locale.ROOT, " and missing ≤ %.1f", gate);
            return of(idf(share, missing).name() + String.format(Locale.ROOT, ", or top hit ≥ %.2f× the next", margin) + gated,
                    new StopRule(share, missing, margin, gate, ANY_LENGTH));
        }
    }

    /** The previous rule: ≥ 75% of the content words held, counted, not weighed. */
    static final Rule BY_WORD_COUNT = new Rule("previous rule: ≥ 75% of the content words held (by count)",
            s -> s.found() >= 0.75 * s.words());

    static List<Rule> grid() {
        List<Rule> rules = new ArrayList<>(List.of(BY_WORD_COUNT));
        for (double share : new double[] {0, 0.3, 0.4, 0.5, 0.6, 0.75}) {
            for (double missing : new double[] {0.6, 0.8, 0.9, 1.0, 1.2, 99}) rules.add(Rule.idf(share, missing));
        }
        for (double margin : new double[] {1.3, 1.5, 1.75, 2.0, 2.5, 3.0}) {
            rules.add(Rule.margin(margin));
            for (double missing : new double[] {0.9, 1.0}) {
                for (double gate : new double[] {1.0, 1.5, 2.0, 99}) rules.add(Rule.idfOrMargin(0.5, missing, margin, gate));
            }
        }
        return rules;
    }

    private final LocomoEvaluation eval;
    private final String everyLayerMode;

    /** {@code everyLayerMode}: the engine mode that always runs L3 (hybrid+graph). */
    StopRuleSweep(LocomoEvaluation eval, String everyLayerMode) {
        this.eval = eval;
        this.everyLayerMode = everyLayerMode;
    }

    /** The cascade a rule would give: the stopped answer where the rule (and the engine) stops, else every layer's. */
    RankingMode cascade(Rule rule) {
        return new RankingMode(rule.name(), run -> stops(rule, run) ? run.engine(ALWAYS_STOP_MODE).ranking()
                : run.engine(everyLayerMode).ranking(), RankingMode.Source.FUSED);
    }

    private static boolean stops(Rule rule, QuestionRun run) {
        EngineAnswer a = run.engine(ALWAYS_STOP_MODE);
        return a.semanticSkipped() && a.stop() != null && rule.stops().test(a.stop());
    }

    /** Dev, cats 1–4, official labels: each rule's cascade, its difference from every layer, and how often it stops. */
    String table(List<Rule> rules) {
        Cell all = eval.cell(RankingMode.engine(everyLayerMode), Split.DEV, LocomoEvaluation.categories1to4(), false);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "Every layer (%s): %.3f / %.3f.%n%n| rule | cascade R@5 / R@10 | Δ R@5 / R@10 | skipped L3 |%n|---|---|---|---|%n",
                everyLayerMode, all.recall5(), all.recall10()));
        for (Rule rule : rules) {
            Cell c = eval.cell(cascade(rule), Split.DEV, LocomoEvaluation.categories1to4(), false);
            double skipped = eval.share(Split.DEV, run -> stops(rule, run));
            sb.append(String.format(Locale.ROOT, "| %s | %.3f / %.3f | %+.3f / %+.3f | %.1f%% |%n", rule.name(),
                    c.recall5(), c.recall10(), c.recall5() - all.recall5(), c.recall10() - all.recall10(), 100 * skipped));
        }
        return sb.toString();
    }
}
