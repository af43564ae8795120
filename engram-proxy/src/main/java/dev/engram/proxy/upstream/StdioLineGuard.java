package dev.engram.proxy.upstream;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The JSON mapper of a stdio upstream's transport, guarding its message size. The SDK's stdio client
 * refuses a line over its limit by closing the upstream's output without a word to the pending call:
 * the proxy then saw a timeout, or an upstream that "exited during the call" (a node server dies of
 * the broken pipe). So the SDK is let read up to {@link #READ_LIMIT_CHARS}, and a line over
 * {@link #MAX_LINE_CHARS} (the SDK's own default limit, so nothing it accepted is refused) is
 * answered here instead: a JSON-RPC error for the request it answers, {@link #TOO_LARGE_CODE}, which
 * {@link McpUpstreamSession} turns into a clear message. The session stays usable; a line over
 * {@link #READ_LIMIT_CHARS} still ends it, as before.
 */
final class StdioLineGuard implements McpJsonMapper {
    /** What the proxy accepts per message: the SDK stdio client's default (16 Mi chars). */
    static final int MAX_LINE_CHARS = 16 * 1024 * 1024;
    /** What the SDK reads before it gives up; twice the accepted size, so the refusal can be explained. */
    static final int READ_LIMIT_CHARS = 2 * MAX_LINE_CHARS;
    /** In JSON-RPC's implementation-defined server error range. */
    static final int TOO_LARGE_CODE = -32099;

    private final McpJsonMapper delegate;
    private final int maxLineChars;

    StdioLineGuard(McpJsonMapper delegate, int maxLineChars) {
        this.delegate = delegate;
        this.maxLineChars = maxLineChars;
    }

    int maxLineChars() {
        return maxLineChars;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T readValue(String content, TypeRef<T> type) throws IOException {
        // the transport reads every inbound line as a map first (McpSchema.deserializeJsonRpcMessage)
        if (content.length() <= maxLineChars) return delegate.readValue(content, type);
        return (T) refusal(content);
    }

    /** An error response to the request the line answers; a notification (no id) becomes an unknown one, dropped. */
    private Map<String, Object> refusal(String line) {
        Map<String, Object> msg = new HashMap<>();
        msg.put("jsonrpc", "2.0");
        Object id = topLevelId(line);
        if (id == null) {
            msg.put("method", "notifications/engram/too_large");
            return msg;
        }
        msg.put("id", id);
        msg.put("error", Map.of("code", TOO_LARGE_CODE, "message", "response of " + line.length()
                + " characters, over the limit of " + maxLineChars, "data", Map.of("chars", line.length(), "limit", maxLineChars)));
        return msg;
    }

    /**
     * The {@code id} member of the top-level object (a string or a number), or null. Scans the
     * structure: a response puts its id anywhere (the TypeScript SDK writes it after the result), and
     * nested objects may have ids of their own.
     */
    static Object topLevelId(String line) {
        int depth = 0;
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (c == '"') {
                int end = stringEnd(line, i);
                if (depth == 1 && end - i == 4 && line.startsWith("\"id\"", i)) {
                    int v = skipSpaces(line, end);
                    if (v < n && line.charAt(v) == ':') return value(line, skipSpaces(line, v + 1));
                }
                i = end;
                continue;
            }
            if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') depth--;
            i++;
        }
        return null;
    }

    private static Object value(String line, int at) {
        if (at >= line.length()) return null;
        if (line.charAt(at) == '"') {
            int end = stringEnd(line, at);
            return line.substring(at + 1, Math.max(at + 1, end - 1)); // request ids carry no escapes
        }
        int end = at;
        while (end < line.length() && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '-')) end++;
        if (end == at) return null;
        try {
            return Long.parseLong(line.substring(at, end));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Index after the string starting at {@code at}, or the line's end if it is not closed. */
    private static int stringEnd(String line, int at) {
        int i = at + 1;
        while (i < line.length() && line.charAt(i) != '"') i += line.charAt(i) == '\\' ? 2 : 1;
        return Math.min(line.length(), i + 1);
    }

    private static int skipSpaces(String line, int at) {
        while (at < line.length() && Character.isWhitespace(line.charAt(at))) at++;
        return at;
    }

    @Override
    public <T> T readValue(String content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, Class<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
        return delegate.readValue(content, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        return delegate.convertValue(fromValue, type);
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(value);
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(value);
    }
}
