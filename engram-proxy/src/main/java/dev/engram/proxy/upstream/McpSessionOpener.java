package dev.engram.proxy.upstream;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens real upstream sessions with the SDK client: stdio children in a clean environment, or
 * Streamable HTTP or HTTP+SSE with the configured headers. Upstream stderr goes to our stderr, prefixed.
 */
public final class McpSessionOpener implements UpstreamSession.Opener, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(McpSessionOpener.class);

    private final McpJsonMapper mapper;
    private final Map<String, String> parentEnv;
    private final String version;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final ProgressRelay progress;
    private final ExecutorService calls = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "engram-proxy-call");
        t.setDaemon(true);
        return t;
    });
    // spawns are serialized so the one new child of this JVM is the upstream just started
    private final Object spawnLock = new Object();

    public McpSessionOpener(McpJsonMapper mapper, Map<String, String> parentEnv, String version,
                            Duration connectTimeout, Duration requestTimeout, ProgressRelay progress) {
        this.progress = progress;
        this.mapper = mapper;
        this.parentEnv = Map.copyOf(parentEnv);
        this.version = version;
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
    }

    @Override
    public UpstreamSession open(UpstreamConfig config) {
        ListChanges changes = new ListChanges();
        ResourceUpdates updates = new ResourceUpdates();
        if (config.transport() instanceof UpstreamTransport.Stdio stdio) {
            CompletableFuture<McpSyncClient> starting;
            ProcessHandle child;
            TrackedTransport transport;
            // held only until the new child exists, so upstreams still initialize in parallel
            synchronized (spawnLock) {
                Set<Long> before = childPids();
                StderrTail tail = new StderrTail();
                transport = new TrackedTransport(stdioTransport(config.name(), stdio, tail));
                starting = CompletableFuture.supplyAsync(() -> {
                    try {
                        return initialized(config, transport, changes, updates);
                    } catch (UpstreamException e) {
                        throw tail.appendTo(e);
                    }
                }, calls);
                child = awaitNewChild(before, starting);
            }
            McpSyncClient client;
            try {
                client = starting.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) throw cause;
                throw e;
            }
            return new McpUpstreamSession(config.name(), client, child, null, calls, changes, updates, transport);
        }
        if (config.transport() instanceof UpstreamTransport.Sse sse) {
            SseStreamWatch watch = new SseStreamWatch();
            TrackedTransport transport = new TrackedTransport(sseTransport(sse, watch));
            CompletableFuture<McpSyncClient> starting = CompletableFuture.supplyAsync(
                    () -> initialized(config, transport, changes, updates), calls);
            // a refused or rejected event stream ends the start at once; the SDK alone would wait out the connect timeout
            try {
                CompletableFuture.anyOf(starting, watch.ended()).join();
            } catch (CompletionException e) {
                // starting failed: reported below
            }
            if (!starting.isDone() || (starting.isCompletedExceptionally() && watch.ended().isDone())) {
                // the stream's end came first (or explains the failure better: "HTTP 401 (check its headers …)")
                starting.whenComplete((c, e) -> {
                    if (c != null) c.close(); // it gives up on its own at the connect timeout; closed then
                });
                throw new UpstreamException("upstream '" + config.name() + "' did not start: " + watch.ended().join());
            }
            McpSyncClient client;
            try {
                client = starting.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) throw cause;
                throw e;
            }
            return new McpUpstreamSession(config.name(), client, null, watch.ended(), calls, changes, updates, transport);
        }
        UpstreamTransport.Http http = (UpstreamTransport.Http) config.transport();
        TrackedTransport transport = new TrackedTransport(httpTransport(http));
        return new McpUpstreamSession(config.name(), initialized(config, transport, changes, updates), null, null, calls, changes,
                updates, transport);
    }

    /**
     * The SDK's HTTP+SSE client on the configured URL: its path is the event stream (the SDK's
     * default {@code /sse} when the URL has none), the server names the message endpoint in its first
     * event. The HTTP client reports the stream's end to {@code watch}.
     */
    private HttpClientSseClientTransport sseTransport(UpstreamTransport.Sse sse, SseStreamWatch watch) {
        URI uri = URI.create(sse.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/sse" : uri.getRawPath();
        if (uri.getRawQuery() != null) path += "?" + uri.getRawQuery();
        return HttpClientSseClientTransport.builder(base).sseEndpoint(path).jsonMapper(mapper)
                .clientBuilder(watch.clientBuilder())
                .connectTimeout(connectTimeout)
                .httpRequestCustomizer((builder, method, u, body, ctx) -> sse.headers().forEach(builder::header))
                .build();
    }

    private McpSyncClient initialized(UpstreamConfig config, McpClientTransport transport, ListChanges changes,
                                      ResourceUpdates updates) {
        // the SDK re-lists on each list_changed before it calls these; the proxy re-lists itself, on its own thread
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(Implementation.builder("engram-proxy", version).build())
                .requestTimeout(requestTimeout).initializationTimeout(connectTimeout)
                .toolsChangeConsumer(tools -> changes.changed(ListKind.TOOLS))
                .resourcesChangeConsumer(resources -> changes.changed(ListKind.RESOURCES))
                .promptsChangeConsumer(prompts -> changes.changed(ListKind.PROMPTS))
                // the SDK reads the updated resource before it calls this (it gives contents, not the URI);
                // the contents carry the URI, which is all the agent is told: it reads again if it wants to
                .resourcesUpdateConsumer(contents -> contents.stream().map(c -> c.uri()).distinct().forEach(updates::updated))
                .progressConsumer(progress).build();
        try {
            client.initialize();
            return client;
        } catch (RuntimeException e) {
            client.close();
            String why = rootMessage(e);
            // reactor's timeout reads "Did not observe any item or terminal signal within 30000ms in 'map'"
            if (why.contains("Did not observe any item")) {
                why = " (it did not answer initialize within " + connectTimeout.toSeconds() + " s)";
            }
            throw new UpstreamException("upstream '" + config.name() + "' did not start" + (why.isEmpty() ? "" : ":" + why), e);
        }
    }

    private McpClientTransport stdioTransport(String name, UpstreamTransport.Stdio stdio, StderrTail tail) {
        Map<String, String> env = CleanEnvironment.of(parentEnv, stdio.passEnv());
        List<String> command = new ArrayList<>();
        command.add("env");
        command.addAll(CleanEnvironment.wrap(env, stdio.command(), stdio.args()));
        return new GuardedStdioClientTransport(name, command, mapper,
                line -> {
                    tail.add(line);
                    log.debug("[upstream {} stderr] {}", name, line);
                }, GuardedStdioClientTransport.MAX_LINE_BYTES);
    }

    private HttpClientStreamableHttpTransport httpTransport(UpstreamTransport.Http http) {
        URI uri = URI.create(http.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/mcp" : uri.getRawPath();
        return HttpClientStreamableHttpTransport.builder(base).endpoint(path).jsonMapper(mapper)
                .connectTimeout(connectTimeout)
                .httpRequestCustomizer((builder, method, u, body, ctx) -> http.headers().forEach(builder::header))
                .build();
    }

    /** The child process that appeared since {@code before}; null if starting ended (or timed out) without one. */
    private ProcessHandle awaitNewChild(Set<Long> before, CompletableFuture<?> starting) {
        long deadline = System.nanoTime() + connectTimeout.toNanos();
        while (System.nanoTime() < deadline) {
            var found = ProcessHandle.current().children().filter(p -> !before.contains(p.pid())).findFirst();
            if (found.isPresent()) return found.get();
            if (starting.isDone()) return null;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return null;
    }

    private static Set<Long> childPids() {
        Set<Long> pids = new HashSet<>();
        ProcessHandle.current().children().forEach(p -> pids.add(p.pid()));
        return pids;
    }

    /** The deepest cause's message; its class name when it has none (a refused connection often has none). */
    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage();
        if (m == null || m.isBlank()) return root == e ? "" : " (" + root.getClass().getSimpleName() + ")";
        return " (" + TextCut.clip(m, 200) + ")";
    }

    /**
     * The last lines a starting child wrote to stderr: a server that dies at start usually says why
     * there ("env: 'x': No such file or directory", a missing token), so a failed start carries them.
     */
    private static final class StderrTail {
        private static final int LINES = 5;
        private static final int LINE_CHARS = 200;
        private final java.util.ArrayDeque<String> lines = new java.util.ArrayDeque<>();

        synchronized void add(String line) {
            String l = line.strip();
            if (l.isEmpty()) return;
            // the message reaches the agent too (a call to a server that is down): no tokens in it
            if (CredentialPatterns.find(l).isPresent()) l = "[a line that looks like it holds a credential, not shown]";
            if (lines.size() == LINES) lines.removeFirst();
            lines.addLast(TextCut.clip(l, LINE_CHARS));
        }

        UpstreamException appendTo(UpstreamException e) {
            // the stderr reader may still be draining the dead child's last lines
            for (int i = 0; i < 20 && isEmpty(); i++) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            synchronized (this) {
                if (lines.isEmpty()) return e;
                return new UpstreamException(e.getMessage() + "; its stderr ended with: " + String.join(" | ", lines), e);
            }
        }

        private synchronized boolean isEmpty() {
            return lines.isEmpty();
        }
    }

    @Override
    public void close() {
        calls.shutdownNow();
    }
}
