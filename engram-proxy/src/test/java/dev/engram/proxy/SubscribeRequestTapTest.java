package dev.engram.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubscribeRequestTapTest {
    private final List<String> seen = new ArrayList<>();

    private byte[] readAll(String input, int chunk) throws IOException {
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        InputStream tap = new SubscribeRequestTap(new ByteArrayInputStream(bytes), JsonText.standard().mapper(),
                (method, uri) -> seen.add(method + " " + uri));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[chunk];
        for (int n; (n = tap.read(buf, 0, chunk)) >= 0; ) out.write(buf, 0, n);
        return out.toByteArray();
    }

    @Test
    void reportsSubscribeAndUnsubscribeRequestsAndPassesEveryByteOn() throws IOException {
        String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"q\":\"resources/subscribe\"}}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"ev+test://static/1\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"no+id://is/a/notification\"}}\n"
                + "not json at all resources/subscribe\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/unsubscribe\",\"params\":{\"uri\":\"ev+test://static/1\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"resources/subscribe\",\"params\":{\"uri\":7}}\n";
        // read in small pieces: a request split across reads is still seen whole
        assertArrayEquals(input.getBytes(StandardCharsets.UTF_8), readAll(input, 7), "the server gets exactly what the agent sent");
        assertEquals(List.of("resources/subscribe ev+test://static/1", "resources/unsubscribe ev+test://static/1"), seen);
    }

    @Test
    void anOverlongLineIsPassedOnButNotParsed() throws IOException {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"a+b://c\",\"pad\":\""
                + "x".repeat(SubscribeRequestTap.MAX_WATCHED_LINE) + "\"}}\n";
        String next = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"a+b://d\"}}\n";
        byte[] out = readAll(big + next, 4096);
        assertEquals(big.length() + next.length(), out.length);
        assertEquals(List.of("resources/subscribe a+b://d"), seen, "the line after an overlong one is watched again");
    }
}
