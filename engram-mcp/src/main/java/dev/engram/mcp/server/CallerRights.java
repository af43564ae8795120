package dev.engram.mcp.server;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import java.util.function.Supplier;

/**
 * Carries the HTTP caller's {@link Grants} from the request (where the bearer filter put them) through
 * the SDK's transport context to the thread that runs the tool, resource or prompt, and binds them
 * there for the call ({@link Access#as}). Every handler Engram registers goes through {@link #bound}.
 * Over stdio the context holds no grants and nothing is bound; the stdio engine is not guarded.
 */
public final class CallerRights {
    /** The transport context key and the servlet request attribute holding the caller's grants. */
    public static final String KEY = "engram.grants";

    private CallerRights() {
    }

    /** Runs {@code work} with the caller's grants bound, if the transport supplied any. */
    public static <T> T bound(McpSyncServerExchange exchange, Supplier<T> work) {
        Grants g = grants(exchange);
        return g == null ? work.get() : Access.as(g, work);
    }

    static Grants grants(McpSyncServerExchange exchange) {
        if (exchange == null) return null;
        McpTransportContext ctx = exchange.transportContext();
        return ctx != null && ctx.get(KEY) instanceof Grants g ? g : null;
    }
}
