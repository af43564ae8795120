package dev.engram.rank;

import java.util.function.Supplier;

/**
 * One signal's share of a ranking score: {@code value} is added to the score; {@code describer} says
 * why in words. The words are built only when asked ({@code explain}): every candidate of every recall
 * has five or more contributions, and formatting them all cost more than scoring them.
 */
public record Contribution(String name, double value, Supplier<String> describer) {

    /** The reason in words, e.g. {@code quality 0.80}. */
    public String reason() {
        return describer.get();
    }
}
