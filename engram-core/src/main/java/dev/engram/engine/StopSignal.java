package dev.engram.engine;

/**
 * What the cascade's stop rule read for one recall (see {@link StopRule}): the best lexical hit holds
 * {@code found} of the query's {@code words} content words, {@code share} of their idf; the words it
 * lacks weigh {@code missing} unseen words' idf; it scores {@code margin} times the next hit (infinite
 * when it is the only hit). The explain line prints these rounded; benchmarks read them exactly here.
 */
public record StopSignal(int found, int words, double share, double missing, double margin) {
}
