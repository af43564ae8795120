package dev.engram.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class InFlightRequestsTest {
    private static Boolean requestOrResponse(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return InFlightRequests.requestOrResponse(bytes, bytes.length);
    }
    @Test
    void aRequestHasAMethodAndAnId() {
        assertEquals(Boolean.TRUE, requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":{\"id\":1}}}"));
        assertEquals(Boolean.TRUE, requestOrResponse(
                "{\"method\":\"ping\",\"params\":{},\"id\":\"a\"}"), "any field order");
    }

    @Test
    void aResponseHasAnIdAndNoMethodAtTheTopLevel() {
        assertEquals(Boolean.FALSE, requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"method\":\"nested\"}}"));
        assertEquals(Boolean.FALSE, requestOrResponse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"bad\"}}"));
    }

    @Test
    void aResponseIsKnownByItsHeadWhenTheIdComesFirst() {
        // the SDK writes id before result; the rest of a 7 KB answer is not read again
        assertEquals(Boolean.FALSE, requestOrResponse("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":["));
        assertEquals(Boolean.FALSE, requestOrResponse("{\"result\":{},\"id\":7}"), "any field order");
    }

    @Test
    @Timeout(20)
    void endOfInputWaitsOnlyUntilEveryRequestIsAnsweredEvenWhenLinesArriveInPieces() throws Exception {
        InFlightRequests inFlight = new InFlightRequests(Duration.ofMinutes(5));
        // the notification first: before it the guard answers a ping itself and the SDK never sees it
        String requests = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";
        // the two ends that report to the count on the stdio path: the guard (requests) and the output (answers)
        InputStream in = new GuardedStdin(new ByteArrayInputStream(requests.getBytes(StandardCharsets.UTF_8)), line -> {
        }, inFlight, 1 << 20);
        OutputStream out = new ScrubbedOutput(OutputStream.nullOutputStream(), inFlight::written);
        byte[] buf = new byte[7];
        // both requests (and the notification) read, EOF not yet: the guard serves one line at a time
        for (int lines = 0; lines < 3; ) {
            int b = in.read();
            assertTrue(b >= 0, "the guard must serve all three lines before EOF");
            if (b == '\n') lines++;
        }
        byte[] answers = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":["
                + "{\"name\":\"" + "x".repeat(20_000) + "\"}]}}\n").getBytes(StandardCharsets.UTF_8);
        Thread answering = new Thread(() -> {
            try {
                Thread.sleep(200);
                for (int i = 0; i < answers.length; i += 1000) out.write(answers, i, Math.min(1000, answers.length - i));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        answering.start();
        long t0 = System.nanoTime();
        assertEquals(-1, in.read(buf, 0, buf.length), "EOF is passed on once both answers are out");
        long waitedMs = (System.nanoTime() - t0) / 1_000_000;
        answering.join();
        assertTrue(waitedMs >= 150, "EOF was held back until the answers were written, waited " + waitedMs + " ms");
    }

    @Test
    void notificationsNullIdsAndNonJsonAreNeither() {
        assertNull(requestOrResponse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertNull(requestOrResponse("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700}}"));
        assertNull(requestOrResponse("[1,2]"));
        assertNull(requestOrResponse("not json {"));
        assertNull(requestOrResponse("{\"id\":1,\"method\":"));
    }
}
