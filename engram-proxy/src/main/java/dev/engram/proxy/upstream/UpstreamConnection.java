package dev.engram.proxy.upstream;

import dev.engram.proxy.config.UpstreamConfig;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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

    private final UpstreamConfig config;
    private final UpstreamSession.Opener opener;
    private final Clock clock;
    private final Duration callTimeout;
    // connection state, guarded by this
    private UpstreamSession session;
    private List<Tool> tools = List.of();
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

    /** Connects if not connected and the backoff allows; returns whether a live session exists. */
    public synchronized boolean connect() {
        if (session != null && session.alive()) return true;
        // a session that ended on its own (process exited, event stream closed) is replaced: a reconnect too
        boolean replacing = session != null;
        dropSession();
        Instant now = clock.instant();
        if (now.isBefore(nextAttempt)) return false;
        long started = System.nanoTime();
        String step = STEP_START;
        try {
            UpstreamSession s = opener.open(config);
            step = STEP_LIST;
            try {
                tools = List.copyOf(s.listTools());
            } catch (RuntimeException e) {
                s.close();
                throw e;
            }
            session = s;
            failedStep = null;
            connectMillis = (System.nanoTime() - started) / 1_000_000;
            if (replacing || failedAttempts > 0 || lastError != null) reconnects++;
            failedAttempts = 0;
            nextAttempt = Instant.MIN;
            lastError = null;
            return true;
        } catch (RuntimeException e) {
            failedAttempts++;
            long factor = 1L << Math.min(failedAttempts - 1, 10);
            Duration wait = FIRST_BACKOFF.multipliedBy(factor);
            if (wait.compareTo(MAX_BACKOFF) > 0) wait = MAX_BACKOFF;
            nextAttempt = now.plus(wait);
            lastError = e.getMessage();
            failedStep = step;
            connectMillis = (System.nanoTime() - started) / 1_000_000;
            log.warn("upstream={} connect failed (attempt {}), next try in {} s: {}", config.name(), failedAttempts,
                    wait.toSeconds(), e.getMessage());
            return false;
        }
    }

    public synchronized boolean connected() {
        return session != null && session.alive();
    }

    /** Tools discovered at the last successful connect (empty if it never connected). */
    public synchronized List<Tool> tools() {
        return tools;
    }

    public synchronized Status status() {
        return new Status(config.name(), connected(), tools.size(), failedAttempts, reconnects, lastError, failedStep, connectMillis);
    }

    /** Calls {@code tool} upstream; throws {@link UpstreamException} with an agent-readable reason. */
    public CallToolResult call(String tool, Map<String, Object> arguments, Map<String, Object> meta) {
        UpstreamSession s = liveSession();
        try {
            return s.call(CallToolRequest.builder(tool).arguments(arguments == null ? Map.of() : arguments)
                    .meta(meta).build(), callTimeout);
        } catch (UpstreamException e) {
            if (!e.sessionBroken()) throw e;
            markDead(s, e.getMessage());
            throw new UpstreamException(e.getMessage() + "; the proxy restarts it on the next call", e);
        }
    }

    private synchronized UpstreamSession liveSession() {
        if (connect()) return session;
        long waitS = Math.max(0, Duration.between(clock.instant(), nextAttempt).toSeconds());
        throw new UpstreamException("upstream '" + config.name() + "' is not connected"
                + (lastError == null ? "" : " (" + lastError + ")") + "; next reconnect attempt in " + waitS
                + " s (after " + failedAttempts + " failed attempt" + (failedAttempts == 1 ? "" : "s") + ")");
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
        // a dead stdio client can take seconds to close: not on the caller's time
        Thread closer = new Thread(old::close, "engram-proxy-close-" + config.name());
        closer.setDaemon(true);
        closer.start();
    }

    @Override
    public synchronized void close() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    /**
     * What {@code proxy_health} shows for one server. {@code failedStep} is where the last failed
     * connect stopped ({@link #STEP_START} or {@link #STEP_LIST}), null after a success;
     * {@code connectMillis} is how long the last connect took, -1 before the first.
     */
    public record Status(String server, boolean connected, int discoveredTools, int failedAttempts, long reconnects,
                         String lastError, String failedStep, long connectMillis) {
    }
}
