package dev.engram.proxy.upstream;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    McpUpstreamSession(String server, McpSyncClient client, ProcessHandle process, ExecutorService calls) {
        this(server, client, process, null, calls);
    }

    McpUpstreamSession(String server, McpSyncClient client, ProcessHandle process, CompletableFuture<String> streamEnded,
                       ExecutorService calls) {
        this.server = server;
        this.client = client;
        this.process = process;
        this.streamEnded = streamEnded;
        this.calls = calls;
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
        CompletableFuture<CallToolResult> call = CompletableFuture.supplyAsync(() -> client.callTool(request), calls);
        CompletableFuture<?> end = process != null ? process.onExit() : streamEnded;
        CompletableFuture<Object> first = end == null ? call.thenApply(r -> r) : CompletableFuture.anyOf(call, end);
        try {
            Object r = first.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (r instanceof CallToolResult result) return result;
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
            call.cancel(true);
            throw new UpstreamException("upstream '" + server + "' did not answer within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpstreamException("call to upstream '" + server + "' was interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof McpError error && error.getJsonRpcError() != null
                    && error.getJsonRpcError().code() == GuardedStdioClientTransport.OUTPUT_ENDED_CODE) {
                // not an answer: the connection is gone, so the session is dropped and restarted
                throw new UpstreamException("upstream '" + server + "' failed: " + firstLine(error.getMessage()), cause);
            }
            if (cause instanceof McpError error) {
                // the upstream (or our transport on its behalf) answered with a JSON-RPC error: its words, no class name
                boolean tooLarge = error.getJsonRpcError() != null
                        && error.getJsonRpcError().code() == GuardedStdioClientTransport.TOO_LARGE_CODE;
                throw UpstreamException.errorAnswer("upstream '" + server + "' answered"
                        + (tooLarge ? ", but " : " with an error: ") + firstLine(String.valueOf(error.getMessage())), cause);
            }
            // the agent reads this: the cause's words, not its Java class (which the log keeps)
            throw new UpstreamException("upstream '" + server + "' failed: "
                    + (cause.getMessage() == null ? "no reason given" : firstLine(cause.getMessage())), cause);
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
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }
}
