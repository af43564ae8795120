package dev.engram.mcp.render;

/**
 * The one token estimate every profile's cost function uses (budgets), and the CLI, proxy and
 * benchmarks report with: one token per four characters, rounded up. Within ~15% of cl100k for
 * English prose and code identifiers, and cheap enough to call per result. It lives beside the
 * profiles rather than in the engine because the engine never estimates: it sums the prices of the
 * caller's {@link dev.engram.engine.ResultCost}.
 */
public final class TokenEstimate {
    private TokenEstimate() {
    }

    public static int of(String text) {
        return text == null || text.isEmpty() ? 0 : (text.length() + 3) / 4;
    }
}
