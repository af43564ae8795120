package dev.engram.proxy.upstream;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stdio MCP server with one tool, {@code dump}, whose result is a text of {@code chars} 'x'
 * characters on one JSON-RPC line: with {@code chars} over the SDK client's line limit, the answer
 * is one the client refuses for its size. JDK only (started as a child JVM from the test classes);
 * it stays alive after writing, as a real server does, so an "exited" message would be wrong.
 */
public final class OversizedStdioUpstream {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\"[^\"]*\"|\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern CHARS = Pattern.compile("\"chars\"\\s*:\\s*(\\d+)");

    private OversizedStdioUpstream() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            Matcher id = ID.matcher(line);
            Matcher method = METHOD.matcher(line);
            if (!id.find() || !method.find()) continue; // a notification
            String result = switch (method.group(1)) {
                case "initialize" -> "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"tools\":{}},"
                        + "\"serverInfo\":{\"name\":\"oversized\",\"version\":\"1\"}}";
                case "tools/list" -> "{\"tools\":[{\"name\":\"dump\",\"description\":\"A long text\","
                        + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"chars\":{\"type\":\"integer\"}}}}]}";
                case "tools/call" -> {
                    Matcher chars = CHARS.matcher(line);
                    int n = chars.find() ? Integer.parseInt(chars.group(1)) : 10;
                    if (n == 0) {
                        // closes its output without answering and lives on: no exit for the proxy to see
                        out.close();
                        Thread.sleep(Long.MAX_VALUE);
                    }
                    yield "{\"content\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(n) + "\"}],\"isError\":false}";
                }
                default -> "{}";
            };
            out.print("{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ",\"result\":" + result + "}\n");
            out.flush(); // a refused line closes the client's end: the write fails, the server lives on
        }
        Thread.sleep(Long.MAX_VALUE); // stdin closed: linger like a server that ignores EOF
    }
}
