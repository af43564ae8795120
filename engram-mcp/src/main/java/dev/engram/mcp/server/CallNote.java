package dev.engram.mcp.server;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;

/**
 * What one HTTP request did, noted for its request log line: the tool or prompt it named and, for a tool call,
 * whether the tool answered with an error. The HTTP server makes one per request and puts it in the request (and
 * the SDK's transport context, whence {@link dev.engram.mcp.tool.ToolAdapter} fills in the outcome). Never the
 * arguments or the answer: logs carry no memory content. Written by one thread, read by another after the call.
 */
public final class CallNote {
    /** The request attribute and transport context key holding the note. */
    public static final String KEY = "engram.call-note";

    private volatile String method;
    private volatile String name;
    private volatile String outcome;

    public void request(String rpcMethod, String targetName) {
        this.method = rpcMethod;
        this.name = targetName;
    }

    public void outcome(String value) {
        this.outcome = value;
    }

    public String method() {
        return method;
    }

    public String name() {
        return name;
    }

    public String outcome() {
        return outcome;
    }

    /** Notes the outcome on the exchange's request, if it has a note (HTTP); over stdio there is none. */
    public static void outcome(McpSyncServerExchange exchange, boolean isError) {
        if (exchange == null) return;
        McpTransportContext ctx = exchange.transportContext();
        if (ctx != null && ctx.get(KEY) instanceof CallNote note) note.outcome(isError ? "error" : "ok");
    }
}
