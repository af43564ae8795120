package dev.engram.spi;

import java.util.Map;

/**
 * How informative words are in an index: BM25's inverse document frequency over memory content,
 * {@code ln(1 + (N − df + 0.5) / (df + 0.5))} with N the memories indexed and df those holding the word.
 * {@code unseen} is the weight of a word no memory holds, {@code ln(1 + (N + 0.5) / 0.5)}, the most any
 * word can weigh: the cascade measures what the best lexical hit misses in units of it.
 */
public record WordWeights(Map<String, Double> idf, double unseen) {
    public WordWeights {
        idf = Map.copyOf(idf);
    }

    /** BM25's idf for a word held by {@code df} of {@code n} memories. */
    public static double idf(long df, long n) {
        return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    }

    /** Weights computed from document frequencies; words missing from {@code df} are unseen. */
    public static WordWeights of(Map<String, Long> df, long n) {
        Map<String, Double> idf = new java.util.HashMap<>();
        df.forEach((w, d) -> idf.put(w, idf(d, n)));
        return new WordWeights(idf, idf(0, n));
    }

    /** The word's weight; {@link #unseen} when the index does not hold it. */
    public double of(String word) {
        return idf.getOrDefault(word, unseen);
    }
}
