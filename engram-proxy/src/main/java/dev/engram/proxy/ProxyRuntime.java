package dev.engram.proxy;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.proxy.cache.ResponseCache;
import dev.engram.proxy.compress.OriginalStore;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.config.UpstreamConfig;
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
import dev.engram.proxy.upstream.Catalog;
import dev.engram.proxy.upstream.ExposedTool;
import dev.engram.proxy.upstream.Exposure;
import dev.engram.proxy.upstream.ExposureGate;
import dev.engram.proxy.upstream.ProgressRelay;
import dev.engram.proxy.upstream.UpstreamConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A running proxy: its upstream connections, what the exposure gate let through, the gateway and
 * the proxy's own tools. The first exposure is computed by {@link #connectAll}, before the server is
 * built (the stdio server serves as soon as it is built, SDK gotcha 7); after that it follows the
 * upstreams (list_changed, reconnects) and proxy.json ({@link #apply}), and tells each
 * {@link #onExposureChange listener} so the server can update its lists and notify the agent.
 */
public final class ProxyRuntime implements AutoCloseable {
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProxyRuntime.class);
    // replaced whole (copy on write) by apply; read without a lock
    private volatile List<UpstreamConnection> upstreams;
    private volatile ProxyConfig config;
    private final Function<UpstreamConfig, UpstreamConnection> connections;
    private final List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<java.util.function.Consumer<String>> updateListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Object exposureLock = new Object();
    private final Object reloadLock = new Object();
    private volatile Catalog catalog = Catalog.EMPTY;
    private volatile Reload lastReload;
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
    // first set by connectAll, before any server exists; then replaced on every change
    private volatile Exposure exposure;
    private final AgentRequests agentRequests;

    public ProxyRuntime(List<UpstreamConnection> upstreams, ExposureGate gate, Pipeline pipeline, OriginalStore originals,
                        ResponseCache cache, ProxyStats stats, Surfacer surfacer, ProxySettings settings, JsonText json,
                        ProposalQueue proposals, ProgressRelay progress) {
        this(upstreams, new ProxyConfig(upstreams.stream().map(UpstreamConnection::config).toList()), c -> {
            throw new IllegalStateException("this proxy was built without a way to start upstreams; it cannot reload");
        }, gate, pipeline, originals, cache, stats, surfacer, settings, json, proposals, progress);
    }

    /**
     * {@code config} is what {@code upstreams} were made from; {@code connections} makes the
     * connection of an upstream that a reload adds or changes.
     */
    public ProxyRuntime(List<UpstreamConnection> upstreams, ProxyConfig config, Function<UpstreamConfig, UpstreamConnection> connections,
                        ExposureGate gate, Pipeline pipeline, OriginalStore originals,
                        ResponseCache cache, ProxyStats stats, Surfacer surfacer, ProxySettings settings, JsonText json,
                        ProposalQueue proposals, ProgressRelay progress) {
        this.upstreams = List.copyOf(upstreams);
        this.config = config;
        this.connections = connections;
        this.gate = gate;
        this.originals = originals;
        this.cache = cache;
        this.stats = stats;
        this.surfacer = surfacer;
        this.settings = settings;
        this.json = json;
        this.proposals = proposals;
        this.progress = progress;
        this.gateway = new ProxyGateway(this::upstream, pipeline, cache, stats, json.mapper(), settings.resultBudget());
        this.exposure = gate.expose(List.of(), ProxyToolNames.ALL);
        this.agentRequests = new AgentRequests(AgentRequests.names(ownTools()));
    }

    /** The agent's requests as the proxy sees them before the SDK does: cancels, calls to tools that are gone. */
    public AgentRequests agentRequests() {
        return agentRequests;
    }

    /** The connection of the upstream named {@code name} now, or null (never configured, or removed by a reload). */
    public UpstreamConnection upstream(String name) {
        for (UpstreamConnection u : upstreams) if (u.config().name().equals(name)) return u;
        return null;
    }

    public List<UpstreamConnection> upstreams() {
        return upstreams;
    }

    /** The proxy.json the proxy runs with now (the last valid one). */
    public ProxyConfig config() {
        return config;
    }

    /** Resources, templates and prompts of the connected upstreams, prefixed. */
    public Catalog catalog() {
        return catalog;
    }

    /** {@code listener} runs (on a background thread) after the exposure or the catalog may have changed. */
    public void onExposureChange(Runnable listener) {
        listeners.add(listener);
    }

    /** {@code listener} hears the exposed URI ({@code prefix+uri}) of each update of a resource the agent subscribed to. */
    public void onResourceUpdated(java.util.function.Consumer<String> listener) {
        updateListeners.add(listener);
    }

    /** Passes {@code u}'s resource updates on under the prefix it has when the update comes. */
    private void follow(UpstreamConnection u) {
        u.onResourceUpdated(uri -> {
            String exposed = Catalog.uri(u.config().prefix(), uri);
            for (java.util.function.Consumer<String> l : updateListeners) {
                try {
                    l.accept(exposed);
                } catch (RuntimeException e) {
                    log.warn("the update of {} could not be passed on: {}", exposed, e.getMessage());
                }
            }
        });
    }

    /**
     * The agent subscribed to the exposed resource {@code exposedUri} ({@code prefix+uri}): the upstream that
     * serves it subscribes to its own URI. Returns what happened, for the log: the agent has its answer already.
     */
    public String subscribe(String exposedUri) {
        return subscription(exposedUri, true);
    }

    /** The agent ended its subscription to {@code exposedUri}; the upstream is told. */
    public String unsubscribe(String exposedUri) {
        return subscription(exposedUri, false);
    }

    private String subscription(String exposedUri, boolean subscribe) {
        java.util.Optional<String[]> parts = Catalog.split(exposedUri);
        if (parts.isEmpty()) return exposedUri + " is not a proxied resource (prefix+uri); nothing was forwarded";
        UpstreamConnection u = upstreams.stream().filter(c -> c.config().prefix().equals(parts.get()[0])).findFirst().orElse(null);
        if (u == null) return "no upstream has the prefix '" + parts.get()[0] + "' (" + exposedUri + "); nothing was forwarded";
        try {
            if (!subscribe) {
                u.unsubscribe(parts.get()[1]);
                return "upstream '" + u.config().name() + "' unsubscribed from " + parts.get()[1];
            }
            return u.subscribe(parts.get()[1]) ? "upstream '" + u.config().name() + "' subscribed to " + parts.get()[1]
                    : "upstream '" + u.config().name() + "' offers no resource subscriptions; " + exposedUri + " will get no updates";
        } catch (dev.engram.proxy.upstream.UpstreamException e) {
            return "upstream '" + u.config().name() + "' could not " + (subscribe ? "subscribe to " : "unsubscribe from ")
                    + parts.get()[1] + ": " + e.getMessage();
        }
    }

    /** Applies the gate again to what every upstream lists now, then tells the listeners. */
    public void refreshExposure() {
        synchronized (exposureLock) {
            List<UpstreamConnection> now = upstreams;
            exposure = gate.expose(now, ProxyToolNames.ALL, config.advertiseContextQuery());
            catalog = Catalog.of(now);
        }
        for (Runnable l : listeners) {
            try {
                l.run();
            } catch (RuntimeException e) {
                log.warn("a change of the proxied tools could not be passed on: {}", e.getMessage(), e);
            }
        }
    }

    /**
     * Runs {@code next} (a valid proxy.json) from now on: an upstream that is new starts, one that
     * is gone stops, one whose transport changed restarts; one whose other settings changed keeps
     * its server and takes them. Upstreams that did not change are not touched. Returns what changed.
     */
    public Reload apply(ProxyConfig next) {
        synchronized (reloadLock) {
            List<UpstreamConnection> before = upstreams;
            Map<String, UpstreamConnection> old = new LinkedHashMap<>();
            for (UpstreamConnection u : before) old.put(u.config().name(), u);
            List<UpstreamConnection> after = new ArrayList<>();
            List<UpstreamConnection> starting = new ArrayList<>();
            List<UpstreamConnection> stopping = new ArrayList<>();
            List<String> added = new ArrayList<>();
            List<String> restarted = new ArrayList<>();
            List<String> reconfigured = new ArrayList<>();
            for (UpstreamConfig u : next.upstreams()) {
                UpstreamConnection have = old.remove(u.name());
                if (have == null) {
                    UpstreamConnection c = connections.apply(u);
                    after.add(c);
                    starting.add(c);
                    added.add(u.name());
                } else if (have.config().equals(u)) {
                    after.add(have);
                } else if (have.config().transport().equals(u.transport())) {
                    have.reconfigure(u);
                    after.add(have);
                    reconfigured.add(u.name());
                } else {
                    UpstreamConnection c = connections.apply(u);
                    c.adoptSubscriptions(have.subscriptions()); // the agent is still subscribed; the new server is told
                    after.add(c);
                    starting.add(c);
                    stopping.add(have);
                    restarted.add(u.name());
                }
            }
            List<String> removed = new ArrayList<>(old.keySet());
            stopping.addAll(old.values());
            boolean settingsChanged = next.advertiseContextQuery() != config.advertiseContextQuery()
                    || next.surfacingEnabled() != config.surfacingEnabled()
                    || next.recoverUpstreamDescription() != config.recoverUpstreamDescription();
            config = next;
            upstreams = List.copyOf(after);
            for (UpstreamConnection c : stopping) {
                try {
                    c.close();
                } catch (RuntimeException e) {
                    // it is being dropped anyway; the others must still be handled
                }
            }
            for (UpstreamConnection c : starting) {
                c.onChange(this::refreshExposure);
                follow(c);
                Thread t = new Thread(c::connect, "engram-proxy-connect-" + c.config().name());
                t.setDaemon(true);
                t.start();
            }
            Reload r = new Reload(java.time.Instant.now(), added, removed, restarted, reconfigured, settingsChanged, null);
            lastReload = r;
            refreshExposure();
            return r;
        }
    }

    /** Records that proxy.json changed but could not be used: the running config stays, health says why. */
    public void refused(String why) {
        lastReload = new Reload(java.time.Instant.now(), List.of(), List.of(), List.of(), List.of(), false, why);
    }

    /** The last reload of proxy.json, or null when it has not changed since the start. */
    public Reload lastReload() {
        return lastReload;
    }

    /**
     * One reload of proxy.json: upstreams added, removed, restarted (transport changed) and
     * reconfigured (other settings), whether proxy-wide settings changed, or the reason it was refused.
     */
    public record Reload(java.time.Instant at, List<String> added, List<String> removed, List<String> restarted,
                         List<String> reconfigured, boolean settingsChanged, String refused) {
        public boolean changedAnything() {
            return !added.isEmpty() || !removed.isEmpty() || !restarted.isEmpty() || !reconfigured.isEmpty() || settingsChanged;
        }

        public String summary() {
            if (refused != null) return "refused: " + refused;
            if (!changedAnything()) return "no change to apply";
            List<String> parts = new ArrayList<>();
            if (!added.isEmpty()) parts.add("added " + String.join(", ", added));
            if (!removed.isEmpty()) parts.add("removed " + String.join(", ", removed));
            if (!restarted.isEmpty()) parts.add("restarted " + String.join(", ", restarted));
            if (!reconfigured.isEmpty()) parts.add("settings of " + String.join(", ", reconfigured));
            if (settingsChanged) parts.add("proxy-wide settings");
            return "applied: " + String.join("; ", parts);
        }
    }

    /**
     * How long the proxy's start waits for its upstreams before it serves the agent (answers initialize
     * and tools/list) with those that are up: one that is slow or hangs must not hold the others back
     * for its connect timeout, nor fail a host's own start timeout. A later one is added when it connects
     * (the agent gets tools/list_changed).
     */
    public static final java.time.Duration STARTUP_WAIT = java.time.Duration.ofSeconds(5);

    /**
     * Connects every upstream in parallel, each within the connect timeout, and waits until each has
     * connected or failed (health and doctor report on every one), then applies the gate.
     */
    public Exposure connectAll() {
        return connectAll(settings.connectTimeout().plusSeconds(1));
    }

    /**
     * Starts connecting every upstream in parallel and waits at most {@code wait} for them (returns as
     * soon as each has connected or failed), then applies the gate to those that are up. Upstreams still
     * connecting go on in the background; each one that connects later changes the exposure, and the
     * listeners hear of it.
     */
    public Exposure connectAll(java.time.Duration wait) {
        List<UpstreamConnection> upstreams = this.upstreams;
        for (UpstreamConnection u : upstreams) {
            u.onChange(this::refreshExposure);
            follow(u);
        }
        // one thread per upstream: connecting blocks, and the common pool has a single thread on two cores
        List<CompletableFuture<Boolean>> all = new ArrayList<>();
        for (UpstreamConnection u : upstreams) {
            CompletableFuture<Boolean> f = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    f.complete(u.connect());
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }, "engram-proxy-connect-" + u.config().name());
            t.setDaemon(true);
            t.start();
            all.add(f);
        }
        try {
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // one still connecting (or one failed): serve with those that are up; health shows the rest
        }
        refreshExposure();
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
                new ReadMoreTool(originals, stats), new DescribeToolTool(this::metadata, json),
                new SurfacingFeedbackTool(stats, surfacer), new CompressionFeedbackTool(stats)));
        if (settings.advertiseAdmin()) tools.add(new AdminTool(adminActions()));
        if (settings.formation()) tools.add(new MemoryProposeTool(proposals));
        return tools;
    }

    /**
     * The full metadata of a tool the agent can list, by its listed name: the description it is listed
     * with before the length cap (the override where one is set, as memtomem-stm's describe_tool), the
     * schema as listed, and the upstream's own description only where an override replaced it and
     * proxy.json's {@code recover_upstream_description} allows handing it back.
     */
    private Optional<DescribeToolTool.Metadata> metadata(String name) {
        Optional<ExposedTool> proxied = exposure.find(name);
        if (proxied.isPresent()) {
            ExposedTool t = proxied.get();
            UpstreamConnection u = upstream(t.server());
            String override = u == null ? null : u.config().overrideFor(t.upstream().name()).descriptionOverride();
            String upstreamText = t.upstream().description() == null ? "" : t.upstream().description();
            return Optional.of(new DescribeToolTool.Metadata(name, override != null ? override : upstreamText,
                    t.exposed().inputSchema(), override != null && config.recoverUpstreamDescription() ? upstreamText : null));
        }
        return ownTools().stream().map(ToolHandler::definition).filter(d -> d.name().equals(name)).findFirst()
                .map(d -> new DescribeToolTool.Metadata(name, d.description() == null ? "" : d.description(), d.inputSchema(), null));
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
        return withReload(HealthReport.of(upstreams, exposure, surfacer.breakerState().name().toLowerCase(java.util.Locale.ROOT),
                cache.size(), originals.size()));
    }

    /** The report with a line on the last reload of proxy.json (a refused edit is what an operator must see). */
    private Report withReload(Report r) {
        Reload last = lastReload;
        if (last == null) return r;
        Map<String, Object> data = new LinkedHashMap<>(r.data());
        Map<String, Object> reload = new LinkedHashMap<>();
        reload.put("at", last.at().toString());
        reload.put("ok", last.refused() == null);
        reload.put("summary", last.summary());
        data.put("config_reload", reload);
        return new Report(r.text() + "Last proxy.json reload (" + last.at() + "): " + last.summary()
                + (last.refused() == null ? "" : "; still running the previous configuration") + "\n", data);
    }

    /**
     * {@link #health()} for the operator at a terminal: per upstream PASS or FAIL, the step a
     * failure stopped at and its full message, the time connecting took, each hidden tool and why.
     */
    public Report doctor() {
        return withReload(HealthReport.of(upstreams, exposure, surfacer.breakerState().name().toLowerCase(java.util.Locale.ROOT),
                cache.size(), originals.size(), true, settings.connectTimeout().toSeconds()));
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
        listeners.clear();
        updateListeners.clear();
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
