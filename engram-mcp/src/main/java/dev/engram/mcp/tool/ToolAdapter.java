package dev.engram.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.Implementation;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.server.ToolMetrics;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single place where Engram meets the SDK's tool calls (R5). No exception crosses it: a
 * caller's mistake becomes an {@code isError} result with our message, anything else is logged to
 * stderr with a reference and the agent gets one generic line carrying that reference.
 */
public final class ToolAdapter {
    private static final Logger log = LoggerFactory.getLogger(ToolAdapter.class);

    private ToolAdapter() {
    }

    /** The project whose branch calls record: the directory the server was started in. */
    private static final ProjectBranch PROJECT = ProjectBranch.workingDirectory();

    public static SyncToolSpecification spec(ToolHandler handler) {
        return SyncToolSpecification.builder().tool(handler.definition())
                .callHandler((exchange, request) -> {
                    CallToolResult result = dev.engram.mcp.server.CallerRights.bound(exchange,
                            () -> call(handler, request.arguments(), caller(exchange, handler)));
                    dev.engram.mcp.server.CallNote.outcome(exchange, Boolean.TRUE.equals(result.isError()));
                    return result;
                }).build();
    }

    /** Runs one call; public so tests and other transports reach the exact same behaviour. */
    public static CallToolResult call(ToolHandler handler, Map<String, Object> arguments) {
        return call(handler, arguments, Caller.NONE);
    }

    private static Caller caller(McpSyncServerExchange exchange, ToolHandler handler) {
        try {
            Implementation client = exchange.getClientInfo();
            Caller c = caller(client == null ? null : client.name(), exchange.sessionId(), handler, PROJECT);
            // the request's transport session, when the HTTP server made one for this very session
            var ctx = exchange.transportContext();
            if (ctx != null && ctx.get(TransportSession.KEY) instanceof TransportSession t && t.id().equals(exchange.sessionId())) {
                c = new Caller(c.session(), c.branch(), c.client(), t);
            }
            return c;
        } catch (RuntimeException e) {
            log.debug("no caller details for a tool call: {}", e.toString());
            return Caller.NONE; // provenance is a nicety: never a reason to fail the call
        }
    }

    /**
     * A read-only tool records nothing, so it gets no branch: reading {@code .git/HEAD} (a walk up the
     * directories and two small file reads on every call) showed up in a profile of recall at 10k
     * memories (docs/benchmarks.md §000).
     */
    static Caller caller(String clientName, String sessionId, ToolHandler handler, ProjectBranch project) {
        String client = clientName == null || clientName.isBlank() ? null : clientName.strip();
        return new Caller(Caller.session(clientName, sessionId), ToolHints.isReadOnly(handler) ? null : project.current(), client);
    }

    public static CallToolResult call(ToolHandler handler, Map<String, Object> arguments, Caller caller) {
        String name = handler.definition().name();
        long start = System.nanoTime();
        ToolMetrics.Outcome outcome = ToolMetrics.Outcome.OK;
        try {
            ToolReply reply = handler.call(ToolArgs.of(handler.definition(), arguments, caller));
            CallToolResult.Builder result = CallToolResult.builder().addTextContent(reply.text());
            reply.notes().forEach(result::addTextContent);
            return result.structuredContent(reply.structured()).meta(reply.meta()).isError(false).build();
        } catch (EngramUserException e) {
            outcome = ToolMetrics.Outcome.ERROR;
            if (e instanceof dev.engram.access.AccessDeniedException) ToolMetrics.GLOBAL.denied();
            log.debug("tool {} rejected a call: {}", name, e.getMessage());
            return error(e.getMessage());
        } catch (dev.engram.error.StoreUnavailableException e) {
            // the server's failure, but one the caller can act on (retry): its message says so, without internals
            outcome = ToolMetrics.Outcome.FAILURE;
            log.warn("tool {}: {}", name, e.getMessage());
            return error(name + ": " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            outcome = ToolMetrics.Outcome.FAILURE;
            // a StackOverflowError unwinds this call's stack only: the thread and the session live on, and an
            // uncaught one would leave the call unanswered and the transport's worker dead
            String ref = newRef();
            log.error("tool {} failed, ref={}", name, ref, e);
            return error(name + " failed inside the server (ref " + ref + ")");
        } finally {
            ToolMetrics.GLOBAL.record(name, outcome, System.nanoTime() - start);
        }
    }

    private static CallToolResult error(String message) {
        return CallToolResult.builder().addTextContent(message).isError(true).build();
    }

    /** Six base-36 characters: short enough to read aloud, random enough not to repeat within one log. */
    public static String newRef() {
        return Long.toString(ThreadLocalRandom.current().nextLong(60_466_176L, 2_176_782_336L), 36);
    }
}
