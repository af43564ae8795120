package dev.engram.engine;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * How recall finds candidates. The defaults are what LoCoMo's dev conversations (0 and 1) chose;
 * docs/benchmarks.md has the sweep. Benchmarks build engines with other settings to compare modes.
 *
 * @param steps         what recall runs ({@link RecallStep}): lexical, semantic, graph, cascade
 * @param lexicalWeight α of the weighted min-max fusion {@code α·bm25' + (1−α)·cosine'}
 * @param depth         candidates taken from each list before fusion
 * @param stop          when the cascade may skip L3 ({@link StopRule})
 * @param graphWeight   weight of a neighbour reached from a hit (times 0.5^hops and the hit's score)
 * @param graphHops     how far the expansion walks (1 or 2)
 * @param boostScale    multiplier of the importance, quality, freshness and warning boosts
 * @param centralityWeight weight of a candidate's link centrality when the graph layer runs
 */
public record RecallSettings(Set<RecallStep> steps, double lexicalWeight, int depth, StopRule stop, double graphWeight, int graphHops, double boostScale,
                             double centralityWeight) {
    /**
     * Weighted min-max beat the best RRF (k 10, chosen on dev) by +0.017 NDCG@10 at equal recall on LoCoMo
     * test (both at α 0.6). α tuned on dev: 0.6 until function words lost weight in queries; with the
     * sharper BM25 that gave, 0.7 beat 0.5, 0.6 and 0.8 on hybrid+graph's mean of R@5 and R@10
     * (docs/benchmarks.md §6). With e5-small-v2 as the default model and plain client ingestion through the
     * tools, LoCoMo dev gave mode hybrid R@5 / R@10 0.662 / 0.750 at 0.4, 0.662 / 0.753 at 0.5, 0.633 / 0.743
     * at 0.6 and 0.634 / 0.737 at 0.7: the stronger semantic layer earns the larger share.
     */
    public static final double DEFAULT_LEXICAL_WEIGHT = 0.5;
    /**
     * Candidates taken from each list before fusion (more when a recall asks for more results). On the
     * deterministic LoCoMo bench, depth 40 beat 100 on dev (mean(R@5, R@10) of hybrid+graph 0.669 against
     * 0.659) but lost on test (0.589 / 0.681 against 0.600 / 0.696): the dev gain was noise on 231
     * questions, so 100 stays (docs/benchmarks.md §6).
     */
    public static final int DEFAULT_DEPTH = 100;

    /** LoCoMo dev, with each turn linked to the previous one: 1.0 beat 0.6 and 0.3 (+0.03 and +0.05 R@5). */
    public static final double DEFAULT_GRAPH_WEIGHT = 1.0;
    /** Two hops beat one on LoCoMo dev (+0.013 R@5 in the cascade at weight 1.0). */
    public static final int DEFAULT_GRAPH_HOPS = 2;
    /**
     * LoCoMo dev, every weight in one run on the same stores ({@code --centrality-sweep}): 0.05 and 0.1 left
     * R@5, R@10 and NDCG@10 of the cascade and of hybrid+graph unchanged; 0.2 and 0.3 cost 0.004–0.005 R@5
     * and 0.006–0.008 R@10.
     * LoCoMo's only edges are the conversation thread (every turn has one or two links), so it can show
     * that a small weight does no harm, not how much hubs help; 0.1 is the largest weight that did no harm.
     */
    public static final double DEFAULT_CENTRALITY_WEIGHT = 0.1;

    /** Every step: BM25, embeddings, the graph, and the cascade that may skip embeddings. */
    public static final Set<RecallStep> DEFAULT_STEPS = Collections.unmodifiableSet(EnumSet.allOf(RecallStep.class));

    public RecallSettings {
        Objects.requireNonNull(steps, "steps");
        steps = Collections.unmodifiableSet(steps.isEmpty() ? EnumSet.noneOf(RecallStep.class) : EnumSet.copyOf(steps));
        if (!steps.contains(RecallStep.LEXICAL) && !steps.contains(RecallStep.SEMANTIC)) {
            throw new IllegalArgumentException("at least one of lexical and semantic must run");
        }
        // written as !(valid) so that NaN, which every comparison fails, is refused too
        if (!(lexicalWeight >= 0 && lexicalWeight <= 1)) throw new IllegalArgumentException("lexicalWeight must be 0..1, got " + lexicalWeight);
        if (depth < 10) throw new IllegalArgumentException("depth must be >= 10, got " + depth);
        Objects.requireNonNull(stop, "stop");
        if (graphHops < 1 || graphHops > 2) throw new IllegalArgumentException("graphHops must be 1 or 2, got " + graphHops);
        requireFiniteNonNegative("graphWeight", graphWeight);
        requireFiniteNonNegative("boostScale", boostScale);
        requireFiniteNonNegative("centralityWeight", centralityWeight);
    }

    private static void requireFiniteNonNegative(String name, double v) {
        // written as !(valid) so that NaN, which every comparison fails, is refused too
        if (!(v >= 0 && v < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + v);
        }
    }

    public static RecallSettings defaults() {
        return new RecallSettings(DEFAULT_STEPS, DEFAULT_LEXICAL_WEIGHT, DEFAULT_DEPTH, StopRule.DEFAULT,
                DEFAULT_GRAPH_WEIGHT, DEFAULT_GRAPH_HOPS, 1.0, DEFAULT_CENTRALITY_WEIGHT);
    }

    /** Whether recall runs {@code step}. */
    public boolean runs(RecallStep step) {
        return steps.contains(step);
    }

    /** The same settings running only {@code steps} (at least one of lexical and semantic). */
    public RecallSettings withSteps(RecallStep... steps) {
        return new RecallSettings(Set.copyOf(Arrays.asList(steps)), lexicalWeight, depth, stop, graphWeight,
                graphHops, boostScale, centralityWeight);
    }

    public RecallSettings withStop(StopRule v) {
        return new RecallSettings(steps, lexicalWeight, depth, v, graphWeight, graphHops, boostScale, centralityWeight);
    }

    public RecallSettings withLexicalWeight(double v) {
        return new RecallSettings(steps, v, depth, stop, graphWeight, graphHops, boostScale, centralityWeight);
    }

    public RecallSettings withBoostScale(double v) {
        return new RecallSettings(steps, lexicalWeight, depth, stop, graphWeight, graphHops, v, centralityWeight);
    }

    public RecallSettings withDepth(int v) {
        return new RecallSettings(steps, lexicalWeight, v, stop, graphWeight, graphHops, boostScale, centralityWeight);
    }

    public RecallSettings withGraphHops(int v) {
        return new RecallSettings(steps, lexicalWeight, depth, stop, graphWeight, v, boostScale, centralityWeight);
    }

    public RecallSettings withGraphWeight(double v) {
        return new RecallSettings(steps, lexicalWeight, depth, stop, v, graphHops, boostScale, centralityWeight);
    }

    public RecallSettings withCentralityWeight(double v) {
        return new RecallSettings(steps, lexicalWeight, depth, stop, graphWeight, graphHops, boostScale, v);
    }
}
