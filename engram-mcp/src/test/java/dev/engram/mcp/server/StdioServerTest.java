package dev.engram.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.JsonText;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The stdio server in-process over pipes: raw JSON-RPC lines in, raw lines out. */
class StdioServerTest {
    private final JsonText json = JsonText.standard();
    private final BlockingQueue<Map<String, Object>> responses = new ArrayBlockingQueue<>(64);
    private OutputStream toServer;
    private McpSyncServer server;

    @BeforeEach
    void start() throws Exception {
        PipedInputStream serverIn = new PipedInputStream(1 << 16);
        toServer = new PipedOutputStream(serverIn);
        PipedInputStream fromServer = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        server = StdioServer.start(TestEngines.nativeProfile(Clock.systemUTC()), "test", McpJsonDefaults.getMapper(),
                serverIn, serverOut);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) responses.add(json.readObject(line));
            } catch (Exception e) {
                // the pipe closes when the test ends
            }
        });
        reader.setDaemon(true);
        reader.start();
    }

    @AfterEach
    void stop() {
        server.closeGracefully();
    }

    private Map<String, Object> request(int id, String method, Map<String, Object> params) throws Exception {
        Map<String, Object> msg = new HashMap<>(Map.of("jsonrpc", "2.0", "id", id, "method", method));
        if (params != null) msg.put("params", params);
        send(msg);
        Map<String, Object> r = responses.poll(20, TimeUnit.SECONDS);
        assertEquals(id, ((Number) r.get("id")).intValue(), String.valueOf(r));
        return r;
    }

    private void send(Map<String, Object> msg) throws Exception {
        toServer.write((json.write(msg) + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    @Test
    @SuppressWarnings("unchecked")
    void initializeListToolsAndGetAFieldNamingErrorBack() throws Exception {
        Map<String, Object> init = request(1, "initialize", Map.of("protocolVersion", "2025-11-25",
                "capabilities", Map.of(), "clientInfo", Map.of("name", "test", "version", "1")));
        Map<String, Object> result = (Map<String, Object>) init.get("result");
        assertEquals("engram", ((Map<String, Object>) result.get("serverInfo")).get("name"));
        assertTrue(((String) result.get("instructions")).contains("`context`"));
        send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));

        List<Map<String, Object>> tools = (List<Map<String, Object>>) ((Map<String, Object>)
                request(2, "tools/list", null).get("result")).get("tools");
        assertEquals(9, tools.size());

        Map<String, Object> call = (Map<String, Object>) request(3, "tools/call", Map.of("name", "recall",
                "arguments", Map.of("query", "redis", "budget", "huge"))).get("result");
        assertEquals(true, call.get("isError"));
        String text = (String) ((List<Map<String, Object>>) call.get("content")).get(0).get("text");
        assertEquals("budget 'huge' is not a budget; send tiny (3 results), normal (10) or deep (20)", text);
    }

    /** SDK gotcha 4: a script that pipes its requests and closes stdin still gets every answer. */
    @Test
    void closingStdinRightAfterTheRequestsLosesNoAnswer() throws Exception {
        send(Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params", Map.of("protocolVersion", "2025-11-25",
                "capabilities", Map.of(), "clientInfo", Map.of("name", "script", "version", "1"))));
        send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        send(Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/call", "params", Map.of("name", "remember",
                "arguments", Map.of("content", "Piped scripts get all their answers"))));
        send(Map.of("jsonrpc", "2.0", "id", 3, "method", "tools/list"));
        toServer.close();
        java.util.Set<Integer> ids = new java.util.HashSet<>();
        for (int i = 0; i < 3; i++) {
            Map<String, Object> r = responses.poll(20, TimeUnit.SECONDS);
            assertTrue(r != null, "answers so far: " + ids);
            ids.add(((Number) r.get("id")).intValue());
        }
        assertEquals(java.util.Set.of(1, 2, 3), ids);
    }

    /**
     * The end of input is reported once, after the last answer is written: the moment the CLI closes the store,
     * without waiting for the JVM to exit.
     */
    @Test
    void theEndOfInputIsReportedOnceAfterTheLastAnswer() throws Exception {
        PipedInputStream in = new PipedInputStream(1 << 16);
        OutputStream agent = new PipedOutputStream(in);
        java.io.ByteArrayOutputStream written = new java.io.ByteArrayOutputStream();
        java.util.concurrent.atomic.AtomicInteger ends = new java.util.concurrent.atomic.AtomicInteger();
        BlockingQueue<String> atEnd = new ArrayBlockingQueue<>(4);
        OutputStream out = new OutputStream() {
            @Override
            public synchronized void write(int b) {
                written.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                written.write(b, off, len);
            }
        };
        McpSyncServer second = StdioServer.start(TestEngines.nativeProfile(Clock.systemUTC()), "test", McpJsonDefaults.getMapper(),
                in, out, () -> {
                    ends.incrementAndGet();
                    synchronized (out) {
                        atEnd.add(written.toString(StandardCharsets.UTF_8));
                    }
                });
        try {
            for (Map<String, Object> msg : List.<Map<String, Object>>of(
                    Map.of("jsonrpc", "2.0", "id", 1, "method", "initialize", "params", Map.of("protocolVersion", "2025-11-25",
                            "capabilities", Map.of(), "clientInfo", Map.of("name", "script", "version", "1"))),
                    Map.of("jsonrpc", "2.0", "method", "notifications/initialized"),
                    Map.of("jsonrpc", "2.0", "id", 2, "method", "tools/call", "params", Map.of("name", "remember",
                            "arguments", Map.of("content", "The end of input comes after this answer"))))) {
                agent.write((json.write(msg) + "\n").getBytes(StandardCharsets.UTF_8));
            }
            agent.close();
            String seen = atEnd.poll(20, TimeUnit.SECONDS);
            assertTrue(seen != null, "the end of input was never reported");
            List<Integer> ids = seen.lines().map(l -> ((Number) json.readObject(l).get("id")).intValue()).toList();
            assertEquals(List.of(1, 2), ids, "both answers were written before the end was reported");
            Thread.sleep(200);
            assertEquals(1, ends.get(), "reported once");
        } finally {
            second.closeGracefully();
        }
    }

    /** The line guard: bad lines are answered in order with the right code, interleaved whole with the SDK's answers. */
    @Test
    void badLinesAreAnsweredAndTheServerKeepsServing() throws Exception {
        request(1, "initialize", Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "test", "version", "1")));
        send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        String[] bad = {"", "not json", "[]", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}",
            "{\"id\":5,\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":[]}}"};
        for (String line : bad) {
            toServer.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            // a valid request split by a raw CR, which is only whitespace in JSON
            toServer.write("{\"jsonrpc\":\"2.0\",\r\"id\":100,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
            toServer.flush();
            Map<String, Object> first = responses.poll(20, TimeUnit.SECONDS);
            if (!line.isEmpty()) {
                assertTrue(first.containsKey("error"), line + " -> " + first);
                first = responses.poll(20, TimeUnit.SECONDS);
            }
            assertEquals(100, ((Number) first.get("id")).intValue(), line + " -> " + first);
            assertEquals(Map.of(), first.get("result"));
        }
        Map<String, Object> r = request(7, "tools/list", null);
        assertTrue(r.containsKey("result"));
    }

    /** Jackson's text for a nested wrong shape names Java classes; the client gets a plain message, same id and code. */
    @Test
    @SuppressWarnings("unchecked")
    void aNestedWrongShapeIsRefusedWithAPlainMessageAndTheServerGoesOn() throws Exception {
        Map<String, Object> refused = request(1, "initialize", Map.of("protocolVersion", "2025-11-25",
                "capabilities", Map.of("roots", "x"), "clientInfo", Map.of("name", "test", "version", "1")));
        Map<String, Object> error = (Map<String, Object>) refused.get("error");
        assertEquals(-32603, ((Number) error.get("code")).intValue());
        assertEquals(dev.engram.mcp.jsonrpc.ErrorMessages.PLAIN, error.get("message"));
        Map<String, Object> init = request(2, "initialize", Map.of("protocolVersion", "2025-11-25",
                "capabilities", Map.of(), "clientInfo", Map.of("name", "test", "version", "1")));
        assertTrue(init.containsKey("result"), init.toString());
    }

    /**
     * The smoke test that failed: a blank line and a line of bad JSON, then a ping, before any
     * initialize. The SDK holds every request but initialize until notifications/initialized, so the
     * ping went unanswered; a request other than ping is refused with what to send.
     */
    @Test
    @SuppressWarnings("unchecked")
    void beforeInitializationPingsAreAnsweredAndOtherRequestsSayWhatToSend() throws Exception {
        toServer.write("\n{bad json\n".getBytes(StandardCharsets.UTF_8));
        toServer.flush();
        Map<String, Object> parseError = responses.poll(20, TimeUnit.SECONDS);
        assertEquals(-32700, ((Number) ((Map<String, Object>) parseError.get("error")).get("code")).intValue());
        assertEquals(Map.of(), request(1, "ping", null).get("result"));
        Map<String, Object> early = request(2, "tools/list", null);
        Map<String, Object> error = (Map<String, Object>) early.get("error");
        assertEquals(-32600, ((Number) error.get("code")).intValue());
        assertTrue(((String) error.get("message")).contains("send initialize, then the notifications/initialized"), error.toString());

        request(3, "initialize", Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(),
                "clientInfo", Map.of("name", "test", "version", "1")));
        send(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        assertEquals(Map.of(), request(4, "ping", null).get("result"));
        assertEquals(9, ((List<?>) ((Map<String, Object>) request(5, "tools/list", null).get("result")).get("tools")).size());
    }
}
