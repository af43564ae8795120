package dev.engram.proxy;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.pipeline.Pipeline;
import dev.engram.proxy.stats.ProposalQueue;
import dev.engram.proxy.stats.ProxyStats;
import dev.engram.proxy.stats.Report;
import dev.engram.proxy.stats.StatsReports;
import dev.engram.proxy.surfacing.Surfacer;
import dev.engram.proxy.tools.AdminTool;
import dev.engram.proxy.tools.CompressionFeedbackTool;
import dev.engram.proxy.tools.DescribeToolTool;
import dev.engram.proxy.tools.MemoryProposeTool;
import dev.engram.proxy.tools.ProxyToolNames;
import dev.engram.proxy.tools.ReadMoreTool;
import dev.engram.proxy.tools.SelectChunksTool;
import dev.engram.proxy.tools.SurfacingFeedbackTool;
import dev.engram.proxy.upstream.Exposure;
import dev.engram.proxy.upstream.ExposureGate;
import dev.engram.proxy.upstream.ProgressRelay;
import dev.engram.proxy.upstream.UpstreamConnection;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A running proxy: its upstream connections, what the exposure gate let through, the gateway and
 * the proxy's own tools. The tool set is fixed once {@link #connectAll} has run: the stdio server
 * serves as soon as it is built, so tools added later would race the first tools/list (SDK gotcha 7).
 */
public final class ProxyRuntime implements AutoCloseable {
    private final List<UpstreamConnection> upstreams;
    private final ExposureGate gate;
    private final ProxyGateway gateway;
    private final OriginalStore originals;
    private final ResponseCache cache;
    private final ProxyStats stats;
    private final Surfacer surfacer;
    private final ProxySettings settings;
    private final JsonText json;
    private final ProposalQueue proposals;
    private final ProgressRelay progress;
    // set once by connectAll, before any server exists
    private volatile Exposure exposure;

    public ProxyRuntime(List<UpstreamConnection> upstreams, ExposureGate gate, Pipeline pipeline, OriginalStore originals,
                        ResponseCache cache, ProxyStats stats, Surfacer surfacer, ProxySettings settings, JsonText json,
                        ProposalQueue proposals, ProgressRelay progress) {
        this.upstreams = List.copyOf(upstreams);
        this.gate = gate;
        this.originals = originals;
        this.cache = cache;
        this.stats = stats;
        this.surfacer = surfacer;
        this.settings = settings;
        this.json = json;
        this.proposals = proposals;
        this.progress = progress;
        Map<String, UpstreamConnection> byName = new LinkedHashMap<>();
        for (UpstreamConnection u : upstreams) byName.put(u.config().name(), u);
        this.gateway = new ProxyGateway(byName, pipeline, cache, stats, json.mapper(), settings.resultBudget());
        this.exposure = gate.expose(List.of(), ProxyToolNames.ALL);
    }

    /** Connects every upstream in parallel, each within the connect timeout, then applies the gate. */
    public Exposure connectAll() {
        // one thread per upstream: connecting blocks, and the common pool has a single thread on two cores
        java.util.concurrent.ExecutorService connecting = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(1, upstreams.size()), r -> {
                    Thread t = new Thread(r, "engram-proxy-connect");
                    t.setDaemon(true);
                    return t;
                });
        List<CompletableFuture<Boolean>> all = upstreams.stream()
                .map(u -> CompletableFuture.supplyAsync(u::connect, connecting)).toList();
        long deadline = System.nanoTime() + settings.connectTimeout().toNanos();
        for (CompletableFuture<Boolean> f : all) {
            try {
                f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) {
                // a server that does not come up in time stays disconnected; health shows it
            }
        }
        connecting.shutdown();
        exposure = gate.expose(upstreams, ProxyToolNames.ALL);
        return exposure;
    }

    public Exposure exposure() {
        return exposure;
    }

    /** Where upstream progress notifications find the agent call they belong to. */
    public ProgressRelay progress() {
        return progress;
    }

    public ProxyGateway gateway() {
        return gateway;
    }

    /** The proxy's own tools; {@code stm_admin} only when advertised. */
    public List<ToolHandler> ownTools() {
        List<ToolHandler> tools = new ArrayList<>(List.of(new SelectChunksTool(originals, stats),
                new ReadMoreTool(originals, stats), new DescribeToolTool(this::advertised, json),
                new SurfacingFeedbackTool(stats, surfacer), new CompressionFeedbackTool(stats)));
        if (settings.advertiseAdmin()) tools.add(new AdminTool(adminActions()));
        if (settings.formation()) tools.add(new MemoryProposeTool(proposals));
        return tools;
    }

    /** Every tool the agent can list, by its listed name, with the full upstream description and schema. */
    private List<Tool> advertised() {
        return Stream.concat(exposure.tools().stream().map(t -> Tool.builder(t.name(), t.exposed().inputSchema())
                        .description(t.upstream().description()).build()),
                ownTools().stream().map(ToolHandler::definition)).toList();
    }

    Map<String, Function<Map<String, Object>, Report>> adminActions() {
        StatsReports reports = new StatsReports(stats);
        Map<String, Function<Map<String, Object>, Report>> a = new LinkedHashMap<>();
        a.put("proxy_stats", p -> reports.proxyStats());
        a.put("proxy_health", p -> health());
        a.put("proxy_cache_clear", p -> {
            int n = cache.clear(str(p, "server"), str(p, "tool"));
            return new Report("Cleared " + n + " cached responses.\n", Map.of("cleared", n));
        });
        a.put("surfacing_stats", p -> reports.surfacingStats(surfacer.skippedByReason(), surfacer.tuner().minScore()));
        a.put("selection_stats", p -> reports.selectionStats());
        a.put("compression_stats", p -> reports.compressionStats(str(p, "tool")));
        a.put("progressive_stats", p -> reports.progressiveStats(str(p, "tool")));
        a.put("tuning_recommendations", p -> reports.tuningRecommendations(surfacer.tuner().minScore()));
        return a;
    }

    public Report health() {
        return HealthReport.of(upstreams, exposure, surfacer.breakerState().name().toLowerCase(java.util.Locale.ROOT),
                cache.size(), originals.size());
    }

    /**
     * {@link #health()} for the operator at a terminal: per upstream PASS or FAIL, the step a
     * failure stopped at and its full message, the time connecting took, each hidden tool and why.
     */
    public Report doctor() {
        return HealthReport.of(upstreams, exposure, surfacer.breakerState().name().toLowerCase(java.util.Locale.ROOT),
                cache.size(), originals.size(), true, settings.connectTimeout().toSeconds());
    }

    /** Whether every upstream is connected (exit status of health and doctor). */
    public boolean allConnected() {
        return upstreams.stream().allMatch(UpstreamConnection::connected);
    }

    private static String str(Map<String, Object> p, String k) {
        Object v = p.get(k);
        return v == null || v.toString().isBlank() ? null : v.toString();
    }

    @Override
    public void close() {
        for (UpstreamConnection u : upstreams) {
            try {
                u.close();
            } catch (RuntimeException e) {
                // shutting down: the next upstream must still be closed
            }
        }
        surfacer.close();
        cache.close();
        stats.close();
        proposals.close();
    }
}
