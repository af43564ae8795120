package dev.engram.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema;

/**
 * One MCP tool: its definition and a handler that parses arguments, makes one engine call and
 * renders (R4). Handlers may throw; {@link ToolAdapter} turns every exception into a tool result.
 */
public interface ToolHandler {
    McpSchema.Tool definition();

    ToolReply call(ToolArgs args);
}
