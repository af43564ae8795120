package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.MutableClock;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Calls that overlap on one upstream: a timeout or a cancel of one call must not end the others
 * (the probe's #3 and #4), and a slow start must not block status or other upstreams (#2).
 */
class UpstreamCallsTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final UpstreamConfig config = UpstreamConfig.of("fake", "fk", new UpstreamTransport.Stdio("fake", List.of(), List.of()));
    private final List<Session> opened = new CopyOnWriteArrayList<>();
    private final CountDownLatch slowMayAnswer = new CountDownLatch(1);

    /** "hang" times out as McpUpstreamSession reports it; "slow" answers when the test lets it; "wait" waits for a cancel. */
    final class Session implements UpstreamSession {
        volatile boolean closed;
        final List<String> cancelled = new CopyOnWriteArrayList<>();

        @Override
        public List<io.modelcontextprotocol.spec.McpSchema.Tool> listTools() {
            return List.of(FakeSession.tool("slow"));
        }

        @Override
        public CallToolResult call(CallToolRequest request, Duration timeout) {
            return call(request, timeout, null);
        }

        @Override
        public CallToolResult call(CallToolRequest request, Duration timeout, CompletableFuture<String> cancel) {
            if (closed) throw new UpstreamException("upstream 'fake' failed: MCP session with server terminated");
            switch (request.name()) {
                case "hang" -> throw new UpstreamException("upstream 'fake' did not answer within 5 s", null, UpstreamException.Kind.TIMED_OUT);
                case "wait" -> {
                    String why = cancel.join();
                    cancelled.add(why);
                    throw new UpstreamException("the call to upstream 'fake' was cancelled by the agent", null, UpstreamException.Kind.CANCELLED);
                }
                default -> {
                    try {
                        slowMayAnswer.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    if (closed) throw new UpstreamException("upstream 'fake' failed: MCP session with server terminated");
                    return CallToolResult.builder().addTextContent("slow done").build();
                }
            }
        }

        @Override
        public boolean alive() {
            return !closed;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private UpstreamConnection connection() {
        return new UpstreamConnection(config, c -> {
            Session s = new Session();
            opened.add(s);
            return s;
        }, clock, Duration.ofSeconds(5));
    }

    private static void eventually(java.util.function.BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError(what);
            Thread.sleep(5);
        }
    }

    @Test
    void aTimedOutCallLeavesTheOtherCallsOnItsServerRunningAndTheNextCallStartsAFreshOne() throws Exception {
        UpstreamConnection c = connection();
        assertTrue(c.connect());
        CompletableFuture<CallToolResult> slow = CompletableFuture.supplyAsync(() -> c.call("slow", Map.of(), null));
        Thread.sleep(100); // the slow call is running on the first server
        UpstreamException timedOut = assertThrows(UpstreamException.class, () -> c.call("hang", Map.of(), null));
        assertEquals(UpstreamException.Kind.TIMED_OUT, timedOut.kind());
        assertTrue(timedOut.getMessage().startsWith("upstream 'fake' did not answer within 5 s;"), timedOut.getMessage());
        assertFalse(opened.get(0).closed, "the server still runs the slow call: it is not killed");
        slowMayAnswer.countDown();
        assertTrue(slow.get(10, TimeUnit.SECONDS).content().toString().contains("slow done"), "the slow call got its answer");
        eventually(() -> opened.get(0).closed, "the retired server is closed once its last call ended");
        assertEquals("slow done", ((io.modelcontextprotocol.spec.McpSchema.TextContent) c.call("slow", Map.of(), null).content().get(0)).text());
        assertEquals(2, opened.size(), "the call after the timeout went to a fresh server");
    }

    @Test
    void aTimeoutWithNoOtherCallClosesTheServerAtOnce() throws Exception {
        UpstreamConnection c = connection();
        c.connect();
        assertThrows(UpstreamException.class, () -> c.call("hang", Map.of(), null));
        eventually(() -> opened.get(0).closed, "closed when the timed-out call was its only one");
    }

    @Test
    void aCallTheAgentCancelsIsCancelledUpstreamAndRestartsNothing() throws Exception {
        UpstreamConnection c = connection();
        c.connect();
        CompletableFuture<String> cancel = new CompletableFuture<>();
        CompletableFuture<Throwable> call = CompletableFuture.supplyAsync(() -> {
            try {
                c.call("wait", Map.of(), null, cancel);
                return null;
            } catch (UpstreamException e) {
                return e;
            }
        });
        Thread.sleep(50);
        cancel.complete("user pressed stop");
        UpstreamException e = (UpstreamException) call.get(10, TimeUnit.SECONDS);
        assertEquals(UpstreamException.Kind.CANCELLED, e.kind());
        assertEquals(List.of("user pressed stop"), opened.get(0).cancelled);
        assertFalse(opened.get(0).closed, "a cancel is not a failure of the server");
        assertTrue(c.connected());
        assertEquals(1, opened.size());
        assertEquals(0, c.status().reconnects());
    }

    @Test
    void statusAndToolsAnswerWhileTheServerIsStillStarting() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        UpstreamConnection c = new UpstreamConnection(config, cfg -> {
            started.countDown();
            try {
                finish.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Session();
        }, clock, Duration.ofSeconds(5));
        CompletableFuture<Boolean> connecting = CompletableFuture.supplyAsync(c::connect);
        assertTrue(started.await(10, TimeUnit.SECONDS));
        // before: connect held the connection's lock while the server started, so these waited for it
        CompletableFuture<UpstreamConnection.Status> status = CompletableFuture.supplyAsync(c::status);
        UpstreamConnection.Status s = status.get(2, TimeUnit.SECONDS);
        assertTrue(s.connecting() && !s.connected(), s.toString());
        assertTrue(c.tools().isEmpty());
        // a call that comes meanwhile waits for that start instead of starting a second server
        CompletableFuture<CallToolResult> call = CompletableFuture.supplyAsync(() -> c.call("hang2", Map.of(), null));
        Thread.sleep(50);
        finish.countDown();
        assertTrue(connecting.get(10, TimeUnit.SECONDS));
        slowMayAnswer.countDown();
        assertTrue(call.get(10, TimeUnit.SECONDS).content().toString().contains("slow done"));
        assertFalse(c.status().connecting());
    }
}
