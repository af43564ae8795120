package dev.engram.mcp.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.engram.mcp.jsonrpc.ErrorMessages;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScrubbedOutputTest {
    private static String through(String... writes) throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ScrubbedOutput out = new ScrubbedOutput(sink, (line, length) -> { })) {
            for (String w : writes) out.write(w.getBytes(StandardCharsets.UTF_8));
        }
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void anErrorNamingJavaClassesIsRewrittenWithItsIdAndCode() throws Exception {
        String leak = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"tools.jackson.databind.exc."
                + "MismatchedInputException: Cannot construct instance of `io.modelcontextprotocol.spec.McpSchema$X`\"}}";
        assertEquals(JsonRpcErrors.body(1L, -32603, ErrorMessages.PLAIN) + "\n", through(leak, "\n"));
    }

    @Test
    void everythingElsePassesByteForByteWhateverTheWriteBoundaries() throws Exception {
        String ok = "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"an \\\"error\\\": here\"}],"
                + "\"structuredContent\":{\"error\":{\"message\":\"java.lang.X inside a result is the tool's content\"}}}}\n";
        String plainError = "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"Method not found: x\"}}\n";
        assertEquals(ok + plainError, through(ok.substring(0, 10), ok.substring(10), plainError));
        assertEquals(ok, through(ok));
    }
}
