package dev.engram.engine;

/**
 * When the cascade may skip L3 (semantic): the best lexical hit already holds the query's informative
 * words, or it stands out from the next hit without lacking too much. Each content word of a query
 * weighs its BM25 idf in the index; <em>share</em> is the part of the query's idf the top hit holds,
 * <em>missing</em> the idf of the words it lacks in units of an unseen word's idf (a word no memory
 * holds is likely a paraphrase only the semantic layer can match), <em>margin</em> the top hit's BM25
 * score over the next hit's (infinite for a lone hit).
 *
 * <p>The defaults are LoCoMo dev's choice, every rule on the same rankings ({@code --stop-sweep},
 * deterministic index): the rule skipping L3 most often while losing at most 0.01 of mean(R@5, R@10) and
 * at most 0.02 of either against forcing every layer, among the rules that keep the retrieval regression
 * set's paraphrases (docs/benchmarks.md §6). Test, run once afterwards: 34.2% of the questions skipped L3
 * for −0.011 R@5 and −0.015 R@10.
 *
 * <p>Only short queries may stop ({@code maxWords}): with e5-small-v2, the default model since
 * 2026-12-01, letting any query stop on a decisive lexical hit skipped L3 on half of LoCoMo dev's
 * questions and cost 0.045 R@5 and 0.057 R@10 against running every layer; limited to two content
 * words it skipped 4% and cost nothing measurable (docs/benchmarks.md §6). One or two words are a name,
 * an identifier or a key phrase, where the lexical layer is decisive; a longer query is a question or a
 * description, where the semantic layer finds what the words miss.
 *
 * @param coverage      share of the query's idf the top hit must hold...
 * @param missing       ...while lacking at most this many unseen words' idf; or
 * @param margin        the top hit scores at least this many times the next ({@link Double#POSITIVE_INFINITY}: never)...
 * @param marginMissing ...while lacking at most this many unseen words' idf
 * @param maxWords      and only for a query of at most this many content words
 */
public record StopRule(double coverage, double missing, double margin, double marginMissing, int maxWords) {
    /** One or two content words (see the class comment). */
    public static final int DEFAULT_MAX_WORDS = 2;

    /**
     * Half the query's idf held and at most one unseen word's idf lacking: one word no memory holds, or
     * one or two rare ones (a word held by one memory weighs 0.84 of an unseen one at 400 memories, 0.89
     * at 10k). Alone it skipped L3 on 38.6% of LoCoMo dev for −0.004 R@5 and −0.015 R@10.
     */
    public static final double DEFAULT_COVERAGE = 0.5;
    public static final double DEFAULT_MISSING = 1.0;
    /** Or a top hit 1.75 times the next: with it, 40.3% of dev skipped L3 for the same loss. */
    public static final double DEFAULT_MARGIN = 1.75;
    /**
     * ...lacking at most two unseen words' idf. Without this cap a paraphrase skipped L3 on a decisive
     * lexical hit and lost its memory (the retrieval regression set's "why is the purchase flow spec
     * unreliable"); among the capped rules that keep it, this one skipped most on dev.
     */
    public static final double DEFAULT_MARGIN_MISSING = 2.0;

    public static final StopRule DEFAULT = new StopRule(DEFAULT_COVERAGE, DEFAULT_MISSING, DEFAULT_MARGIN,
            DEFAULT_MARGIN_MISSING, DEFAULT_MAX_WORDS);
    /** Stops whenever the cascade may stop at all; benchmarks use it to see every question's signal. */
    public static final StopRule ALWAYS = new StopRule(0, Double.MAX_VALUE, Double.POSITIVE_INFINITY, 0, Integer.MAX_VALUE);

    /** A rule for queries of at most {@link #DEFAULT_MAX_WORDS} content words. */
    public StopRule(double coverage, double missing, double margin, double marginMissing) {
        this(coverage, missing, margin, marginMissing, DEFAULT_MAX_WORDS);
    }

    public StopRule {
        if (!(coverage >= 0 && coverage <= 1.01)) throw new IllegalArgumentException("stop coverage must be 0..1, got " + coverage);
        if (!(missing >= 0)) throw new IllegalArgumentException("stop missing must be >= 0, got " + missing);
        if (!(margin >= 1)) throw new IllegalArgumentException("stop margin must be >= 1, got " + margin);
        if (!(marginMissing >= 0)) throw new IllegalArgumentException("stop margin missing must be >= 0, got " + marginMissing);
        if (maxWords < 1) throw new IllegalArgumentException("stop max words must be >= 1, got " + maxWords);
    }

    /** Whether a query of this many content words may end the cascade before L3 at all. */
    public boolean mayStop(int words) {
        return words <= maxWords;
    }

    /** Whether a top hit with this signal may end the cascade before L3. */
    public boolean stops(StopSignal s) {
        if (!mayStop(s.words())) return false;
        boolean holdsTheQuery = s.share() >= coverage && s.missing() <= missing;
        boolean standsOut = !Double.isInfinite(margin) && s.margin() >= margin && s.missing() <= marginMissing;
        return holdsTheQuery || standsOut;
    }

    public StopRule withCoverage(double v) {
        return new StopRule(v, missing, margin, marginMissing, maxWords);
    }

    public StopRule withMissing(double v) {
        return new StopRule(coverage, v, margin, marginMissing, maxWords);
    }

    public StopRule withMargin(double v) {
        return new StopRule(coverage, missing, v, marginMissing, maxWords);
    }

    public StopRule withMaxWords(int v) {
        return new StopRule(coverage, missing, margin, marginMissing, v);
    }

    public StopRule withMarginMissing(double v) {
        return new StopRule(coverage, missing, margin, v, maxWords);
    }
}
