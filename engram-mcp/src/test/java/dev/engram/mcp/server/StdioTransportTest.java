package dev.engram.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.jsonrpc.ErrorMessages;
import dev.engram.mcp.json.JsonText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpRequestHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpServerSession;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/** The stdio transport on its own, under a bare SDK session: what it sends, and when it lets the end of input through. */
class StdioTransportTest {
    private final JsonText json = JsonText.standard();

    @Test
    void anErrorNamingJavaClassesIsSentPlainWithItsIdAndCode() {
        JSONRPCResponse leak = new JSONRPCResponse("2.0", 1, null, new JSONRPCError(-32603,
                "tools.jackson.databind.exc.MismatchedInputException: Cannot construct instance of `io.modelcontextprotocol.spec.McpSchema$X`"));
        JSONRPCResponse sent = (JSONRPCResponse) ErrorMessages.plain(leak);
        assertEquals(1, sent.id());
        assertEquals(-32603, sent.error().code());
        assertEquals(ErrorMessages.PLAIN, sent.error().message());

        JSONRPCResponse plain = new JSONRPCResponse("2.0", 2, null, new JSONRPCError(-32601, "Method not found: x"));
        assertSame(plain, ErrorMessages.plain(plain));
        JSONRPCResponse result = new JSONRPCResponse("2.0", "a", Map.of("error", Map.of("message",
                "java.lang.X inside a result is the tool's content")), null);
        assertSame(result, ErrorMessages.plain(result));
    }

    /** The SDK says "invalid_tool_name" whatever tool was called; the name it put in the error's data is said instead. */
    @Test
    void anUnknownToolsErrorNamesTheToolCalled() {
        JSONRPCResponse sdk = new JSONRPCResponse("2.0", 7, null, new JSONRPCError(-32602, "Unknown tool: invalid_tool_name",
                "Tool not found: no_such_tool"));
        JSONRPCResponse sent = (JSONRPCResponse) ErrorMessages.plain(sdk);
        assertEquals(7, sent.id());
        assertEquals(-32602, sent.error().code());
        assertEquals("Unknown tool: no_such_tool; call tools/list for the tools this server has", sent.error().message());
        JSONRPCResponse other = new JSONRPCResponse("2.0", 8, null, new JSONRPCError(-32602, "Unknown tool: invalid_tool_name", null));
        assertSame(other, ErrorMessages.plain(other), "without the SDK's data there is no name to say");
    }

    /**
     * SDK gotcha 4 where it bites: an answer that completes on another thread after stdin has ended. The end is
     * acted on only once it is written, and a bad line, a blank line and the guard's own answers do not count.
     */
    @Test
    @Timeout(20)
    void theEndOfInputWaitsForAnAnswerCompletedOnAnotherThread() throws Exception {
        String requests = String.join("\n",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                        + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "",
                "not json",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"slow\"}") + "\n";
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        BlockingQueue<String> atEnd = new ArrayBlockingQueue<>(2);
        // what was written when the end was reported (the transport writes each line under the stream's lock)
        StdioTransport transport = new StdioTransport(McpJsonDefaults.getMapper(),
                new ByteArrayInputStream(requests.getBytes(StandardCharsets.UTF_8)), written, 1 << 20, Duration.ofSeconds(15),
                () -> atEnd.add(written.toString(StandardCharsets.UTF_8)));
        McpRequestHandler<Object> slow = (exchange, params) -> Mono.delay(Duration.ofMillis(300)).thenReturn(Map.of("done", true));
        transport.setSessionFactory(t -> new McpServerSession("s", Duration.ofSeconds(10), t,
                init -> Mono.just(new McpSchema.InitializeResult("2025-11-25", McpSchema.ServerCapabilities.builder().build(),
                        new McpSchema.Implementation("t", "1"), null)),
                Map.of("slow", slow), Map.of()));

        String seen = atEnd.poll(15, TimeUnit.SECONDS);
        assertTrue(seen != null, "the end of input was never reported");
        List<Map<String, Object>> lines = seen.lines().map(json::readObject).toList();
        assertEquals(3, lines.size(), seen);
        assertEquals(1, ((Number) lines.get(0).get("id")).intValue());
        assertEquals(-32700, ((Number) ((Map<?, ?>) lines.get(1).get("error")).get("code")).intValue(), "the bad line, answered at once");
        assertEquals(2, ((Number) lines.get(2).get("id")).intValue());
        assertEquals(Map.of("done", true), lines.get(2).get("result"), "the slow answer was out before the end was reported");
    }

    /** A resource update goes to its subscriber through notifyClient; over stdio that is the one session. */
    @Test
    @Timeout(20)
    void aNotificationForTheSessionIsWrittenAndOneForAnotherIsRefused() throws Exception {
        java.io.PipedInputStream stdin = new java.io.PipedInputStream();
        java.io.PipedOutputStream agent = new java.io.PipedOutputStream(stdin);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        StdioTransport transport = new StdioTransport(McpJsonDefaults.getMapper(), stdin, written, 1 << 20,
                Duration.ofSeconds(5), () -> { });
        java.util.concurrent.atomic.AtomicReference<McpServerSession> created = new java.util.concurrent.atomic.AtomicReference<>();
        transport.setSessionFactory(t -> {
            McpServerSession s = new McpServerSession("s-1", Duration.ofSeconds(10), t,
                    init -> Mono.empty(), Map.of(), Map.of());
            created.set(s);
            return s;
        });
        try {
            transport.notifyClient("s-1", "notifications/resources/updated", Map.of("uri", "x://y")).block(Duration.ofSeconds(5));
            Map<String, Object> line = json.readObject(written.toString(StandardCharsets.UTF_8).strip());
            assertEquals("notifications/resources/updated", line.get("method"));
            assertEquals(Map.of("uri", "x://y"), line.get("params"));
            Exception refused = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                    () -> transport.notifyClient("other", "notifications/resources/updated", Map.of("uri", "x://y")).block());
            assertTrue(refused.getMessage().contains("s-1"), refused.getMessage());
        } finally {
            agent.close();
        }
    }
}
