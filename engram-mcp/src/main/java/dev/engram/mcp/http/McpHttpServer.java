package dev.engram.mcp.http;

import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.server.EngramMcpServer;
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
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ErrorHandler;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
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
    private final McpSyncServer mcp;
    private final URI endpoint;

    private McpHttpServer(Server jetty, McpSyncServer mcp, URI endpoint) {
        this.jetty = jetty;
        this.mcp = mcp;
        this.endpoint = endpoint;
    }

    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper) throws Exception {
        return start(settings, profile, version, mapper, null);
    }

    /** As above, with the graph viewer at {@code /ui} (null: none), its data behind the same auth as MCP. */
    public static McpHttpServer start(HttpServerSettings settings, ToolProfile profile, String version,
                                      McpJsonMapper mapper, dev.engram.mcp.viewer.ViewerApi viewer) throws Exception {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(mapper).mcpEndpoint(settings.path()).keepAliveInterval(Duration.ofSeconds(30))
                .securityValidator(DefaultServerTransportSecurityValidator.builder()
                        .allowedHosts(allowedHosts(settings)).allowedOrigins(allowedOrigins(settings)).build())
                .build();
        McpSyncServer mcp = EngramMcpServer.build(McpServer.sync(transport), profile, version);

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

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        context.setErrorHandler(errors);
        ServletHolder servlet = new ServletHolder("mcp", transport);
        servlet.setAsyncSupported(true); // SSE streams use startAsync (gotcha 14)
        context.addServlet(servlet, settings.path());
        if (viewer != null) {
            context.addServlet(new ServletHolder("ui", new dev.engram.mcp.viewer.ViewerServlet(viewer,
                    new dev.engram.mcp.viewer.ViewerPage(new dev.engram.mcp.json.JsonText(mapper)),
                    new dev.engram.mcp.json.JsonText(mapper), allowedHosts(settings))), dev.engram.mcp.viewer.ViewerServlet.MOUNT + "/*");
        }
        addFilter(context, new JsonRpcErrorFilter(mapper));
        if (!settings.noAuth()) {
            // the viewer's page shell (no memory in it) loads without a token; its api/ routes need one
            Filter auth = new BearerAuthFilter(settings.tokens());
            addFilter(context, viewer == null ? auth : dev.engram.mcp.viewer.ViewerServlet.publicShell(auth));
        }
        addFilter(context, new JsonRpcBodyFilter(MAX_BODY_BYTES));
        jetty.setHandler(context);
        jetty.start();

        int port = connector.getLocalPort();
        String host = settings.host().contains(":") && !settings.host().startsWith("[")
                ? "[" + settings.host() + "]" : settings.host();
        URI endpoint = URI.create("http://" + host + ":" + port + settings.path());
        log.info("serving MCP at {} ({})", endpoint,
                settings.noAuth() ? "no auth, loopback only" : settings.tokens().size() + " bearer token(s)");
        return new McpHttpServer(jetty, mcp, endpoint);
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
            mcp.closeGracefully();
        } finally {
            try {
                jetty.stop();
            } catch (Exception e) {
                log.warn("stopping the HTTP server failed", e);
            }
        }
    }
}
