package dev.engram.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * Another tool with something of the server's own run before and after each of its calls (a session
 * heartbeat, a file written back, a note added to the answer), under the same definition. {@code after}
 * runs only when the call succeeded, and answers what the caller gets (the reply as it came, or with a
 * note); what either does must not fail the call, so each catches its own errors.
 */
public record AroundTool(ToolHandler inner, Consumer<ToolArgs> before, BiFunction<ToolArgs, ToolReply, ToolReply> after)
        implements ToolHandler {
    public AroundTool {
        Objects.requireNonNull(inner, "inner");
        Objects.requireNonNull(before, "before");
        Objects.requireNonNull(after, "after");
    }

    @Override
    public McpSchema.Tool definition() {
        return inner.definition();
    }

    @Override
    public ToolReply call(ToolArgs args) {
        before.accept(args);
        return after.apply(args, inner.call(args));
    }
}
