package dev.engram.cli;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stdio MCP server with two tools, {@code echo} and {@code wipe}, for CLI tests that start a real
 * upstream (a child JVM on the test class path, JDK only). {@code echo} returns its {@code text}.
 */
public final class FakeStdioUpstream {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(\"[^\"]*\"|\\d+)");
    private static final Pattern METHOD = Pattern.compile("\"method\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern TEXT = Pattern.compile("\"text\"\\s*:\\s*\"([^\"]*)\"");

    private FakeStdioUpstream() {
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
                        + "\"serverInfo\":{\"name\":\"fake\",\"version\":\"1\"}}";
                case "tools/list" -> "{\"tools\":[{\"name\":\"echo\",\"description\":\"Echoes\",\"inputSchema\":{\"type\":\"object\","
                        + "\"properties\":{\"text\":{\"type\":\"string\"}}}},{\"name\":\"wipe\",\"description\":\"Wipes\","
                        + "\"inputSchema\":{\"type\":\"object\"}}]}";
                case "tools/call" -> {
                    Matcher text = TEXT.matcher(line);
                    yield "{\"content\":[{\"type\":\"text\",\"text\":\"" + (text.find() ? text.group(1) : "") + "\"}],\"isError\":false}";
                }
                default -> "{}";
            };
            out.print("{\"jsonrpc\":\"2.0\",\"id\":" + id.group(1) + ",\"result\":" + result + "}\n");
            out.flush();
        }
    }
}
