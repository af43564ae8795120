package dev.engram.render;

/**
 * The one token estimate used everywhere (budgets, stats, benchmarks): one token per four
 * characters, rounded up. Within ~15% of cl100k for English prose and code identifiers, and cheap
 * enough to call per result.
 */
public final class TokenEstimate {
    private TokenEstimate() {
    }

    public static int of(String text) {
        return text == null || text.isEmpty() ? 0 : (text.length() + 3) / 4;
    }
}
