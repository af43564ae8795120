package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A stdio upstream whose answer is over the SDK client's line limit ({@link OversizedStdioUpstream},
 * a child JVM): the call gets a message that says so, at once, and the connection stays usable.
 * Before, the SDK closed the upstream's output silently and the call waited out its timeout (or, for
 * a node server that died of the broken pipe, was told the upstream "exited during the call").
 */
class OversizedResultTest {
    private static final int OVER = GuardedStdioClientTransport.MAX_LINE_BYTES + 1000;

    @Test
    void aResponseOverTheLineLimitIsReportedAsTooLargeAndTheSessionSurvives() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classes = Path.of(OversizedStdioUpstream.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        UpstreamConfig config = UpstreamConfig.of("big", "big", new UpstreamTransport.Stdio(java,
                List.of("-Xmx256m", "-cp", classes, OversizedStdioUpstream.class.getName()), List.of()));
        // a call timeout far above the test's wait: the old behaviour (waiting it out) cannot pass for the new one
        Duration callTimeout = Duration.ofSeconds(120);
        try (McpSessionOpener opener = new McpSessionOpener(McpJsonDefaults.getMapper(), System.getenv(), "test",
                Duration.ofSeconds(30), callTimeout, new ProgressRelay());
             UpstreamConnection upstream = new UpstreamConnection(config, opener, Clock.systemUTC(), callTimeout)) {
            assertEquals(100, text(upstream.call("dump", Map.of("chars", 100), null)).length());

            long started = System.nanoTime();
            UpstreamException e = assertThrows(UpstreamException.class,
                    () -> upstream.call("dump", Map.of("chars", OVER), null));
            assertFalse(e.sessionBroken());
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            String m = e.getMessage();
            assertTrue(m.contains("upstream 'big' answered, but its response was too large"), m);
            // the line is the JSON-RPC envelope around the text: longer than the text, never shorter
            assertTrue(m.matches("(?s).* (\\d+) bytes in one message, the limit is " + GuardedStdioClientTransport.MAX_LINE_BYTES + ";.*"), m);
            long chars = Long.parseLong(m.replaceAll("(?s).* (\\d+) bytes in one message.*", "$1"));
            assertTrue(chars > OVER && chars < OVER + 200, m);
            assertTrue(m.contains("Ask it for less"), m);
            assertFalse(m.contains("exited"), m);
            assertTrue(seconds < callTimeout.toSeconds(), "took " + seconds + " s");

            // same session, same process: nothing was restarted
            UpstreamConnection.Status status = upstream.status();
            assertTrue(status.connected());
            assertEquals(0, status.reconnects());
            assertNull(status.lastError());
            assertEquals(42, text(upstream.call("dump", Map.of("chars", 42), null)).length());
        }
    }

    /** An upstream that closes its output without answering (and does not exit): the call fails at once. */
    @Test
    void aCallWhoseUpstreamClosesItsOutputFailsAtOnceNotAtTheTimeout() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classes = Path.of(OversizedStdioUpstream.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        UpstreamConfig config = UpstreamConfig.of("mute", "mute", new UpstreamTransport.Stdio(java,
                List.of("-Xmx128m", "-cp", classes, OversizedStdioUpstream.class.getName()), List.of()));
        Duration callTimeout = Duration.ofSeconds(120);
        try (McpSessionOpener opener = new McpSessionOpener(McpJsonDefaults.getMapper(), System.getenv(), "test",
                Duration.ofSeconds(30), callTimeout, new ProgressRelay());
             UpstreamConnection upstream = new UpstreamConnection(config, opener, Clock.systemUTC(), callTimeout)) {
            assertEquals(5, text(upstream.call("dump", Map.of("chars", 5), null)).length());
            long started = System.nanoTime();
            UpstreamException e = assertThrows(UpstreamException.class, () -> upstream.call("dump", Map.of("chars", 0), null));
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertTrue(e.getMessage().contains("output ended before it answered"), e.getMessage());
            assertTrue(e.sessionBroken(), "a connection whose output ended is dropped");
            assertTrue(seconds < 30, "took " + seconds + " s; the timeout is " + callTimeout.toSeconds() + " s");
            // the next call restarts the upstream and is answered
            assertEquals(7, text(upstream.call("dump", Map.of("chars", 7), null)).length());
        }
    }

    @Test
    void findsTheTopLevelIdAtTheStartOrTheEndOfTheLine() {
        assertEquals("abc-7", GuardedStdioClientTransport.responseId("{\"jsonrpc\":\"2.0\",\"id\":\"abc-7\",\"result\":{", ""));
        assertEquals(5L, GuardedStdioClientTransport.responseId("{\"id\":5,\"result\":{\"content\":[", ""));
        // the TypeScript SDK writes the id last; a nested id near the start does not count
        assertEquals(12L, GuardedStdioClientTransport.responseId("{\"result\":{\"content\":[{\"id\":3,\"text\":\"",
                "xxxx\"}]},\"jsonrpc\":\"2.0\", \"id\" : 12}"));
        assertNull(GuardedStdioClientTransport.responseId("{\"result\":{\"content\":[{\"id\":3,", "xxxx\"}]}}"));
    }

    private static String text(CallToolResult r) {
        return ((TextContent) r.content().get(0)).text();
    }
}
