package dev.engram.mcp.http;

import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.server.ToolMetrics;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /metrics} in the Prometheus text format (0.0.4): tool calls and latencies per tool
 * ({@link ToolMetrics}), refused rights, HTTP responses by status, rate-limited and in-flight requests, index lag,
 * memory count, store up, and Redis (up, failed calls) when the server has one.
 * Behind the bearer filter like {@code /mcp}, and only for a token with the read right on every zone:
 * the memory count is store-wide.
 */
final class MetricsServlet extends HttpServlet {
    static final String PATH = "/metrics";

    private final ServerStatus.Probe probe;
    private final RedisLink redis;
    private final HttpCounters http;
    private final boolean open;
    private final java.util.function.IntSupplier inFlight;

    MetricsServlet(ServerStatus.Probe probe, RedisLink redis, HttpCounters http, boolean open,
                   java.util.function.IntSupplier inFlight) {
        this.probe = probe;
        this.redis = redis;
        this.http = http;
        this.open = open;
        this.inFlight = inFlight;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!HealthServlet.operator(req, open)) {
            byte[] body = JsonRpcErrors.body(-32001, "forbidden: /metrics needs a token with the read right on every"
                    + " zone (ENGRAM_TOKENS, or engram tokens add NAME --all-zones read)").getBytes(StandardCharsets.UTF_8);
            res.setStatus(403);
            res.setContentType("application/json");
            res.setContentLength(body.length);
            res.getOutputStream().write(body);
            return;
        }
        ServerStatus s = probe.probe();
        StringBuilder out = new StringBuilder(4096);
        ToolMetrics.GLOBAL.render(out);
        http.render(out);
        out.append("# HELP engram_http_requests_in_flight Requests being answered now (event streams excepted; this one included).\n")
                .append("# TYPE engram_http_requests_in_flight gauge\nengram_http_requests_in_flight ").append(inFlight.getAsInt()).append('\n');
        out.append("# HELP engram_store_up Whether the store answered the last probe.\n# TYPE engram_store_up gauge\n")
                .append("engram_store_up ").append(s.healthy() ? 1 : 0).append('\n');
        out.append("# HELP engram_index_lag Store changes this process's search index has not applied yet.\n")
                .append("# TYPE engram_index_lag gauge\nengram_index_lag ").append(s.indexLag()).append('\n');
        out.append("# HELP engram_memories Memories in the store (every zone, every status).\n")
                .append("# TYPE engram_memories gauge\nengram_memories ").append(s.memories()).append('\n');
        out.append("# HELP engram_embedder_ready Whether the embedding model is loaded (0 while loading or without one).\n")
                .append("# TYPE engram_embedder_ready gauge\nengram_embedder_ready ")
                .append("ready".equals(s.embedder()) ? 1 : 0).append('\n');
        out.append("# HELP engram_maintenance_runs_total Maintenance cycles this process ran (one process at a time holds the store's lease).\n")
                .append("# TYPE engram_maintenance_runs_total counter\nengram_maintenance_runs_total ")
                .append(dev.engram.engine.lifecycle.MaintenanceScheduler.runs()).append('\n');
        out.append("# HELP engram_maintenance_failures_total Maintenance cycles that failed here (the next check tries again).\n")
                .append("# TYPE engram_maintenance_failures_total counter\nengram_maintenance_failures_total ")
                .append(dev.engram.engine.lifecycle.MaintenanceScheduler.failures()).append('\n');
        out.append("# HELP engram_maintenance_last_run_seconds When this process last ran a cycle (Unix time; 0: none yet).\n")
                .append("# TYPE engram_maintenance_last_run_seconds gauge\nengram_maintenance_last_run_seconds ")
                .append(dev.engram.engine.lifecycle.MaintenanceScheduler.lastRunEpochMillis() / 1000).append('\n');
        if (redis != null) {
            out.append("# HELP engram_redis_up Whether Redis answered its last call (without it, limits are per replica).\n")
                    .append("# TYPE engram_redis_up gauge\nengram_redis_up ").append(redis.problem() == null ? 1 : 0).append('\n');
            out.append("# HELP engram_redis_failures_total Redis calls that failed or timed out (each answered without Redis).\n")
                    .append("# TYPE engram_redis_failures_total counter\nengram_redis_failures_total ").append(redis.failures()).append('\n');
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
        res.setStatus(200);
        res.setContentType("text/plain; version=0.0.4; charset=utf-8");
        res.setHeader("Cache-Control", "no-store");
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
    }
}
