package dev.engram.mcp.jsonrpc;

/**
 * The answers Engram writes outside the SDK (refusals, and pings before initialization). Errors have
 * one shape: a JSON-RPC error object without data
 * or stack trace. The id is the request's when it could be read, else JSON {@code null}, as JSON-RPC
 * asks for parse errors and invalid requests.
 */
public final class JsonRpcErrors {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int INVALID_PARAMS = -32602;

    private JsonRpcErrors() {
    }

    /** An error answer without an id. */
    public static String body(int code, String message) {
        return body(null, code, message);
    }

    /** An error answer to the request with this id: a {@link String}, a {@link Long}, or null. */
    public static String body(Object id, int code, String message) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"error\":{\"code\":" + code + ",\"message\":"
                + quote(message) + "}}";
    }

    /** A success answer with an already serialized result. */
    public static String result(Object id, String resultJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"result\":" + resultJson + "}";
    }

    private static String idJson(Object id) {
        return id == null ? "null" : id instanceof String s ? quote(s) : id.toString();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    // control characters and lone surrogates are escaped, so the line is valid UTF-8 JSON
                    if (c < 0x20 || Character.isSurrogate(c) && !validPair(s, i)) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
