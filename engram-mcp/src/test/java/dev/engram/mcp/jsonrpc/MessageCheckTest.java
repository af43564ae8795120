package dev.engram.mcp.jsonrpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MessageCheckTest {
    private static MessageCheck.Verdict check(String line) {
        byte[] b = line.getBytes(StandardCharsets.UTF_8);
        return MessageCheck.check(b, 0, b.length);
    }

    private static MessageCheck.Reject rejected(String line, Object id, int code) {
        MessageCheck.Reject r = assertInstanceOf(MessageCheck.Reject.class, check(line), line);
        assertEquals(id, r.id(), line);
        assertEquals(code, r.code(), line);
        assertTrue(r.answer(), line);
        return r;
    }

    @Test
    void wellFormedMessagesPass() {
        for (String ok : new String[] {
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"method\":\"ping\",\"id\":\"a-b\",\"jsonrpc\":\"2.0\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"recall\",\"arguments\":{\"query\":\"x\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"stats\",\"arguments\":null}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-1,\"message\":\"no\"}}",
                "  {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r"}) {
            assertInstanceOf(MessageCheck.Pass.class, check(ok), ok);
        }
        assertInstanceOf(MessageCheck.Blank.class, check(" \t\r"));
    }

    @Test
    void eachClassOfBadLineGetsTheErrorJsonRpcPrescribes() {
        rejected("hello", null, JsonRpcErrors.PARSE_ERROR);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":5", null, JsonRpcErrors.PARSE_ERROR);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":NaN,\"method\":\"ping\"}", null, JsonRpcErrors.PARSE_ERROR);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} 5", null, JsonRpcErrors.PARSE_ERROR);
        rejected("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("\"str\"", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":1e3,\"method\":\"ping\"}", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"id\":4,\"method\":\"ping\"}", 4L, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":\"x\"}", "x", JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}", 9L, JsonRpcErrors.INVALID_PARAMS);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":[]}}",
                9L, JsonRpcErrors.INVALID_PARAMS);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":3}}", 9L, JsonRpcErrors.INVALID_PARAMS);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":\"x\"}", 9L, JsonRpcErrors.INVALID_PARAMS);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\",\"params\":{}}", 9L, JsonRpcErrors.INVALID_PARAMS);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":\"bad\"}", null, JsonRpcErrors.INVALID_REQUEST);
        rejected("{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":2147483648,\"message\":\"x\"}}", null, JsonRpcErrors.INVALID_REQUEST);
        // Jackson reads "{" followed by NUL as UTF-16; the SDK reads UTF-8 and would stop serving
        byte[] utf16 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        assertEquals(JsonRpcErrors.PARSE_ERROR, assertInstanceOf(MessageCheck.Reject.class, MessageCheck.check(utf16, 0, utf16.length)).code());
        byte[] bom = "\uFEFF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        assertEquals(3, MessageCheck.bomLength(bom, 0, bom.length));
        assertInstanceOf(MessageCheck.Pass.class, MessageCheck.check(bom, 3, bom.length - 3));
    }

    @Test
    void depthAndNumberLengthAreBoundedWithAMessageThatSaysSo() {
        String deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + "[".repeat(65) + "]".repeat(65) + "}}";
        assertTrue(rejected(deep, null, JsonRpcErrors.INVALID_REQUEST).message().contains("deeper than 64"));
        String shallow = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":" + "[".repeat(60) + "]".repeat(60) + "}}";
        assertInstanceOf(MessageCheck.Pass.class, check(shallow));
        String big = "{\"jsonrpc\":\"2.0\",\"id\":" + "9".repeat(5000) + ",\"method\":\"ping\"}";
        assertTrue(rejected(big, null, JsonRpcErrors.INVALID_REQUEST).message().contains("number longer than"));
    }

    /** An upstream's result may nest as deep as the SDK reads (its own business); a client's request may not. */
    @Test
    void upstreamMessagesGetTheSdksLimitsNotTheClientOnes() {
        String deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":" + "[".repeat(200) + "]".repeat(200) + "}}";
        byte[] b = deep.getBytes(StandardCharsets.UTF_8);
        assertInstanceOf(MessageCheck.Reject.class, MessageCheck.check(b, 0, b.length));
        assertInstanceOf(MessageCheck.Pass.class, MessageCheck.checkFromUpstream(b, 0, b.length));
        String tooDeep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"x\":" + "[".repeat(600) + "]".repeat(600) + "}}";
        byte[] t = tooDeep.getBytes(StandardCharsets.UTF_8);
        assertTrue(assertInstanceOf(MessageCheck.Reject.class, MessageCheck.checkFromUpstream(t, 0, t.length)).message()
                .contains("deeper than 500"));
    }

    @Test
    void invalidUtf8AndRawControlCharactersAreParseErrors() {
        byte[] head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"".getBytes(StandardCharsets.UTF_8);
        for (byte[] bad : new byte[][] {{(byte) 0xff}, {(byte) 0xc3}, {0}, {(byte) 0xed, (byte) 0xa0, (byte) 0x80}}) {
            byte[] line = Arrays.copyOf(head, head.length + bad.length + 3);
            System.arraycopy(bad, 0, line, head.length, bad.length);
            System.arraycopy("\"}}".getBytes(StandardCharsets.UTF_8), 0, line, head.length + bad.length, 3);
            MessageCheck.Reject r = assertInstanceOf(MessageCheck.Reject.class, MessageCheck.check(line, 0, line.length));
            assertEquals(JsonRpcErrors.PARSE_ERROR, r.code(), r.message());
        }
    }

    @Test
    void utf8ValidationAcceptsEveryPlaneAndRejectsOverlongsAndSurrogates() {
        byte[] good = "aé€😀한".getBytes(StandardCharsets.UTF_8);
        assertEquals(-1, MessageCheck.firstInvalidUtf8(good, 0, good.length));
        assertEquals(0, MessageCheck.firstInvalidUtf8(new byte[] {(byte) 0xc0, (byte) 0x80}, 0, 2)); // overlong NUL
        assertEquals(0, MessageCheck.firstInvalidUtf8(new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, 0, 3)); // surrogate
        assertEquals(0, MessageCheck.firstInvalidUtf8(new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, 0, 4));
        assertEquals(1, MessageCheck.firstInvalidUtf8(new byte[] {'a', (byte) 0xe2, (byte) 0x82}, 0, 3)); // cut short
    }

    @Test
    void aNotificationWithBadParamsIsDroppedNotAnswered() {
        MessageCheck.Reject r = assertInstanceOf(MessageCheck.Reject.class,
                check("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":[1]}"));
        assertFalse(r.answer());
    }

    @Test
    void randomBytesNeverThrowAndNoMessageNamesJavaOrJackson() {
        Random random = new Random(13);
        String[] pieces = {"{", "}", "[", "]", "\"", ":", ",", "\"jsonrpc\"", "\"2.0\"", "\"id\"", "\"method\"", "\"params\"",
            "null", "1", "-0.5e9", "true", "\\u12", "\\\"", "NaN", "\u00e9", "\uD83D\uDE00", " ", "\t", "\"tools/call\"",
            "\"arguments\"", "\"name\""};
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(30);
            for (int j = 0; j < n; j++) sb.append(pieces[random.nextInt(pieces.length)]);
            byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(10) == 0 && b.length > 0) b[random.nextInt(b.length)] = (byte) random.nextInt(256);
            MessageCheck.Verdict v = MessageCheck.check(b, 0, b.length);
            if (v instanceof MessageCheck.Reject r) {
                assertFalse(r.message().matches("(?s).*(java\\.|jackson|Exception|JsonReadFeature|StreamRead).*"), r.message());
                assertTrue(r.message().length() < 400, r.message());
            }
        }
    }

    @Test
    void boundedLinesKeepTheHeadAndTailOfATooLongLineAndReadOnNormally() throws IOException {
        String longLine = "{\"id\":1," + "x".repeat(10_000) + ",\"end\":2}";
        String text = "short\n" + longLine + "\nnext\nlast-without-newline";
        BoundedLines lines = new BoundedLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 100);
        assertTrue(lines.next());
        assertEquals("short", new String(lines.buffer(), 0, lines.kept(), StandardCharsets.UTF_8));
        assertFalse(lines.tooLong());
        assertTrue(lines.next());
        assertTrue(lines.tooLong());
        assertEquals(longLine.length(), lines.length());
        assertEquals(longLine.substring(0, 100), new String(lines.buffer(), 0, lines.kept(), StandardCharsets.UTF_8));
        assertEquals(longLine.substring(longLine.length() - BoundedLines.TAIL_BYTES), new String(lines.tail(), StandardCharsets.UTF_8));
        assertTrue(lines.next());
        assertEquals("next", new String(lines.buffer(), 0, lines.kept(), StandardCharsets.UTF_8));
        assertEquals(0, lines.tail().length);
        assertTrue(lines.next());
        assertEquals("last-without-newline", new String(lines.buffer(), 0, lines.kept(), StandardCharsets.UTF_8));
        assertFalse(lines.next());
    }
}
