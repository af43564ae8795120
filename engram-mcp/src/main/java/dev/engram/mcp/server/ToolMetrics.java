package dev.engram.mcp.server;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * Counts and latencies of tool calls, per tool, for {@code /metrics}: one counter per outcome
 * ({@code ok}, {@code error} for a caller's mistake or a refused right, {@code failure} for a fault of
 * the server) and a latency histogram. Recorded by {@link dev.engram.mcp.tool.ToolAdapter}, which every
 * tool call passes; process-wide, lock-free.
 */
public final class ToolMetrics {
    /** Histogram bucket upper bounds, in seconds. */
    public static final double[] BUCKETS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
    public static final ToolMetrics GLOBAL = new ToolMetrics();

    public enum Outcome { OK, ERROR, FAILURE }

    /** One tool's numbers. */
    public static final class Series {
        final AtomicLong[] outcomes = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
        final AtomicLongArray buckets = new AtomicLongArray(BUCKETS.length);
        final AtomicLong count = new AtomicLong();
        final DoubleAdder seconds = new DoubleAdder();
    }

    private final Map<String, Series> tools = new ConcurrentHashMap<>();
    private final AtomicLong denied = new AtomicLong();

    public void record(String tool, Outcome outcome, long nanos) {
        Series s = tools.computeIfAbsent(tool, t -> new Series());
        s.outcomes[outcome.ordinal()].incrementAndGet();
        double secs = nanos / 1e9;
        for (int i = 0; i < BUCKETS.length; i++) {
            if (secs <= BUCKETS[i]) {
                s.buckets.incrementAndGet(i); // per bucket; rendering accumulates
                break;
            }
        }
        s.count.incrementAndGet();
        s.seconds.add(secs);
    }

    /** A call refused for a missing right (also counted as an {@code error} of its tool). */
    public void denied() {
        denied.incrementAndGet();
    }

    /** Prometheus text exposition of every series. */
    public void render(StringBuilder out) {
        out.append("# HELP engram_tool_calls_total Tool calls by tool and outcome (ok, error: the caller's, failure: the server's).\n");
        out.append("# TYPE engram_tool_calls_total counter\n");
        var sorted = new java.util.TreeMap<>(tools);
        sorted.forEach((tool, s) -> {
            for (Outcome o : Outcome.values()) {
                out.append("engram_tool_calls_total{tool=\"").append(tool).append("\",outcome=\"")
                        .append(o.name().toLowerCase(java.util.Locale.ROOT)).append("\"} ")
                        .append(s.outcomes[o.ordinal()].get()).append('\n');
            }
        });
        out.append("# HELP engram_tool_duration_seconds Tool call latency, in the server.\n");
        out.append("# TYPE engram_tool_duration_seconds histogram\n");
        sorted.forEach((tool, s) -> {
            long cumulative = 0;
            for (int i = 0; i < BUCKETS.length; i++) {
                cumulative += s.buckets.get(i);
                out.append("engram_tool_duration_seconds_bucket{tool=\"").append(tool).append("\",le=\"")
                        .append(BUCKETS[i]).append("\"} ").append(cumulative).append('\n');
            }
            long count = s.count.get();
            out.append("engram_tool_duration_seconds_bucket{tool=\"").append(tool).append("\",le=\"+Inf\"} ")
                    .append(count).append('\n');
            out.append("engram_tool_duration_seconds_sum{tool=\"").append(tool).append("\"} ").append(s.seconds.sum()).append('\n');
            out.append("engram_tool_duration_seconds_count{tool=\"").append(tool).append("\"} ").append(count).append('\n');
        });
        out.append("# HELP engram_access_denied_total Calls refused because the token lacked a right.\n");
        out.append("# TYPE engram_access_denied_total counter\n");
        out.append("engram_access_denied_total ").append(denied.get()).append('\n');
    }
}
