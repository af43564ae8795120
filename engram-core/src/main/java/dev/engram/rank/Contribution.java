package dev.engram.rank;

/** One signal's share of a ranking score: {@code value} is added to the score. */
public record Contribution(String name, double value, String reason) {
}
