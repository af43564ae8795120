package dev.engram.proxy.upstream;

import dev.engram.proxy.config.UpstreamConfig;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One upstream server and its reconnection policy. A call on a dead session fails with a clear
 * {@link UpstreamException} (the call in flight is never silently re-sent: it may have had side
 * effects); the next call reconnects. Failed reconnects back off exponentially, 1 s doubling to
 * 30 s (memtomem-stm's reconnect_delay / max_reconnect_delay), so a broken server is not respawned
 * on every call. Thread-safe: connection state is guarded by {@code this}; calls run outside it.
 */
public final class UpstreamConnection implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(UpstreamConnection.class);
    public static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** The steps of a connect, as {@link Status#failedStep} names them. */
    public static final String STEP_START = "start and initialize";
    public static final String STEP_LIST = "tools/list";

    /** Re-lists after a list_changed and tells the runtime: never on a client's own thread, never under a lock. */
    private static final java.util.concurrent.ExecutorService REFRESH = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "engram-proxy-relist");
        t.setDaemon(true);
        return t;
    });

    // replaced in place by a reload that keeps the transport (overrides, budgets, prefix)
    private volatile UpstreamConfig config;
    private volatile Runnable onChange = () -> { };
    private volatile java.util.function.Consumer<String> onResourceUpdated = uri -> { };
    // the agent's subscriptions to this upstream's resources (upstream URIs): made again on every new session
    private final java.util.Set<String> subscriptions = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final UpstreamSession.Opener opener;
    private final Clock clock;
    private final Duration callTimeout;
    // connection state, guarded by this
    private UpstreamSession session;
    private List<Tool> tools = List.of();
    private List<Resource> resources = List.of();
    private List<ResourceTemplate> templates = List.of();
    private List<Prompt> prompts = List.of();
    private boolean closed;
    // the connect attempt running now, or null; others wait for it
    private CompletableFuture<Boolean> connecting;
    // calls running on each session, so a session retired after a timeout closes once its last call ends
    private final Map<UpstreamSession, Integer> running = new java.util.IdentityHashMap<>();
    private final java.util.Set<UpstreamSession> retired = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    private int failedAttempts;
    private Instant nextAttempt = Instant.MIN;
    private String lastError;
    // which step the last failed connect stopped at, and how long the last connect took: for doctor
    private String failedStep;
    private long connectMillis = -1;
    private long reconnects;

    public UpstreamConnection(UpstreamConfig config, UpstreamSession.Opener opener, Clock clock, Duration callTimeout) {
        this.config = config;
        this.opener = opener;
        this.clock = clock;
        this.callTimeout = callTimeout;
    }

    public UpstreamConfig config() {
        return config;
    }

    /**
     * Takes {@code changed} (same name and transport) without restarting the server: overrides,
     * budgets, prefix and exclusions apply from the next listing and call.
     */
    public void reconfigure(UpstreamConfig changed) {
        if (!changed.name().equals(config.name()) || !changed.transport().equals(config.transport())) {
            throw new IllegalArgumentException("reconfigure keeps name and transport; a new transport needs a new connection");
        }
        config = changed;
    }

    /** Runs (on a background thread) whenever what this upstream lists may have changed: a reconnect, a list_changed. */
    public void onChange(Runnable listener) {
        onChange = listener;
    }

    /**
     * Connects if not connected and the backoff allows; returns whether a live session exists. The
     * upstream is started and initialized outside this object's lock, so status, health and the tool
     * lists answer at once while a slow server starts; a caller that comes while another connects
     * waits for that attempt instead of starting a second server.
     */
    public boolean connect() {
        CompletableFuture<Boolean> attempt;
        boolean replacing = false;
        boolean mine = false;
        synchronized (this) {
            if (closed) return false;
            if (session != null && session.alive()) return true;
            if (connecting == null) {
                // a session that ended on its own (process exited, event stream closed) is replaced: a reconnect too
                replacing = session != null;
                dropSession();
                if (clock.instant().isBefore(nextAttempt)) return false;
                connecting = new CompletableFuture<>();
                mine = true;
            }
            attempt = connecting;
        }
        if (mine) return open(attempt, replacing);
        try {
            return attempt.join();
        } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
            return false;
        }
    }

    /** One connect attempt, the lock not held while the server starts; completes {@code attempt} with its outcome. */
    private boolean open(CompletableFuture<Boolean> attempt, boolean replacing) {
        boolean ok = false;
        try {
            ok = openSession(replacing);
            return ok;
        } finally {
            synchronized (this) {
                connecting = null;
            }
            attempt.complete(ok);
        }
    }

    private boolean openSession(boolean replacing) {
        Instant now = clock.instant();
        long started = System.nanoTime();
        String step = STEP_START;
        UpstreamSession s = null;
        try {
            s = opener.open(config);
            step = STEP_LIST;
            List<Tool> listed = List.copyOf(s.listTools());
            // resources and prompts are extras: an upstream that fails to list them still serves its tools
            List<Resource> r = s.servesResources() ? quietly(s::listResources, "resources/list") : List.of();
            List<ResourceTemplate> t = s.servesResources() ? quietly(s::listResourceTemplates, "resources/templates/list") : List.of();
            List<Prompt> p = s.servesPrompts() ? quietly(s::listPrompts, "prompts/list") : List.of();
            synchronized (this) {
                if (closed) {
                    s.close(); // closed (removed by a reload, or shutting down) while it started
                    return false;
                }
                tools = listed;
                resources = r;
                templates = t;
                prompts = p;
                session = s;
                failedStep = null;
                connectMillis = (System.nanoTime() - started) / 1_000_000;
                if (replacing || failedAttempts > 0 || lastError != null) reconnects++;
                failedAttempts = 0;
                nextAttempt = Instant.MIN;
                lastError = null;
            }
            UpstreamSession opened = s;
            s.onListChanged(kind -> REFRESH.execute(() -> relist(opened, kind)));
            s.onResourceUpdated(uri -> {
                if (subscriptions.contains(uri)) onResourceUpdated.accept(uri);
            });
            if (!subscriptions.isEmpty()) REFRESH.execute(() -> resubscribe(opened));
            changed();
            return true;
        } catch (RuntimeException e) {
            if (s != null) s.close();
            Duration wait;
            synchronized (this) {
                failedAttempts++;
                long factor = 1L << Math.min(failedAttempts - 1, 10);
                wait = FIRST_BACKOFF.multipliedBy(factor);
                if (wait.compareTo(MAX_BACKOFF) > 0) wait = MAX_BACKOFF;
                nextAttempt = now.plus(wait);
                lastError = e.getMessage();
                failedStep = step;
                connectMillis = (System.nanoTime() - started) / 1_000_000;
            }
            log.warn("upstream={} connect failed (attempt {}), next try in {} s: {}", config.name(), failedAttempts,
                    wait.toSeconds(), e.getMessage());
            changed(); // health and the exposure show the failure
            return false;
        }
    }

    /** Whether a connect attempt is running now (the server is starting or initializing). */
    public synchronized boolean connecting() {
        return connecting != null;
    }

    public synchronized boolean connected() {
        return session != null && session.alive();
    }

    /** Tools discovered at the last successful connect or list_changed (empty if it never connected). */
    public synchronized List<Tool> tools() {
        return tools;
    }

    public synchronized List<Resource> resources() {
        return resources;
    }

    public synchronized List<ResourceTemplate> resourceTemplates() {
        return templates;
    }

    public synchronized List<Prompt> prompts() {
        return prompts;
    }

    /**
     * After the upstream's {@code notifications/<kind>/list_changed}: lists that kind again (outside
     * the lock: calls go on meanwhile) and keeps it if the session is still the current one.
     */
    void relist(UpstreamSession s, ListKind kind) {
        try {
            switch (kind) {
                case TOOLS -> {
                    List<Tool> now = List.copyOf(s.listTools());
                    synchronized (this) {
                        if (session != s) return;
                        tools = now;
                    }
                }
                case RESOURCES -> {
                    List<Resource> r = quietly(s::listResources, "resources/list");
                    List<ResourceTemplate> t = quietly(s::listResourceTemplates, "resources/templates/list");
                    synchronized (this) {
                        if (session != s) return;
                        resources = r;
                        templates = t;
                    }
                }
                case PROMPTS -> {
                    List<Prompt> p = quietly(s::listPrompts, "prompts/list");
                    synchronized (this) {
                        if (session != s) return;
                        prompts = p;
                    }
                }
            }
            log.info("upstream={} changed its {}; listed again", config.name(), kind.name().toLowerCase(java.util.Locale.ROOT));
        } catch (RuntimeException e) {
            log.warn("upstream={} announced new {} but listing them failed: {}", config.name(),
                    kind.name().toLowerCase(java.util.Locale.ROOT), e.getMessage());
            return;
        }
        changed();
    }

    private <T> List<T> quietly(java.util.function.Supplier<List<T>> list, String what) {
        try {
            return List.copyOf(list.get());
        } catch (RuntimeException e) {
            log.warn("upstream={} {} failed; none are proxied: {}", config.name(), what, e.getMessage());
            return List.of();
        }
    }

    private void changed() {
        Runnable l = onChange;
        REFRESH.execute(() -> {
            try {
                l.run();
            } catch (RuntimeException e) {
                log.warn("upstream={} change could not be applied: {}", config.name(), e.getMessage(), e);
            }
        });
    }

    /** {@code listener} hears the upstream URI of each update of a resource the agent subscribed to (on a client thread). */
    public void onResourceUpdated(java.util.function.Consumer<String> listener) {
        onResourceUpdated = listener;
    }

    /**
     * The agent subscribes to the upstream resource {@code uri}: the subscription is remembered (a restarted
     * server gets it again) and sent now when the upstream is connected and offers subscriptions. Returns
     * false when the upstream does not offer them (nothing is sent; updates will not come); throws
     * {@link UpstreamException} when the upstream refuses or fails.
     */
    public boolean subscribe(String uri) {
        subscriptions.add(uri);
        boolean[] sent = {false};
        try {
            return onSession(s -> {
                if (!s.subscribesResources()) return false;
                sent[0] = true;
                s.subscribe(uri, callTimeout);
                return true;
            }, "request");
        } catch (UpstreamException e) {
            // refused or failed upstream: forgotten; not connected: kept, made when the server is back
            if (sent[0]) subscriptions.remove(uri);
            throw e;
        }
    }

    /** The agent ends its subscription to {@code uri}; sent upstream when it is connected and offers subscriptions. */
    public void unsubscribe(String uri) {
        if (!subscriptions.remove(uri)) return;
        UpstreamSession s;
        synchronized (this) {
            s = session != null && session.alive() ? session : null;
        }
        // a session that is gone has forgotten the subscription with it; no new one is started for this
        if (s == null || !s.subscribesResources()) return;
        try {
            s.unsubscribe(uri, callTimeout);
        } catch (UpstreamException e) {
            if (e.sessionBroken()) markDead(s, e.getMessage());
            throw e;
        }
    }

    /** Takes over the subscriptions of the connection this one replaces (a restart with a new transport): made on connect. */
    public void adoptSubscriptions(java.util.Set<String> uris) {
        subscriptions.addAll(uris);
    }

    /** The upstream URIs the agent is subscribed to now. */
    public java.util.Set<String> subscriptions() {
        return java.util.Set.copyOf(subscriptions);
    }

    /** A new session knows nothing of the old one's subscriptions: each is made again, a failure only logged. */
    private void resubscribe(UpstreamSession s) {
        if (!s.subscribesResources()) return;
        for (String uri : subscriptions) {
            try {
                s.subscribe(uri, callTimeout);
            } catch (RuntimeException e) {
                log.warn("upstream={} did not take the subscription to {} again after reconnecting: {}", config.name(), uri,
                        e.getMessage());
            }
        }
    }

    /** Reads the upstream resource {@code uri}; throws {@link UpstreamException} as {@link #call} does. */
    public ReadResourceResult readResource(String uri) {
        return onSession(s -> s.readResource(uri, callTimeout), "request");
    }

    /** Gets the upstream prompt {@code name}; throws {@link UpstreamException} as {@link #call} does. */
    public GetPromptResult getPrompt(String name, Map<String, Object> arguments) {
        return onSession(s -> s.getPrompt(name, arguments, callTimeout), "request");
    }

    public synchronized Status status() {
        return new Status(config.name(), connected(), connecting != null, tools.size(), failedAttempts, reconnects, lastError,
                failedStep, connectMillis);
    }

    /** Calls {@code tool} upstream; throws {@link UpstreamException} with an agent-readable reason. */
    public CallToolResult call(String tool, Map<String, Object> arguments, Map<String, Object> meta) {
        return call(tool, arguments, meta, null);
    }

    /**
     * As {@link #call(String, Map, Map)}; when {@code cancelled} completes (the agent cancelled the call)
     * the request is cancelled upstream and the call fails with {@link UpstreamException.Kind#CANCELLED}.
     */
    public CallToolResult call(String tool, Map<String, Object> arguments, Map<String, Object> meta,
                               CompletableFuture<String> cancelled) {
        CallToolRequest request = CallToolRequest.builder(tool).arguments(arguments == null ? Map.of() : arguments).meta(meta).build();
        return onSession(s -> s.call(request, callTimeout, cancelled), "call");
    }

    /**
     * Runs one request on the live session (connecting first if needed). The session's fate follows
     * what went wrong: a broken connection is dropped at once (its process is gone, so are its other
     * calls); a timeout retires it: no new call is sent to it, the next call starts a fresh server, and
     * it is closed when its last call ends, so calls still running on it are not killed by another
     * call's timeout; an error answer or a cancel by the agent leaves it as it is.
     */
    private <T> T onSession(java.util.function.Function<UpstreamSession, T> request, String what) {
        UpstreamSession s = acquire();
        try {
            return request.apply(s);
        } catch (UpstreamException e) {
            switch (e.kind()) {
                case BROKEN -> {
                    markDead(s, e.getMessage());
                    throw new UpstreamException(e.getMessage() + "; the proxy restarts it on the next " + what, e);
                }
                case TIMED_OUT -> {
                    retire(s, e.getMessage());
                    throw new UpstreamException(e.getMessage() + "; the request was cancelled upstream, and the next " + what
                            + " starts the server again (calls still running on it may finish)", e, UpstreamException.Kind.TIMED_OUT);
                }
                default -> throw e;
            }
        } finally {
            release(s);
        }
    }

    /** The live session, connecting first if needed, with one more call counted on it. */
    private UpstreamSession acquire() {
        boolean up = connect();
        synchronized (this) {
            if (up && session != null) {
                running.merge(session, 1, Integer::sum);
                return session;
            }
            long waitS = Math.max(0, Duration.between(clock.instant(), nextAttempt).toSeconds());
            throw new UpstreamException("upstream '" + config.name() + "' is not connected"
                    + (lastError == null ? "" : " (" + lastError + ")") + "; next reconnect attempt in " + waitS
                    + " s (after " + failedAttempts + " failed attempt" + (failedAttempts == 1 ? "" : "s") + ")");
        }
    }

    /** One call on {@code s} ended; a retired session with no call left is closed. */
    private void release(UpstreamSession s) {
        boolean closeNow;
        synchronized (this) {
            Integer left = running.merge(s, -1, Integer::sum);
            if (left != null && left <= 0) running.remove(s);
            closeNow = (left == null || left <= 0) && retired.remove(s);
        }
        if (closeNow) closeApart(s);
    }

    /**
     * Sends no new call to {@code s}; it is closed once the calls running on it have ended (the
     * calling request still counts itself, so its {@link #release} closes it when it was the last).
     */
    private synchronized void retire(UpstreamSession s, String reason) {
        if (session != s) return; // already replaced (it crashed, or another timeout retired it)
        log.warn("upstream={} timed out, retired: the next call starts it again: {}", config.name(), reason);
        session = null;
        lastError = reason;
        nextAttempt = Instant.MIN;
        retired.add(s);
    }

    private synchronized void markDead(UpstreamSession dead, String reason) {
        if (session != dead) return; // another thread already replaced it
        log.warn("upstream={} failed during a call, will reconnect: {}", config.name(), reason);
        lastError = reason;
        dropSession();
        nextAttempt = Instant.MIN; // the first reconnect is immediate; only failed reconnects back off
    }

    private void dropSession() {
        if (session == null) return;
        UpstreamSession old = session;
        session = null;
        retired.remove(old);
        closeApart(old);
    }

    /** A dead stdio client can take seconds to close: not on the caller's time. */
    private void closeApart(UpstreamSession old) {
        Thread closer = new Thread(old::close, "engram-proxy-close-" + config.name());
        closer.setDaemon(true);
        closer.start();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (session != null) {
            session.close();
            session = null;
        }
        for (UpstreamSession r : retired) r.close();
        retired.clear();
    }

    /**
     * What {@code proxy_health} shows for one server. {@code connecting}: a connect attempt is running now
     * (the server is starting). {@code failedStep} is where the last failed
     * connect stopped ({@link #STEP_START} or {@link #STEP_LIST}), null after a success;
     * {@code connectMillis} is how long the last connect took, -1 before the first.
     */
    public record Status(String server, boolean connected, boolean connecting, int discoveredTools, int failedAttempts,
                         long reconnects, String lastError, String failedStep, long connectMillis) {
    }
}
