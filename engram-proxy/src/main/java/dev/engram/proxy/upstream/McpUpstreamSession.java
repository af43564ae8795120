package dev.engram.proxy.upstream;

import dev.engram.analysis.TextCut;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.SubscribeRequest;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.UnsubscribeRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A session on the SDK's sync client. A call races the upstream process's exit (stdio) or the end of
 * its event stream (SSE): when an upstream dies mid-call the SDK would only notice at the request
 * timeout, so the caller would wait a minute for an error that is already certain.
 */
final class McpUpstreamSession implements UpstreamSession {
    /** How long an answer written just before the upstream exited may still take to arrive. */
    static final Duration EXIT_GRACE = Duration.ofMillis(750);

    private final String server;
    private final McpSyncClient client;
    private final ProcessHandle process; // null for HTTP upstreams
    // SSE upstreams: completes with the reason when the event stream ends (null for stdio and Streamable HTTP)
    private final CompletableFuture<String> streamEnded;
    private final ExecutorService calls;
    private final ListChanges changes;
    private final ResourceUpdates updates;
    // knows the id of each tools/call in flight, to cancel it upstream; null: cancels are not sent
    private final TrackedTransport requests;

    McpUpstreamSession(String server, McpSyncClient client, ProcessHandle process, ExecutorService calls) {
        this(server, client, process, null, calls, new ListChanges(), new ResourceUpdates(), null);
    }

    McpUpstreamSession(String server, McpSyncClient client, ProcessHandle process, CompletableFuture<String> streamEnded,
                       ExecutorService calls, ListChanges changes, ResourceUpdates updates, TrackedTransport requests) {
        this.requests = requests;
        this.server = server;
        this.client = client;
        this.process = process;
        this.streamEnded = streamEnded;
        this.calls = calls;
        this.changes = changes;
        this.updates = updates;
    }

    @Override
    public boolean servesResources() {
        return client.getServerCapabilities() != null && client.getServerCapabilities().resources() != null;
    }

    @Override
    public boolean servesPrompts() {
        return client.getServerCapabilities() != null && client.getServerCapabilities().prompts() != null;
    }

    @Override
    public List<Resource> listResources() {
        List<Resource> all = new ArrayList<>();
        String cursor = null;
        do {
            var page = cursor == null ? client.listResources() : client.listResources(cursor);
            all.addAll(page.resources());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    @Override
    public List<ResourceTemplate> listResourceTemplates() {
        List<ResourceTemplate> all = new ArrayList<>();
        String cursor = null;
        do {
            var page = cursor == null ? client.listResourceTemplates() : client.listResourceTemplates(cursor);
            all.addAll(page.resourceTemplates());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    @Override
    public List<Prompt> listPrompts() {
        List<Prompt> all = new ArrayList<>();
        String cursor = null;
        do {
            var page = cursor == null ? client.listPrompts() : client.listPrompts(cursor);
            all.addAll(page.prompts());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    @Override
    public ReadResourceResult readResource(String uri, Duration timeout) {
        return timed(() -> client.readResource(new ReadResourceRequest(uri)), timeout);
    }

    @Override
    public GetPromptResult getPrompt(String name, Map<String, Object> arguments, Duration timeout) {
        return timed(() -> client.getPrompt(new GetPromptRequest(name, arguments == null ? Map.of() : arguments)), timeout);
    }

    @Override
    public boolean subscribesResources() {
        var caps = client.getServerCapabilities();
        return caps != null && caps.resources() != null && Boolean.TRUE.equals(caps.resources().subscribe());
    }

    @Override
    public void subscribe(String uri, Duration timeout) {
        timed(() -> {
            client.subscribeResource(new SubscribeRequest(uri));
            return Boolean.TRUE;
        }, timeout);
    }

    @Override
    public void unsubscribe(String uri, Duration timeout) {
        timed(() -> {
            client.unsubscribeResource(new UnsubscribeRequest(uri));
            return Boolean.TRUE;
        }, timeout);
    }

    @Override
    public void onResourceUpdated(Consumer<String> listener) {
        updates.listen(listener);
    }

    @Override
    public void onListChanged(Consumer<ListKind> listener) {
        changes.listen(listener);
    }

    @Override
    public List<Tool> listTools() {
        List<Tool> all = new ArrayList<>();
        String cursor = null;
        do {
            var page = cursor == null ? client.listTools() : client.listTools(cursor);
            all.addAll(page.tools());
            cursor = page.nextCursor();
        } while (cursor != null && !cursor.isEmpty());
        return all;
    }

    @Override
    public CallToolResult call(CallToolRequest request, Duration timeout) {
        return call(request, timeout, null);
    }

    @Override
    public CallToolResult call(CallToolRequest request, Duration timeout, CompletableFuture<String> cancelled) {
        if (cancelled != null && cancelled.isDone()) {
            // cancelled before it was sent: nothing to tell the upstream
            throw new UpstreamException("the call to upstream '" + server + "' was cancelled by the agent", null,
                    UpstreamException.Kind.CANCELLED);
        }
        try {
            return timed(() -> client.callTool(request), timeout, request, cancelled);
        } finally {
            if (requests != null) requests.forget(request);
        }
    }

    /** Tells the upstream to stop working on the request sent with {@code params} (MCP's notifications/cancelled). */
    private void cancelUpstream(Object params, String reason) {
        if (requests != null && params != null && requests.cancel(params, reason)) {
            org.slf4j.LoggerFactory.getLogger(McpUpstreamSession.class).info("upstream={} was told to cancel a call: {}", server, reason);
        }
    }

    private boolean exitedWithin(Duration grace) {
        try {
            process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private <T> T timed(Supplier<T> request, Duration timeout) {
        return timed(request, timeout, null, null);
    }

    /**
     * One request to the upstream, raced against its end (process exit, event stream closed), the
     * timeout and, for a tool call, the agent's cancel ({@code cancelled}, may be null). A timeout or a
     * cancel tells the upstream to stop ({@code params} finds the request's id).
     */
    private <T> T timed(Supplier<T> request, Duration timeout, Object params, CompletableFuture<String> cancelled) {
        CompletableFuture<T> call = CompletableFuture.supplyAsync(request, calls);
        CompletableFuture<?> end = process != null ? process.onExit() : streamEnded;
        List<CompletableFuture<?>> race = new ArrayList<>(List.of(call));
        if (end != null) race.add(end);
        if (cancelled != null) race.add(cancelled);
        CompletableFuture<Object> first = race.size() == 1 ? call.thenApply(r -> r)
                : CompletableFuture.anyOf(race.toArray(CompletableFuture[]::new));
        try {
            first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (call.isDone()) return call.get();
            if (cancelled != null && cancelled.isDone()) {
                String why = cancelled.getNow("");
                cancelUpstream(params, "the agent cancelled the call" + (why == null || why.isBlank() ? "" : ": " + why));
                call.cancel(true);
                throw new UpstreamException("the call to upstream '" + server + "' was cancelled by the agent", null,
                        UpstreamException.Kind.CANCELLED);
            }
            // an upstream may write its answer and exit at once: the exit can be seen before the reader
            // thread has handed the answer over, so the answer gets a moment before the call is lost
            try {
                return call.get(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException | ExecutionException stillNothing) {
                // no answer came: it did exit during the call
            }
            call.cancel(true);
            if (process == null) {
                throw new UpstreamException("upstream '" + server + "' dropped the connection during the call: "
                        + streamEnded.getNow("its event stream ended"));
            }
            throw new UpstreamException("upstream '" + server + "' exited during the call (process "
                    + process.pid() + ")");
        } catch (TimeoutException e) {
            cancelUpstream(params, "no answer within the proxy's call timeout (" + timeout.toSeconds() + " s)");
            call.cancel(true);
            throw timedOut(timeout, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException("call to upstream '" + server + "' was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (causedBy(cause, TimeoutException.class)) {
                // the SDK's own request timeout (the same length as ours) fired first: the same event, the same words
                cancelUpstream(params, "no answer within the proxy's call timeout (" + timeout.toSeconds() + " s)");
                throw timedOut(timeout, cause);
            }
            if (cause instanceof McpError error && error.getJsonRpcError() != null
                    && error.getJsonRpcError().code() == GuardedStdioClientTransport.OUTPUT_ENDED_CODE) {
                // not an answer: the connection is gone, so the session is dropped and restarted. A killed process
                // closes its output and exits at once, and either may be seen first: when it has exited, say so
                if (process != null && exitedWithin(EXIT_GRACE)) {
                    throw new UpstreamException("upstream '" + server + "' exited during the call (process "
                            + process.pid() + ")", cause);
                }
                throw new UpstreamException("upstream '" + server + "' failed: " + firstLine(error.getMessage()), cause);
            }
            if (cause instanceof McpError error) {
                // the upstream (or our transport on its behalf) answered with a JSON-RPC error: its words, no class name
                boolean tooLarge = error.getJsonRpcError() != null
                        && error.getJsonRpcError().code() == GuardedStdioClientTransport.TOO_LARGE_CODE;
                throw UpstreamException.errorAnswer("upstream '" + server + "' answered"
                        + (tooLarge ? ", but " : " with an error: ") + firstLine(String.valueOf(error.getMessage())), cause);
            }
            if (process == null && streamEnded != null && causedByIo(cause)) {
                // an SSE server going away fails the call's POST and ends its event stream, and either may be seen
                // first: both are the connection dropping during the call
                throw new UpstreamException("upstream '" + server + "' dropped the connection during the call: "
                        + streamEndReason(cause), cause);
            }
            // the agent reads this: the cause's words, not its Java class (which the log keeps)
            throw new UpstreamException("upstream '" + server + "' failed: "
                    + (cause.getMessage() == null ? "no reason given" : firstLine(cause.getMessage())), cause);
        }
    }

    private static boolean causedByIo(Throwable t) {
        return causedBy(t, java.io.IOException.class);
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) return true;
        }
        return false;
    }

    private UpstreamException timedOut(Duration timeout, Throwable cause) {
        return new UpstreamException("upstream '" + server + "' did not answer within " + timeout.toSeconds() + " s", cause,
                UpstreamException.Kind.TIMED_OUT);
    }

    /** Why the event stream ended, once it has (a moment's grace), else the failed request's own words. */
    private String streamEndReason(Throwable cause) {
        try {
            return streamEnded.get(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException stillOpen) {
            return cause.getMessage() == null ? "its request failed" : firstLine(cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "its request failed";
        }
    }

    @Override
    public boolean alive() {
        return (process == null || process.isAlive()) && (streamEnded == null || !streamEnded.isDone());
    }

    @Override
    public void close() {
        try {
            if ((process != null && !process.isAlive()) || (streamEnded != null && streamEnded.isDone())) {
                client.close(); // nothing to talk to: skip the graceful handshake
            } else {
                client.closeGracefully();
            }
        } catch (RuntimeException e) {
            // closing a broken connection may fail in many ways; the process is killed below anyway
        }
        if (process != null && process.isAlive()) process.destroyForcibly();
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return TextCut.clip(line, 200);
    }
}
