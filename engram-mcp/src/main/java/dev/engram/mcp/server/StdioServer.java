package dev.engram.mcp.server;

import dev.engram.mcp.profile.ToolProfile;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;

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

    /** Starts serving; returns at once (the transport's reader thread keeps the JVM alive until stdin closes). */
    public static McpSyncServer start(ToolProfile profile, String version, McpJsonMapper mapper,
                                      InputStream in, OutputStream out) {
        return EngramMcpServer.build(McpServer.sync(new StdioServerTransportProvider(mapper, in, out)),
                profile, version);
    }
}
