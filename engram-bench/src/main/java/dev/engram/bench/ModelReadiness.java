package dev.engram.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Waits until an Engram server over MCP has loaded its embedding model, so that no timed or scored recall runs
 * lexically for want of it: a probe recall in mode hybrid (which runs L3 whenever it can; with {@code as_of}, so it
 * counts no access) must report that L3 ran.
 */
public final class ModelReadiness {
    /** Longest a server's model may take to load before a run gives up. */
    public static final Duration TIMEOUT = Duration.ofMinutes(3);

    private ModelReadiness() {
    }

    /** How long the model took to be ready; throws when it was not within {@link #TIMEOUT} or the probe failed. */
    public static Duration await(McpSession session) {
        long t0 = System.nanoTime();
        long deadline = t0 + TIMEOUT.toNanos();
        while (true) {
            McpSession.Structured probe = session.callStructured("recall", Map.of("query", "readiness probe",
                    "mode", "hybrid", "as_of", Instant.now().plusSeconds(60).toString()));
            if (probe.error()) throw new IllegalStateException("probe recall failed: " + probe.text());
            Object layers = probe.content() == null ? null : probe.content().get("layers");
            boolean ready = layers instanceof List<?> l && l.stream().anyMatch(x -> String.valueOf(x).startsWith("L3 semantic: "))
                    && l.stream().noneMatch(x -> String.valueOf(x).contains("still loading"));
            if (ready) return Duration.ofNanos(System.nanoTime() - t0);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server's embedding model was not ready after " + TIMEOUT
                        + "; last layers: " + layers);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
