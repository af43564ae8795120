package dev.engram.mcp.http;

/**
 * What {@code /health} and {@code /metrics} report about the engine under the server, read on each
 * request by a probe the wiring supplies (it sees the raw store, not a caller's view).
 *
 * @param storeProblem null when the store answered; else a short reason (no secrets, no content)
 * @param memories     memories in the whole store; -1 when the store did not answer
 * @param indexLag     store changes this process's search index has not applied yet; -1 when unknown
 * @param embedder     {@code none} (lexical only), {@code loading} or {@code ready}
 * @param model        the embedding model's id, or null
 */
public record ServerStatus(String storeProblem, long memories, long indexLag, String embedder, String model) {
    /** Answers a fresh status; must not throw (a failed store read is a {@code storeProblem}). */
    @FunctionalInterface
    public interface Probe {
        ServerStatus probe();
    }

    public boolean healthy() {
        return storeProblem == null;
    }

    /** A probe for servers with nothing to report (tests): always healthy. */
    public static Probe unknown() {
        return () -> new ServerStatus(null, -1, -1, "none", null);
    }
}
