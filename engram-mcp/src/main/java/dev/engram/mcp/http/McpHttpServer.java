package dev.engram.mcp.http;

import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.server.EngramMcpServer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import dev.engram.mcp.server.CallNote;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over Streamable HTTP on Jetty 12 (EE10). Filter chain, outermost first: the response counter, the
 * request log line, error bodies rewritten to JSON-RPC (no stack traces), the shutdown gate (503 once
 * stopping), bearer auth (unless {@code noAuth}), the rate limit per caller (429), the session-id rotation (a
 * retired id is 404, {@link SessionRotationFilter}), the body check (size limit, 413, and the same message check as
 * stdio), then the SDK servlet with Host/Origin validation (and, when asked for, Memento's {@code POST /session/rotate}
 * on the same ledger, {@link SessionRotateServlet})
 * against DNS rebinding, which the SDK leaves off by default (gotcha 2). {@link #close()} stops
 * gracefully: new requests get 503 while those in flight finish, for at most the settings' grace period.
 */
public final class McpHttpServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpHttpServer.class);
    /** The default largest request body ({@link ServerLimits#DEFAULT_MAX_BODY_BYTES}). */
    public static final int MAX_BODY_BYTES = ServerLimits.DEFAULT_MAX_BODY_BYTES;
    /**
     * How long a keep-alive connection may sit idle before the server closes it (Jetty's default, stated). A client must
     * drop idle connections sooner: one the server closes as the client reuses it fails a POST the client cannot retry.
     */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    private final Server jetty;
    private final List<McpSyncServer> servers;
    private final URI endpoint;
    private final ShutdownGate gate;
    private final Duration grace;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private McpHttpServer(Server jetty, List<McpSyncServer> servers, URI endpoint, ShutdownGate gate, Duration grace) {
        this.jetty = jetty;
        this.servers = List.copyOf(servers);
        this.endpoint = endpoint;
        this.gate = gate;
        this.grace = grace;
    }

    /** A server for {@code profile}; the builder adds the optional parts. */
    public static Builder builder(HttpServerSettings settings, ToolProfile profile, String version, McpJsonMapper mapper) {
        return new Builder(settings, profile, version, mapper);
    }

    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper) throws Exception {
        return builder(settings, profile, version, mapper).start();
    }

    /** Serves {@code profile}, and each of {@code variants} to the requests whose header names it. */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, ProfileVariants variants, String version,
                                      McpJsonMapper mapper) throws Exception {
        return builder(settings, profile, version, mapper).variants(variants).start();
    }

    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper, dev.engram.access.Principals principals,
                                      ServerStatus.Probe status) throws Exception {
        return builder(settings, profile, version, mapper).principals(principals).status(status).start();
    }

    /**
     * @param variants   narrower faces of the profile a request header picks (Memento's modes), or none
     * @param principals the store's principals (tokens bound to zones), or null for none: then only the
     *                   settings' tokens work, each with every right
     * @param status     what {@code /health} and {@code /metrics} report
     */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, ProfileVariants variants, String version,
                                      McpJsonMapper mapper, dev.engram.access.Principals principals,
                                      ServerStatus.Probe status) throws Exception {
        return builder(settings, profile, version, mapper).variants(variants).principals(principals).status(status).start();
    }

    /** As above, with the graph viewer at {@code /ui} (null: none), its data behind the same auth as MCP. */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper, dev.engram.mcp.viewer.ViewerApi viewer) throws Exception {
        return builder(settings, profile, version, mapper).viewer(viewer).start();
    }

    /** Everything: variants, principals, the status /health and /metrics report, and the viewer (null: none). */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, ProfileVariants variants, String version,
                                      McpJsonMapper mapper, dev.engram.access.Principals principals,
                                      ServerStatus.Probe status, dev.engram.mcp.viewer.ViewerApi viewer) throws Exception {
        return builder(settings, profile, version, mapper).variants(variants).principals(principals).status(status)
                .viewer(viewer).start();
    }

    /** The parts of a server; only settings, profile, version and mapper are required. */
    public static final class Builder {
        private final HttpServerSettings settings;
        private final ToolProfile profile;
        private final String version;
        private final McpJsonMapper mapper;
        private ProfileVariants variants = ProfileVariants.NONE;
        private dev.engram.access.Principals principals;
        private ServerStatus.Probe status = ServerStatus.unknown();
        private dev.engram.mcp.viewer.ViewerApi viewer;
        private ExportSource export;
        private Consumer<String> requestLog;
        private LongSupplier nanoTime = System::nanoTime;
        private RedisLink redis;
        private boolean sessionRotateRoute;

        private Builder(HttpServerSettings settings, ToolProfile profile, String version, McpJsonMapper mapper) {
            this.settings = settings;
            this.profile = profile;
            this.version = version;
            this.mapper = mapper;
        }

        /** Narrower faces of the profile a request header picks (Memento's modes). */
        public Builder variants(ProfileVariants value) {
            variants = value;
            return this;
        }

        /** The store's principals (tokens bound to zones); without them only the settings' tokens work, each with every right. */
        public Builder principals(dev.engram.access.Principals value) {
            principals = value;
            return this;
        }

        /** What {@code /health} and {@code /metrics} report. */
        public Builder status(ServerStatus.Probe value) {
            status = value;
            return this;
        }

        /** The graph viewer at {@code /ui}, its data behind the same auth as MCP. */
        public Builder viewer(dev.engram.mcp.viewer.ViewerApi value) {
            viewer = value;
            return this;
        }

        /** {@code GET /export}, streamed with the caller's rights bound (for {@code engram export --remote}). */
        public Builder export(ExportSource value) {
            export = value;
            return this;
        }

        /** Where the request log lines go (default: the {@code engram.requests} logger at INFO). */
        public Builder requestLog(Consumer<String> value) {
            requestLog = value;
            return this;
        }

        /**
         * The optional Redis shared by the replicas: rate limits per caller hold across them, and {@code /health}
         * and {@code /metrics} report it. The server answers the same without it.
         */
        public Builder redis(RedisLink value) {
            redis = value;
            return this;
        }

        /**
         * Memento's {@code POST /session/rotate} beside the MCP endpoint ({@link SessionRotateServlet}): the same rotation
         * as the {@code session_rotate} tool, for a client outside a tool call. Off by default; on for {@code --profile memento}.
         */
        public Builder sessionRotateRoute(boolean value) {
            sessionRotateRoute = value;
            return this;
        }

        /** The rate limiter's clock (tests). */
        Builder nanoTime(LongSupplier value) {
            nanoTime = value;
            return this;
        }

        public McpHttpServer start() throws Exception {
            return McpHttpServer.start(this);
        }
    }

    /**
     * What every servlet context of one server shares: one count, one log, one limit, one gate and one ledger of rotated
     * session ids, whichever face answered.
     */
    private record Shared(HttpCounters counters, RequestLogFilter requestLog, RateLimitFilter rateLimit, ShutdownGate gate,
                          dev.engram.engine.session.SessionRotation rotation) {
    }

    private static CallerLimiter limiter(ServerLimits limits, Builder b) {
        RateLimiter local = new RateLimiter(limits.ratePerSecond(), limits.burst(), b.nanoTime);
        return b.redis == null ? local : new SharedRateLimiter(b.redis, limits.ratePerSecond(), limits.burst(), local);
    }

    private static McpHttpServer start(Builder b) throws Exception {
        HttpServerSettings settings = b.settings;
        if (b.sessionRotateRoute && SessionRotateServlet.PATH.equals(settings.path())) {
            throw new IllegalArgumentException("the MCP path " + settings.path() + " is the session rotation route; choose another path");
        }
        ServerLimits limits = settings.limits();
        List<McpSyncServer> servers = new ArrayList<>();
        HttpCounters counters = new HttpCounters();
        Shared shared = new Shared(counters,
                new RequestLogFilter(b.requestLog != null ? b.requestLog : RequestLogFilter.toLogger(), java.time.Clock.systemUTC()),
                limits.rateLimited() ? new RateLimitFilter(limiter(limits, b), limits, counters) : null,
                new ShutdownGate(settings.path()), new dev.engram.engine.session.SessionRotation());
        ProfileVariants variants = b.variants;
        Filter variantCheck = variants.profiles().isEmpty() ? null
                : new VariantHeaderFilter(variants.header(), variants.profiles().keySet());
        ServletContextHandler main = context(b, b.profile, servers, variantCheck, shared);
        Handler root = main;
        if (!variants.profiles().isEmpty()) {
            Map<String, Handler> byName = new LinkedHashMap<>();
            for (var v : variants.profiles().entrySet()) {
                byName.put(v.getKey(), context(b, v.getValue(), servers, null, shared));
            }
            root = new VariantRouter(variants.header(), main, byName);
        }

        Server jetty = new Server();
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false); // no version banner to fingerprint
        // Jetty caches header fields per connection and matches cached values case-insensitively:
        // after 'Bearer secret', the same keep-alive connection took 'Bearer SECRET' as that cached
        // field. Every request is judged on its own bytes: no cache, and case-sensitive if one is set.
        http.setHeaderCacheSize(0);
        http.setHeaderCacheCaseSensitive(true);
        ServerConnector connector = new ServerConnector(jetty, new HttpConnectionFactory(http));
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        connector.setHost(settings.host());
        connector.setPort(settings.port());
        jetty.addConnector(connector);
        jetty.setHandler(root);
        jetty.start();

        int port = connector.getLocalPort();
        String host = settings.host().contains(":") && !settings.host().startsWith("[")
                ? "[" + settings.host() + "]" : settings.host();
        URI endpoint = URI.create("http://" + host + ":" + port + settings.path());
        log.info("serving MCP at {} ({}{})", endpoint,
                settings.noAuth() ? "no auth, loopback only" : settings.tokens().size() + " bearer token(s)"
                        + (b.principals == null ? "" : " and the store's principals"),
                variants.profiles().isEmpty() ? "" : "; " + variants.header() + ": " + String.join(", ", variants.profiles().keySet()));
        return new McpHttpServer(jetty, servers, endpoint, shared.gate(), limits.shutdownGrace());
    }

    /**
     * One MCP server for {@code profile} and the servlet context that serves it, with the whole filter chain: every
     * variant is guarded exactly as the default face is.
     */
    private static ServletContextHandler context(Builder b, ToolProfile profile, List<McpSyncServer> servers,
                                                 Filter afterAuth, Shared shared) {
        HttpServerSettings settings = b.settings;
        boolean open = settings.noAuth();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                // errors said as over stdio (an unknown tool named, no Java class names): the mapper is the one hook
                .jsonMapper(dev.engram.mcp.jsonrpc.PlainErrorMapper.around(b.mapper))
                .mcpEndpoint(settings.path()).keepAliveInterval(Duration.ofSeconds(30))
                // the bearer filter's verdict rides with each request to the call (CallerRights); without
                // auth (loopback only) the one local caller has every right. The request's log note rides along
                // for the tool's outcome.
                .contextExtractor(req -> {
                    Object g = req.getAttribute(dev.engram.mcp.server.CallerRights.KEY);
                    Map<String, Object> ctx = new java.util.HashMap<>();
                    ctx.put(dev.engram.mcp.server.CallerRights.KEY,
                            g != null ? g : open ? dev.engram.access.Grants.FULL : dev.engram.access.Grants.NONE);
                    if (req.getAttribute(CallNote.KEY) instanceof CallNote note) ctx.put(CallNote.KEY, note);
                    // the request's session, which session_rotate can give a new id (SessionRotationFilter)
                    if (req.getAttribute(dev.engram.mcp.tool.TransportSession.KEY) instanceof dev.engram.mcp.tool.TransportSession t) {
                        ctx.put(dev.engram.mcp.tool.TransportSession.KEY, t);
                    }
                    return McpTransportContext.create(ctx);
                })
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(allowedHosts(settings)).allowedOrigins(allowedOrigins(settings)).build())
                .build();
        servers.add(EngramMcpServer.build(McpServer.sync(transport), profile, b.version));

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        context.setErrorHandler(errors);
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true); // SSE streams use startAsync (gotcha 14)
        context.addServlet(servlet, settings.path());
        context.addServlet(new ServletHolder("health", new HealthServlet(b.status, b.redis, b.mapper, open)), HealthServlet.PATH);
        context.addServlet(new ServletHolder("metrics", new MetricsServlet(b.status, b.redis, shared.counters(), open, shared.gate()::inFlight)), MetricsServlet.PATH);
        dev.engram.mcp.viewer.ViewerApi viewer = b.viewer;
        if (viewer != null) {
            context.addServlet(new ServletHolder("ui", new dev.engram.mcp.viewer.ViewerServlet(viewer,
                    new dev.engram.mcp.viewer.ViewerPage(new dev.engram.mcp.json.JsonText(b.mapper)),
                    new dev.engram.mcp.json.JsonText(b.mapper), allowedHosts(settings))), dev.engram.mcp.viewer.ViewerServlet.MOUNT + "/*");
        }
        if (b.export != null) context.addServlet(new ServletHolder("export", new ExportServlet(b.export)), ExportServlet.PATH);
        Set<String> ownBodies = Set.of();
        if (b.sessionRotateRoute) {
            // the same Host/Origin check as the SDK applies to the MCP endpoint, and the same ledger as session_rotate
            context.addServlet(new ServletHolder("session-rotate", new SessionRotateServlet(shared.rotation(),
                    DefaultServerTransportSecurityValidator.builder().allowedHosts(allowedHosts(settings))
                            .allowedOrigins(allowedOrigins(settings)).build(), new dev.engram.mcp.json.JsonText(b.mapper))),
                    SessionRotateServlet.PATH);
            ownBodies = Set.of(SessionRotateServlet.PATH);
        }
        addFilter(context, shared.counters());
        addFilter(context, shared.requestLog());
        addFilter(context, new JsonRpcErrorFilter(b.mapper, ownBodies));
        addFilter(context, shared.gate());
        if (!settings.noAuth()) {
            // the viewer's page shell (no memory in it) loads without a token; its api/ routes need one
            Filter auth = new BearerAuthFilter(new Authenticator(settings.tokens(), b.principals));
            addFilter(context, viewer == null ? auth : dev.engram.mcp.viewer.ViewerServlet.publicShell(auth));
        }
        if (shared.rateLimit() != null) addFilter(context, shared.rateLimit());
        if (afterAuth != null) addFilter(context, afterAuth);
        // after auth: a retired session id is news only to a caller with a token
        addFilter(context, new SessionRotationFilter(shared.rotation(), settings.path()));
        // the viewer's and the export's routes call the engine themselves: they run with the caller's rights bound, as tools do
        if (viewer != null || b.export != null) addFilter(context, new GrantsBindingFilter(open));
        addFilter(context, new JsonRpcBodyFilter(settings.limits().maxBodyBytes(), ownBodies));
        return context;
    }

    /** Every filter must support async, or the servlet's startAsync fails (gotcha 14). */
    private static void addFilter(ServletContextHandler context, Filter filter) {
        FilterHolder holder = new FilterHolder(filter);
        holder.setAsyncSupported(true);
        context.addFilter(holder, "/*", EnumSet.of(DispatcherType.REQUEST));
    }

    static List<String> allowedHosts(HttpServerSettings settings) {
        List<String> hosts = new ArrayList<>(List.of("127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*",
                "[::1]", "[::1]:*"));
        String bind = settings.host();
        if (!isWildcard(bind) && !HttpServerSettings.isLoopback(bind)) {
            String h = bind.contains(":") && !bind.startsWith("[") ? "[" + bind + "]" : bind;
            hosts.add(h);
            hosts.add(h + ":*");
        }
        for (String extra : settings.allowedHosts()) {
            hosts.add(extra);
            boolean hasPort = extra.startsWith("[") ? extra.contains("]:") : extra.contains(":");
            if (!hasPort) hosts.add(extra + ":*");
        }
        return hosts;
    }

    static List<String> allowedOrigins(HttpServerSettings settings) {
        List<String> origins = new ArrayList<>(List.of("http://127.0.0.1", "http://127.0.0.1:*",
                "http://localhost", "http://localhost:*", "http://[::1]", "http://[::1]:*"));
        origins.addAll(settings.allowedOrigins());
        return origins;
    }

    private static boolean isWildcard(String host) {
        try {
            return InetAddress.getByName(host).isAnyLocalAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public int port() {
        return endpoint.getPort();
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    /** Requests being answered now (event streams excepted). */
    public int inFlight() {
        return gate.inFlight();
    }

    /**
     * Stops gracefully: new requests get 503 at once, the ones in flight get up to the grace period to finish,
     * then the MCP sessions close and the listener stops. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) return;
        gate.close();
        try {
            if (!gate.awaitIdle(grace)) {
                log.warn("stopping with {} request(s) still in flight after {} s", gate.inFlight(), grace.toSeconds());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            servers.forEach(McpSyncServer::closeGracefully);
        } finally {
            try {
                jetty.stop();
            } catch (Exception e) {
                log.warn("stopping the HTTP server failed", e);
            }
        }
    }
}
