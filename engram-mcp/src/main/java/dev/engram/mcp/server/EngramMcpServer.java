package dev.engram.mcp.server;

import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.time.Duration;

/** Builds the MCP server for a profile over any transport; the same code serves stdio and HTTP. */
public final class EngramMcpServer {
    public static final String NAME = "engram";

    private EngramMcpServer() {
    }

    public static <S extends McpServer.SyncSpecification<S>> McpSyncServer build(
            McpServer.SyncSpecification<S> spec, ToolProfile profile, String version) {
        return spec.serverInfo(NAME, version)
                .instructions(profile.instructions())
                .capabilities(ServerCapabilities.builder().tools(false).resources(false, false).prompts(false).build())
                // ToolArgs checks arguments itself: the SDK's messages ("/limit: string found, integer
                // expected") do not say what to send, ours name the field, the type and an example
                .validateToolInputs(false)
                // a tool runs on the thread that read its request (stdio's reader, HTTP's request thread)
                // instead of being handed to a pooled worker: every tool answers in milliseconds, and the
                // hand-off to a parked worker cost a recall at 10k memories 0.3-0.5 ms at p50 and 3 ms at
                // p95 on two busy cores (docs/benchmarks.md §0). Calls on one stdio session now run one
                // after another, as an agent issues them.
                .immediateExecution(true)
                .requestTimeout(Duration.ofSeconds(60))
                .tools(profile.tools().stream().map(ToolAdapter::spec).toList())
                .resources(profile.resources())
                .prompts(profile.prompts())
                .build();
    }
}
