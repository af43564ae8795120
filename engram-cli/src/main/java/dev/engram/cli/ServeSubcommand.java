package dev.engram.cli;

import dev.engram.access.Access;
import dev.engram.access.Principals;
import dev.engram.engine.Engine;
import dev.engram.mcp.http.ServerStatus;
import dev.engram.spi.Embedder;

import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.profile.ToolProfile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "serve", mixinStandardHelpOptions = true, description = "Serve MCP over Streamable HTTP with bearer tokens.")
final class ServeSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--profile", paramLabel = "NAME", description = ConfigLoader.PROFILE_HELP)
    String profile;

    @Option(names = "--host", description = "Address to bind (default 127.0.0.1, or $ENGRAM_HTTP_HOST)")
    String host;

    @Option(names = "--port", description = "Port (default 56332, or $ENGRAM_HTTP_PORT; 0 picks a free one)")
    Integer port;

    @Option(names = "--tokens-file", paramLabel = "FILE",
            description = "Bearer tokens, one per line (# comments); adds to $ENGRAM_TOKENS")
    Path tokensFile;

    @Option(names = "--no-auth", description = "Accept requests without a token (loopback addresses only)")
    boolean noAuth;

    @Option(names = "--allowed-host", paramLabel = "HOST", description = "Extra accepted Host header (repeatable)")
    List<String> allowedHosts = new ArrayList<>();

    @Option(names = "--allowed-origin", paramLabel = "ORIGIN", description = "Extra accepted Origin, e.g. https://app.example (repeatable)")
    List<String> allowedOrigins = new ArrayList<>();

    @Option(names = "--rate-limit", paramLabel = "RPS",
            description = "Requests per second per token, or off (default 50, or $ENGRAM_RATE_LIMIT); over it: 429 with Retry-After")
    String rateLimit;

    @Option(names = "--rate-burst", paramLabel = "N",
            description = "Requests a token may send at once above the rate (default twice the rate: 100, or $ENGRAM_RATE_BURST)")
    Integer rateBurst;

    @Option(names = "--max-body", paramLabel = "SIZE",
            description = "Largest request body, e.g. 4MiB, 512KiB (default 4MiB, or $ENGRAM_MAX_BODY); larger: 413")
    String maxBody;

    @Option(names = "--redis", paramLabel = "URL",
            description = "Optional Redis shared by the replicas, e.g. redis://127.0.0.1:6379 (or $ENGRAM_REDIS): rate limits"
                    + " per token hold across replicas; without it, or while it is down, each replica limits on its own")
    String redis;

    @Option(names = "--redis-prefix", paramLabel = "PREFIX",
            description = "Prefix of Engram's Redis keys (default engram:, or $ENGRAM_REDIS_PREFIX)")
    String redisPrefix;

    @Option(names = "--shutdown-grace", paramLabel = "DURATION",
            description = "How long a stop waits for requests in flight, e.g. 10s (default 10s, or $ENGRAM_SHUTDOWN_GRACE)")
    String shutdownGrace;

    /** What /health and /metrics report, read from the raw engine; never throws. */
    static ServerStatus.Probe status(Main.OpenEngine opened) {
        return () -> {
            Embedder e = opened.embedder();
            String state = "none";
            String model = null;
            try {
                if (e != null) {
                    state = e.ready() ? "ready" : "loading";
                    model = e.modelId();
                }
            } catch (RuntimeException ex) {
                state = "failed";
            }
            try {
                Engine raw = opened.engine();
                return new ServerStatus(null, raw.memoryCount(), raw.indexLag(), state, model);
            } catch (RuntimeException ex) {
                // in words, as a tool says it: no class name reaches an operator's dashboard
                return new ServerStatus(ex instanceof dev.engram.error.StoreUnavailableException
                        ? "the store is unreachable; the server reconnects on its own" : "the store did not answer a probe", -1, -1, state, model);
            }
        };
    }

    @Override
    public Integer call() throws Exception {
        Main main = root.main();
        root.textOnly("serve", "it serves MCP over HTTP and logs to stderr");
        EngramConfig config = root.config();
        String profileName = main.configLoader().profile(profile, main.profiles());
        // flags first; whether a server without configured tokens has callers depends on the store's principals
        HttpServerSettings flags = main.configLoader().http(host, port, tokensFile, noAuth, allowedHosts, allowedOrigins, true);
        dev.engram.mcp.http.ServerLimits limits = main.configLoader().limits(rateLimit, rateBurst, maxBody, shutdownGrace);
        dev.engram.mcp.http.RedisLink redisLink = main.configLoader().redis(redis, redisPrefix);
        main.configLoader().maintenanceInterval(dev.engram.engine.lifecycle.LifecyclePolicy.forProfile(profileName));
        Main.OpenEngine opened;
        try {
            opened = main.openServerEngine(config, Main.Embedding.CONFIGURED);
        } catch (RuntimeException e) {
            // without a token and without a store to find principals in, the missing token is the thing to fix first;
            // not on PostgreSQL, where the principals live in the store that failed: its failure is what to fix
            if (!flags.noAuth() && flags.tokens().isEmpty() && !config.store().postgres()) {
                main.configLoader().http(host, port, tokensFile, noAuth, allowedHosts, allowedOrigins, false);
            }
            throw e;
        }
        McpHttpServer server;
        HttpServerSettings settings;
        try {
            Engine raw = opened.engine();
            Principals principals = raw.principals();
            settings = main.configLoader().http(host, port, tokensFile, noAuth, allowedHosts, allowedOrigins,
                    !principals.list().isEmpty()).withLimits(limits);
            // every call's store and index access is seen through its caller's rights (docs/architecture.md#tenancy);
            // background work (embedding backfill) keeps the raw engine
            Engine guarded = raw.guarded(Access::current);
            ToolProfile served = main.profile(profileName, config, () -> guarded);
            server = McpHttpServer.builder(settings, served, Main.version(), main.json().mapper())
                    .variants(Main.variants(profileName, served)).principals(principals).status(status(opened)).redis(redisLink)
                    // Memento's POST /session/rotate: the session_rotate tool's rotation for a client outside a tool call
                    .sessionRotateRoute(profileName.equals(dev.engram.mcp.profile.memento.MementoProfile.NAME))
                    .viewer(new dev.engram.mcp.viewer.ViewerApi(guarded, config.defaultZone()))
                    .export(dev.engram.mcp.http.ExportSource.of(guarded,
                            new dev.engram.mcp.json.ExportCodec(main.renderers().structured(), main.json())))
                    .start();
        } catch (Exception e) {
            opened.close();
            if (redisLink != null) redisLink.close();
            throw e;
        }
        AutoCloseable schedule = main.startMaintenance(profileName, opened.engine());
        main.err().println("engram " + Main.version() + " serving MCP (profile " + profileName + ") at " + server.endpoint()
                + (settings.noAuth() ? " without auth" : " (bearer tokens: " + settings.tokens().size()
                + (settings.principals() ? ", and the store's principals" : "") + ")")
                + "; graph viewer at " + server.endpoint().resolve(dev.engram.mcp.viewer.ViewerServlet.MOUNT + "/")
                + (settings.noAuth() ? "" : " (open it with #token=<token> after the URL)")
                + (redisLink == null ? "" : "; rate limits shared through " + redisLink.shown()));
        if (!HttpServerSettings.isLoopback(settings.host()) && settings.allowedHosts().isEmpty()) {
            // DNS-rebinding protection accepts only known Host headers: remote clients need theirs listed
            main.err().println("note: remote clients must reach this server by a name given with --allowed-host"
                    + " (e.g. --allowed-host mem.example.com); other Host headers are refused");
        }
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable stop = () -> {
            if (!stopped.compareAndSet(false, true)) return;
            // new requests get 503 at once, those in flight finish (up to the grace period), then the store closes
            server.close();
            try {
                schedule.close();
            } catch (Exception e) {
                main.err().println("stopping the maintenance schedule failed: " + e);
            }
            opened.close();
            if (redisLink != null) redisLink.close();
            main.err().println("engram serve stopped");
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "engram-shutdown"));
        StopSignal.onTerminate(stop);
        server.join();
        // reached only when a shutdown hook stopped the server: exiting again would block
        return Main.SERVING;
    }
}
