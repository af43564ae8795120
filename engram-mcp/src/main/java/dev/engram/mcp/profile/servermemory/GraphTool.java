package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.graph.EntityGraph;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;

/**
 * What server-memory's tools share: the engine's entity graph and the zone. server-memory has one
 * graph per file and no zone argument, so every call works in the server's default zone
 * ({@code --zone} or {@code default}).
 */
abstract class GraphTool implements ToolHandler {
    protected final ProfileContext context;

    GraphTool(ProfileContext context) {
        this.context = context;
    }

    protected EntityGraph graph() {
        return context.engine().entities();
    }

    /** The graph for a call that creates memories: they record who made the call. */
    protected EntityGraph writer(ToolArgs args) {
        return graph().by(args.caller().session(), args.caller().branch());
    }

    protected String zone() {
        return context.defaultZone();
    }
}
