package dev.engram.bench;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One MCP server child process driven over stdio by the official Java SDK client. Every server in
 * every benchmark goes through this class, so client and transport costs are the same for all.
 */
public final class McpSession implements AutoCloseable {
    /** How to start a server: command line and extra environment. */
    public record ServerCommand(String label, List<String> command, Map<String, String> env) {
        public ServerCommand {
            command = List.copyOf(command);
            env = Map.copyOf(env);
            if (command.isEmpty()) throw new IllegalArgumentException("command must not be empty");
        }
    }

    /**
     * A tool call's reply as the agent would receive it; {@code results} counts the items of the
     * structured answer's {@code results} (Engram) or {@code entities} (server-memory) list, -1 if none.
     * {@code nanos} is the round trip of the call alone: reading the reply's figures comes after it.
     */
    record Reply(String text, int structuredChars, int results, boolean error, long nanos) {
        int bytes() {
            return text.getBytes(StandardCharsets.UTF_8).length;
        }
    }

    private static final McpJsonMapper JSON = McpJsonDefaults.getMapper();

    private final McpSyncClient client;

    private McpSession(McpSyncClient client) {
        this.client = client;
    }

    /** Builds the client; the process starts on {@link #initialize()}. */
    public static McpSession start(ServerCommand server, PrintStream serverStderr) {
        return start(server, serverStderr, Duration.ofMinutes(2));
    }

    /** With a per-request timeout: a peer whose one call takes minutes at a size is waited for, not failed. */
    public static McpSession start(ServerCommand server, PrintStream serverStderr, Duration requestTimeout) {
        ServerParameters params = ServerParameters.builder(server.command().get(0))
                .args(server.command().subList(1, server.command().size())).env(server.env()).build();
        StdioClientTransport transport = new StdioClientTransport(params, JSON);
        transport.setStdErrorHandler(line -> {
            if (serverStderr != null) serverStderr.println("[" + server.label() + "] " + line);
        });
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(McpSchema.Implementation.builder("engram-bench", "0.1.0").build())
                .requestTimeout(requestTimeout).initializationTimeout(requestTimeout.compareTo(Duration.ofMinutes(2)) > 0 ? requestTimeout : Duration.ofMinutes(2)).build();
        return new McpSession(client);
    }

    public McpSchema.InitializeResult initialize() {
        return client.initialize();
    }

    List<McpSchema.Tool> listTools() {
        return client.listTools().tools();
    }

    /** A JSON-RPC ping: the round trip with no tool work. */
    void ping() {
        client.ping();
    }

    Reply call(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolRequest request = McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
        long t0 = System.nanoTime();
        McpSchema.CallToolResult r = client.callTool(request);
        long nanos = System.nanoTime() - t0;
        String text = r.content().stream().filter(c -> c instanceof McpSchema.TextContent)
                .map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
        int structured = 0;
        int results = -1;
        if (r.structuredContent() instanceof Map<?, ?> map) {
            for (String listKey : List.of("results", "entities")) {
                if (map.get(listKey) instanceof List<?> items) results = items.size();
            }
        }
        if (r.structuredContent() != null) {
            try {
                structured = JSON.writeValueAsString(r.structuredContent()).length();
            } catch (IOException e) {
                throw new IllegalStateException("cannot serialise structuredContent of " + tool, e);
            }
        }
        // the TS servers leave isError absent (null) on success (SDK gotcha 18)
        return new Reply(text, structured, results, Boolean.TRUE.equals(r.isError()), nanos);
    }

    /**
     * A tool call's structured answer as the agent's client receives it (the result's
     * {@code structuredContent}), with its text and whether it is an error; {@code nanos} is the round trip.
     */
    public record Structured(Map<String, Object> content, String text, boolean error, long nanos) {
    }

    @SuppressWarnings("unchecked")
    public Structured callStructured(String tool, Map<String, Object> arguments) {
        McpSchema.CallToolRequest request = McpSchema.CallToolRequest.builder(tool).arguments(arguments).build();
        long t0 = System.nanoTime();
        McpSchema.CallToolResult r = client.callTool(request);
        long nanos = System.nanoTime() - t0;
        return new Structured(r.structuredContent() instanceof Map<?, ?> m ? (Map<String, Object>) m : null, text(r),
                Boolean.TRUE.equals(r.isError()), nanos);
    }

    /** The text items of a tool result, joined by newlines. */
    public static String text(McpSchema.CallToolResult r) {
        return r.content().stream().filter(c -> c instanceof McpSchema.TextContent)
                .map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
