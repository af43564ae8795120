package dev.engram.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.proxy.MutableClock;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpstreamConnectionTest {
    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final UpstreamConfig config = UpstreamConfig.of("fake", "fk", new UpstreamTransport.Stdio("fake", List.of(), List.of()));
    private final List<FakeSession> opened = new ArrayList<>();
    // how many next opens fail
    private int failNext;

    private UpstreamConnection connection() {
        return new UpstreamConnection(config, c -> {
            if (failNext > 0) {
                failNext--;
                throw new UpstreamException("upstream 'fake' did not start: boom");
            }
            FakeSession s = new FakeSession(List.of(FakeSession.tool("echo")),
                    r -> CallToolResult.builder().addTextContent("echo " + r.arguments().get("m")).build());
            opened.add(s);
            return s;
        }, clock, Duration.ofSeconds(5));
    }

    @Test
    void aCrashFailsTheCallInFlightClearlyAndTheNextCallReconnects() {
        UpstreamConnection c = connection();
        assertTrue(c.connect());
        opened.get(0).crashDuringNextCall = true;
        UpstreamException e = assertThrows(UpstreamException.class, () -> c.call("echo", Map.of("m", "x"), null));
        assertTrue(e.getMessage().contains("exited during the call") && e.getMessage().contains("restarts it"), e.getMessage());
        CallToolResult r = c.call("echo", Map.of("m", "again"), null);
        assertEquals(2, opened.size(), "a new session was opened");
        assertTrue(r.content().toString().contains("echo again"));
        assertEquals(1, c.status().reconnects());
    }

    @Test
    void aProcessThatDiedBetweenCallsIsRestartedBeforeTheCallIsSent() {
        UpstreamConnection c = connection();
        c.connect();
        opened.get(0).alive = false;
        CallToolResult r = c.call("echo", Map.of("m", "fresh"), null);
        assertTrue(r.content().toString().contains("echo fresh"), "nothing was sent to the dead process, so nothing can repeat");
        assertEquals(2, opened.size());
    }

    @Test
    void failedReconnectsBackOffExponentiallyUpToThirtySeconds() {
        UpstreamConnection c = connection();
        failNext = 100;
        assertFalse(c.connect());
        UpstreamException e = assertThrows(UpstreamException.class, () -> c.call("echo", Map.of(), null));
        assertTrue(e.getMessage().contains("next reconnect attempt in 1 s"), e.getMessage());
        long[] expected = {2, 4, 8, 16, 30, 30};
        for (long wait : expected) {
            clock.advance(Duration.ofSeconds(31));
            assertFalse(c.connect());
            UpstreamException again = assertThrows(UpstreamException.class, () -> c.call("echo", Map.of(), null));
            assertTrue(again.getMessage().contains("in " + wait + " s"), again.getMessage());
        }
        failNext = 0;
        assertFalse(c.connect(), "still inside the backoff window");
        clock.advance(Duration.ofSeconds(30));
        assertTrue(c.connect());
    }

    @Test
    void toolsAreThoseOfTheLastSuccessfulConnect() {
        UpstreamConnection c = connection();
        assertTrue(c.tools().isEmpty());
        c.connect();
        assertEquals("echo", c.tools().get(0).name());
    }
}
