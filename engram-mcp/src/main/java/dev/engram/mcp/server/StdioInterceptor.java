package dev.engram.mcp.server;

import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.util.function.Consumer;

/**
 * Sees the stdio session's traffic where the SDK's server gives no hook: each message the client sends,
 * before the session handles it, and each notification the server sends. The proxy uses it to pass the
 * client's {@code notifications/cancelled} on to its upstreams (the SDK's server has no handler for it),
 * to answer a call to a tool it no longer has as the MCP spec asks (an error result, not the SDK's fixed
 * protocol error) and to send one {@code tools/list_changed} per change instead of one per tool.
 */
public interface StdioInterceptor {
    /** Changes nothing. */
    StdioInterceptor NONE = new StdioInterceptor() {
    };

    /**
     * A message from the client, on the reader thread (it must not block): returns the message the session
     * gets (this one, or a changed copy), or null when this interceptor took it (a request it answered
     * through {@code reply}, a notification it acted on).
     */
    default JSONRPCMessage inbound(JSONRPCMessage message, Consumer<JSONRPCMessage> reply) {
        return message;
    }

    /** Whether the server's notification {@code method} is sent now (false: dropped). */
    default boolean sends(String method) {
        return true;
    }
}
