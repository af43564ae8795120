package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.List;

/**
 * One live connection to an upstream server. Implementations throw {@link UpstreamException}
 * when the connection fails during a call; after that the session is dead and is replaced.
 */
public interface UpstreamSession extends AutoCloseable {
    List<Tool> listTools();

    CallToolResult call(CallToolRequest request, Duration timeout);

    /** False once the upstream process has exited (always true for HTTP: failures show on the next call). */
    boolean alive();

    @Override
    void close();

    /** Opens sessions; the production one starts processes or HTTP clients, tests use fakes. */
    @FunctionalInterface
    interface Opener {
        UpstreamSession open(dev.engram.proxy.config.UpstreamConfig config);
    }
}
