package dev.engram.mcp.server;

import dev.engram.mcp.profile.ToolProfile;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.function.Function;

/**
 * MCP over stdin/stdout. stdout belongs to the protocol alone (SDK gotcha 6): call
 * {@link #claimStdout()} before anything else runs, so a stray {@code System.out.println} in any
 * library lands on stderr instead of corrupting JSON-RPC.
 */
public final class StdioServer {
    private StdioServer() {
    }

    /** Takes the real stdout for the protocol and points {@code System.out} at stderr. Call once. */
    public static OutputStream claimStdout() {
        PrintStream protocol = new PrintStream(new FileOutputStream(FileDescriptor.out), false);
        System.setOut(System.err);
        return protocol;
    }

    /** Longest wait for in-flight answers once stdin has closed; as long as a slow tool call may take. */
    static final Duration MAX_DRAIN = Duration.ofSeconds(30);
    /** Longest message line accepted (the SDK's own limit); longer lines are answered and skipped. */
    public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    /** Starts serving; returns at once (the transport's reader thread keeps the JVM alive until stdin closes). */
    public static McpSyncServer start(ToolProfile profile, String version, McpJsonMapper mapper,
                                      InputStream in, OutputStream out) {
        return start(profile, version, mapper, in, out, () -> { });
    }

    /**
     * As above; {@code onInputEnd} runs once, on the transport's reader thread, when stdin has ended and every
     * request read before the end has been answered: the moment an agent has finished with the server.
     */
    public static McpSyncServer start(ToolProfile profile, String version, McpJsonMapper mapper,
                                      InputStream in, OutputStream out, Runnable onInputEnd) {
        return start(mapper, in, out, spec -> EngramMcpServer.build(spec, profile, version), onInputEnd);
    }

    /**
     * Starts serving a server that {@code build} assembles on the stdio transport, with the same
     * end-of-file handling and line guard as the profile servers (the proxy uses this for its own
     * tool set).
     */
    public static McpSyncServer start(McpJsonMapper mapper, InputStream in, OutputStream out,
                                      Function<McpServer.SingleSessionSyncSpecification, McpSyncServer> build) {
        return start(mapper, in, out, build, () -> { });
    }

    /**
     * As {@link #start(McpJsonMapper, InputStream, OutputStream, Function)}, with {@code interceptor} seeing
     * each message the client sends before the session does, and each notification the server sends.
     */
    public static McpSyncServer start(McpJsonMapper mapper, InputStream in, OutputStream out,
                                      Function<McpServer.SingleSessionSyncSpecification, McpSyncServer> build,
                                      StdioInterceptor interceptor) {
        return build.apply(McpServer.sync(new StdioTransport(mapper, in, out, MAX_LINE_BYTES, MAX_DRAIN, () -> { }, interceptor)));
    }

    private static McpSyncServer start(McpJsonMapper mapper, InputStream in, OutputStream out,
                                       Function<McpServer.SingleSessionSyncSpecification, McpSyncServer> build,
                                       Runnable onInputEnd) {
        // refusals of bad lines are written on the reader thread, so each comes before the answer to any later
        // line; a client that writes hundreds of bad lines without ever reading its stdout can therefore stall
        // the reader, as MCP expects clients to read
        return build.apply(McpServer.sync(new StdioTransport(mapper, in, out, MAX_LINE_BYTES, MAX_DRAIN, onInputEnd)));
    }
}
