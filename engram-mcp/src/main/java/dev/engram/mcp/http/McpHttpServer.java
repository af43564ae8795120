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
 * MCP over Streamable HTTP on Jetty 12 (EE10). Filter chain, outermost first: error bodies rewritten
 * to JSON-RPC (no stack traces), bearer auth (unless {@code noAuth}), the body check (size limit and
 * the same message check as stdio), then the SDK servlet with
 * Host/Origin validation against DNS rebinding, which the SDK leaves off by default (gotcha 2).
 */
public final class McpHttpServer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpHttpServer.class);
    /** Largest request body; a memory is at most 8,000 characters, so this leaves room for any batch. */
    public static final int MAX_BODY_BYTES = 4 * 1024 * 1024;

    private final Server jetty;
    private final List<McpSyncServer> servers;
    private final URI endpoint;

    private McpHttpServer(Server jetty, List<McpSyncServer> servers, URI endpoint) {
        this.jetty = jetty;
        this.servers = List.copyOf(servers);
        this.endpoint = endpoint;
    }

    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper) throws Exception {
        return start(settings, profile, ProfileVariants.NONE, version, mapper, null, ServerStatus.unknown());
    }

    /** Serves {@code profile}, and each of {@code variants} to the requests whose header names it. */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, ProfileVariants variants, String version,
                                      McpJsonMapper mapper) throws Exception {
        return start(settings, profile, variants, version, mapper, null, ServerStatus.unknown());
    }

    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper, dev.engram.access.Principals principals,
                                      ServerStatus.Probe status) throws Exception {
        return start(settings, profile, ProfileVariants.NONE, version, mapper, principals, status);
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
        return start(settings, profile, variants, version, mapper, principals, status, null);
    }

    /** As above, with the graph viewer at {@code /ui} (null: none), its data behind the same auth as MCP. */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper, dev.engram.mcp.viewer.ViewerApi viewer) throws Exception {
        return start(settings, profile, ProfileVariants.NONE, version, mapper, null, ServerStatus.unknown(), viewer);
    }

    /** Everything: variants, principals, the status /health and /metrics report, and the viewer (null: none). */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, ProfileVariants variants, String version,
                                      McpJsonMapper mapper, dev.engram.access.Principals principals,
                                      ServerStatus.Probe status, dev.engram.mcp.viewer.ViewerApi viewer) throws Exception {
        List<McpSyncServer> servers = new ArrayList<>();
        HttpCounters counters = new HttpCounters(); // one count for the whole server, whichever face answered
        Filter variantCheck = variants.profiles().isEmpty() ? null
                : new VariantHeaderFilter(variants.header(), variants.profiles().keySet());
        ServletContextHandler main = context(settings, profile, version, mapper, servers, variantCheck, principals, status, counters, viewer);
        Handler root = main;
        if (!variants.profiles().isEmpty()) {
            Map<String, Handler> byName = new LinkedHashMap<>();
            for (var v : variants.profiles().entrySet()) {
                byName.put(v.getKey(), context(settings, v.getValue(), version, mapper, servers, null, principals, status, counters, viewer));
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
                        + (principals == null ? "" : " and the store's principals"),
                variants.profiles().isEmpty() ? "" : "; " + variants.header() + ": " + String.join(", ", variants.profiles().keySet()));
        return new McpHttpServer(jetty, servers, endpoint);
    }

    /**
     * One MCP server for {@code profile} and the servlet context that serves it, with the whole filter chain: every
     * variant is guarded exactly as the default face is.
     */
    private static ServletContextHandler context(HttpServerSettings settings, ToolProfile profile, String version,
                                                 McpJsonMapper mapper, List<McpSyncServer> servers, Filter afterAuth,
                                                 dev.engram.access.Principals principals, ServerStatus.Probe status,
                                                 HttpCounters counters, dev.engram.mcp.viewer.ViewerApi viewer) {
        boolean open = settings.noAuth();
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(mapper).mcpEndpoint(settings.path()).keepAliveInterval(Duration.ofSeconds(30))
                // the bearer filter's verdict rides with each request to the call (CallerRights); without
                // auth (loopback only) the one local caller has every right
                .contextExtractor(req -> {
                    Object g = req.getAttribute(dev.engram.mcp.server.CallerRights.KEY);
                    return McpTransportContext.create(java.util.Map.of(dev.engram.mcp.server.CallerRights.KEY,
                            g != null ? g : open ? dev.engram.access.Grants.FULL : dev.engram.access.Grants.NONE));
                })
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(allowedHosts(settings)).allowedOrigins(allowedOrigins(settings)).build())
                .build();
        servers.add(EngramMcpServer.build(McpServer.sync(transport), profile, version));

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        context.setErrorHandler(errors);
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true); // SSE streams use startAsync (gotcha 14)
        context.addServlet(servlet, settings.path());
        context.addServlet(new ServletHolder("health", new HealthServlet(status, mapper, open)), HealthServlet.PATH);
        context.addServlet(new ServletHolder("metrics", new MetricsServlet(status, counters, open)), MetricsServlet.PATH);
        if (viewer != null) {
            context.addServlet(new ServletHolder("ui", new dev.engram.mcp.viewer.ViewerServlet(viewer,
                    new dev.engram.mcp.viewer.ViewerPage(new dev.engram.mcp.json.JsonText(mapper)),
                    new dev.engram.mcp.json.JsonText(mapper), allowedHosts(settings))), dev.engram.mcp.viewer.ViewerServlet.MOUNT + "/*");
        }
        addFilter(context, counters);
        addFilter(context, new JsonRpcErrorFilter(mapper));
        if (!settings.noAuth()) {
            // the viewer's page shell (no memory in it) loads without a token; its api/ routes need one
            Filter auth = new BearerAuthFilter(new Authenticator(settings.tokens(), principals));
            addFilter(context, viewer == null ? auth : dev.engram.mcp.viewer.ViewerServlet.publicShell(auth));
        }
        if (afterAuth != null) addFilter(context, afterAuth);
        // the viewer's data routes call the engine themselves: they run with the caller's rights bound, as tools do
        if (viewer != null) addFilter(context, new GrantsBindingFilter(open));
        addFilter(context, new JsonRpcBodyFilter(MAX_BODY_BYTES));
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

    @Override
    public void close() {
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
