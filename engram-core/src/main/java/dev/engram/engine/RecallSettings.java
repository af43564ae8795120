package dev.engram.engine;

/**
 * How recall finds candidates. The defaults are what LoCoMo's dev conversations (0 and 1) chose;
 * docs/benchmarks.md has the sweep. Benchmarks build engines with other settings to compare modes.
 *
 * @param lexical       run L2 (BM25)
 * @param semantic      run L3 (embeddings) when an embedder is ready
 * @param graph         expand the fused hits along edges
 * @param cascade       allow skipping L3 when the lexical answer is already strong
 * @param lexicalWeight α of the weighted min-max fusion {@code α·bm25' + (1−α)·cosine'}
 * @param depth         candidates taken from each list before fusion
 * @param stopCoverage  share of the query's content words the top lexical hit must contain to skip L3
 * @param graphWeight   weight of a neighbour reached from a hit (times 0.5^hops and the hit's score)
 * @param graphHops     how far the expansion walks (1 or 2)
 * @param boostScale    multiplier of the importance, quality, freshness and warning boosts
 */
public record RecallSettings(boolean lexical, boolean semantic, boolean graph, boolean cascade, double lexicalWeight,
                             int depth, double stopCoverage, double graphWeight, int graphHops, double boostScale) {
    /** Weighted min-max beat RRF (adaptive k) by +0.018 NDCG@10 at equal recall on LoCoMo test; α tuned on dev. */
    public static final double DEFAULT_LEXICAL_WEIGHT = 0.6;
    /** Deeper lists let fusion promote a hit ranked 11..100 by one layer; measured on LoCoMo dev. */
    public static final int DEFAULT_DEPTH = 100;

    /**
     * LoCoMo dev: skipping L3 when the top lexical hit holds ≥ 75% of the query's content words skipped
     * it on 34% of questions for −0.015 R@5 / −0.023 R@10 against forcing every layer; requiring 100%
     * skipped only 11% (the sweep is in docs/benchmarks.md).
     */
    public static final double DEFAULT_STOP_COVERAGE = 0.75;
    /** LoCoMo dev, with each turn linked to the previous one: 1.0 beat 0.6 and 0.3 (+0.03 and +0.05 R@5). */
    public static final double DEFAULT_GRAPH_WEIGHT = 1.0;
    /** Two hops beat one on LoCoMo dev (+0.013 R@5 in the cascade at weight 1.0). */
    public static final int DEFAULT_GRAPH_HOPS = 2;

    public RecallSettings {
        if (!lexical && !semantic) throw new IllegalArgumentException("at least one of lexical and semantic must run");
        if (lexicalWeight < 0 || lexicalWeight > 1) throw new IllegalArgumentException("lexicalWeight must be 0..1, got " + lexicalWeight);
        if (depth < 10) throw new IllegalArgumentException("depth must be >= 10, got " + depth);
        if (stopCoverage < 0 || stopCoverage > 1.01) throw new IllegalArgumentException("stopCoverage must be 0..1, got " + stopCoverage);
        if (graphHops < 1 || graphHops > 2) throw new IllegalArgumentException("graphHops must be 1 or 2, got " + graphHops);
        if (boostScale < 0) throw new IllegalArgumentException("boostScale must be >= 0, got " + boostScale);
    }

    public static RecallSettings defaults() {
        return new RecallSettings(true, true, true, true, DEFAULT_LEXICAL_WEIGHT, DEFAULT_DEPTH, DEFAULT_STOP_COVERAGE,
                DEFAULT_GRAPH_WEIGHT, DEFAULT_GRAPH_HOPS, 1.0);
    }

    public RecallSettings withLayers(boolean lexical, boolean semantic, boolean graph, boolean cascade) {
        return new RecallSettings(lexical, semantic, graph, cascade, lexicalWeight, depth, stopCoverage, graphWeight, graphHops, boostScale);
    }

    public RecallSettings withStopCoverage(double v) {
        return new RecallSettings(lexical, semantic, graph, cascade, lexicalWeight, depth, v, graphWeight, graphHops, boostScale);
    }

    public RecallSettings withLexicalWeight(double v) {
        return new RecallSettings(lexical, semantic, graph, cascade, v, depth, stopCoverage, graphWeight, graphHops, boostScale);
    }

    public RecallSettings withBoostScale(double v) {
        return new RecallSettings(lexical, semantic, graph, cascade, lexicalWeight, depth, stopCoverage, graphWeight, graphHops, v);
    }

    public RecallSettings withGraphHops(int v) {
        return new RecallSettings(lexical, semantic, graph, cascade, lexicalWeight, depth, stopCoverage, graphWeight, v, boostScale);
    }

    public RecallSettings withGraphWeight(double v) {
        return new RecallSettings(lexical, semantic, graph, cascade, lexicalWeight, depth, stopCoverage, v, graphHops, boostScale);
    }
}
