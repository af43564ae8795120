package dev.engram.mcp.jsonrpc;

import static dev.engram.mcp.jsonrpc.JsonRpcErrors.INVALID_PARAMS;
import static dev.engram.mcp.jsonrpc.JsonRpcErrors.INVALID_REQUEST;
import static dev.engram.mcp.jsonrpc.JsonRpcErrors.PARSE_ERROR;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * Judges one incoming JSON-RPC message before the SDK sees it. The SDK's stdio transport stops
 * reading for good on the first line it cannot turn into a message (a blank line, a batch, a bare
 * string, {@code id: null}, nesting past Jackson's limit, ...), and its sessions answer params of the
 * wrong shape with Jackson's exception text, Java class names included. Everything the SDK would
 * choke on is answered here instead, with the error JSON-RPC prescribes and a message that says
 * what to send, and only messages the SDK handles cleanly pass.
 * <p>The check is one streaming pass over the bytes with bounded depth and number length; it reads
 * the top-level fields and, for the requests Engram serves, the types of their params' fields.
 */
public final class MessageCheck {
    /** Deepest nesting accepted; MCP messages, tool arguments included, need a handful of levels. */
    public static final int MAX_DEPTH = 64;
    /** Longest number accepted, in characters; a JSON-RPC id or a tool argument never needs more. */
    public static final int MAX_NUMBER_CHARS = 100;
    private static final int MAX_QUOTED_CHARS = 80;
    private static final String ONE_MESSAGE = "send one JSON-RPC 2.0 request per line, such as "
            + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";

    /**
     * For messages from an upstream server: what its results hold is the upstream's business, so only
     * the limits Jackson itself enforces when the SDK reads them (nesting 500, numbers 1,000 chars).
     */
    public static final int UPSTREAM_MAX_DEPTH = 500;
    public static final int UPSTREAM_MAX_NUMBER_CHARS = 1000;

    private static final JsonFactory JSON = factory(MAX_DEPTH, MAX_NUMBER_CHARS);
    private static final JsonFactory UPSTREAM_JSON = factory(UPSTREAM_MAX_DEPTH, UPSTREAM_MAX_NUMBER_CHARS);

    private static JsonFactory factory(int depth, int numberChars) {
        return JsonFactory.builder().streamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(depth).maxNumberLength(numberChars).build()).build();
    }

    /** The verdict on one message. */
    public sealed interface Verdict permits Pass, Blank, Reject {
    }

    /** The SDK can take the message as it is. */
    /**
     * The SDK can take the message as it is. {@code method} is null for a response; {@code id} is
     * null for a notification; {@code name} is {@code params.name} when it is a string (the tool of a
     * {@code tools/call}, the prompt of a {@code prompts/get}), else null.
     */
    public record Pass(String method, Object id, String name) implements Verdict {
        /** A message without a named target. */
        public Pass(String method, Object id) {
            this(method, id, null);
        }

        public boolean isRequest() {
            return method != null && id != null;
        }
    }

    /** Only whitespace: not a message at all, nothing to answer. */
    public record Blank() implements Verdict {
    }

    /**
     * The message is refused. {@code answer} is false for a well-formed notification (no id), which
     * JSON-RPC never answers, not even with an error.
     */
    public record Reject(Object id, int code, String message, boolean answer) implements Verdict {
        public String body() {
            return JsonRpcErrors.body(id, code, message);
        }
    }

    private static final Verdict BLANK = new Blank();

    private enum Kind { STRING, OBJECT }

    private record Field(String name, Kind kind, boolean required) {
    }

    /** The params fields whose type the SDK relies on, per method Engram serves. */
    private static final Map<String, List<Field>> PARAMS = Map.ofEntries(
            Map.entry("initialize", List.of(new Field("protocolVersion", Kind.STRING, true),
                    new Field("capabilities", Kind.OBJECT, false), new Field("clientInfo", Kind.OBJECT, true))),
            Map.entry("tools/call", List.of(new Field("name", Kind.STRING, true),
                    new Field("arguments", Kind.OBJECT, false))),
            Map.entry("prompts/get", List.of(new Field("name", Kind.STRING, true),
                    new Field("arguments", Kind.OBJECT, false))),
            Map.entry("resources/read", List.of(new Field("uri", Kind.STRING, true))),
            Map.entry("resources/subscribe", List.of(new Field("uri", Kind.STRING, true))),
            Map.entry("resources/unsubscribe", List.of(new Field("uri", Kind.STRING, true))),
            Map.entry("tools/list", List.of(new Field("cursor", Kind.STRING, false))),
            Map.entry("prompts/list", List.of(new Field("cursor", Kind.STRING, false))),
            Map.entry("resources/list", List.of(new Field("cursor", Kind.STRING, false))),
            Map.entry("resources/templates/list", List.of(new Field("cursor", Kind.STRING, false))),
            Map.entry("logging/setLevel", List.of(new Field("level", Kind.STRING, true))),
            Map.entry("completion/complete", List.of(new Field("ref", Kind.OBJECT, true),
                    new Field("argument", Kind.OBJECT, true))));

    private static final String EXAMPLE_CALL = "{\"name\":\"<tool>\",\"arguments\":{...}}";

    private MessageCheck() {
    }

    /**
     * 3 when the bytes start with a UTF-8 byte-order mark, else 0. Jackson's byte parser skips one and
     * the SDK's character reader does not, so callers drop it before judging and passing a line on
     * (Windows shells write one when piping).
     */
    public static int bomLength(byte[] buf, int off, int len) {
        return len >= 3 && buf[off] == (byte) 0xEF && buf[off + 1] == (byte) 0xBB && buf[off + 2] == (byte) 0xBF ? 3 : 0;
    }

    /** Judges one message from a client; a leading byte-order mark must already be dropped ({@link #bomLength}). */
    public static Verdict check(byte[] buf, int off, int len) {
        return check(JSON, MAX_DEPTH, MAX_NUMBER_CHARS, buf, off, len);
    }

    /** Judges one message from an upstream server, with the SDK's own size limits ({@link #UPSTREAM_MAX_DEPTH}). */
    public static Verdict checkFromUpstream(byte[] buf, int off, int len) {
        return check(UPSTREAM_JSON, UPSTREAM_MAX_DEPTH, UPSTREAM_MAX_NUMBER_CHARS, buf, off, len);
    }

    private static Verdict check(JsonFactory json, int maxDepth, int maxNumberChars, byte[] buf, int off, int len) {
        if (isBlank(buf, off, len)) return BLANK;
        if (bomLength(buf, off, len) > 0) {
            return reject(null, PARSE_ERROR, "Parse error: the message starts with a second byte-order mark; " + ONE_MESSAGE);
        }
        for (int i = off; i < off + len; i++) {
            // never in UTF-8 JSON; and a line that starts "{\0" would make Jackson read it as UTF-16
            if (buf[i] == 0) {
                return reject(null, PARSE_ERROR, "Parse error: the message is not valid JSON (a raw NUL byte at byte "
                        + (i - off + 1) + "; send UTF-8 JSON); " + ONE_MESSAGE);
            }
        }
        int bad = firstInvalidUtf8(buf, off, len);
        if (bad >= 0) {
            return reject(null, PARSE_ERROR, "Parse error: the message is not valid JSON (the bytes are not valid UTF-8"
                    + " at byte " + (bad - off + 1) + "); " + ONE_MESSAGE);
        }
        try (JsonParser p = json.createParser(ObjectReadContext.empty(), buf, off, len)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                p.skipChildren();
                requireEnd(p);
                return first == JsonToken.START_ARRAY
                        ? reject(null, INVALID_REQUEST, "Invalid request: batches (JSON arrays) are not supported; " + ONE_MESSAGE)
                        : reject(null, INVALID_REQUEST, "Invalid request: a message is a JSON object, not "
                                + article(describe(first)) + "; " + ONE_MESSAGE);
            }
            Message m = readMessage(p);
            requireEnd(p);
            return judge(m);
        } catch (StreamConstraintsException e) {
            String what = e.getOriginalMessage() != null && e.getOriginalMessage().contains("Number")
                    ? "a number longer than " + maxNumberChars + " characters"
                    : "nesting deeper than " + maxDepth + " levels";
            return reject(null, INVALID_REQUEST, "Invalid request: the message has " + what + "; " + ONE_MESSAGE);
        } catch (JacksonException e) {
            return reject(null, PARSE_ERROR, "Parse error: the message is not valid JSON (" + reason(e) + "); " + ONE_MESSAGE);
        }
    }

    /** The top-level fields that decide what a message is, and the types of its params' fields. */
    private static final class Message {
        boolean hasJsonrpc;
        String jsonrpc;
        boolean hasId;
        Object id;
        String badId;
        boolean hasMethod;
        String method;
        JsonToken params;
        final Map<String, JsonToken> paramFields = new HashMap<>();
        String paramName;
        boolean hasResult;
        JsonToken error;
        JsonToken errorCode;
        JsonToken errorMessage;
    }

    private static Message readMessage(JsonParser p) {
        Message m = new Message();
        for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            switch (name) {
                case "jsonrpc" -> {
                    m.hasJsonrpc = true;
                    m.jsonrpc = value == JsonToken.VALUE_STRING ? p.getString() : null;
                }
                case "id" -> readId(p, value, m);
                case "method" -> {
                    m.hasMethod = true;
                    m.method = value == JsonToken.VALUE_STRING ? p.getString() : null;
                }
                case "params" -> {
                    m.params = value;
                    if (value == JsonToken.START_OBJECT) m.paramName = readFieldTypes(p, m.paramFields);
                }
                case "result" -> m.hasResult = true;
                case "error" -> {
                    m.error = value;
                    if (value == JsonToken.START_OBJECT) readError(p, m);
                }
                default -> {
                    // not ours to judge
                }
            }
            p.skipChildren();
        }
        return m;
    }

    private static void readId(JsonParser p, JsonToken value, Message m) {
        m.hasId = true;
        if (value == JsonToken.VALUE_STRING) {
            m.id = p.getString();
        } else if (value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
            m.id = p.getLongValue();
        } else {
            m.badId = value == JsonToken.VALUE_NULL ? "null" : article(describe(value));
        }
    }

    /** An error object's code (which the SDK reads as a Java int) and message; the parser ends on its END_OBJECT. */
    private static void readError(JsonParser p, Message m) {
        for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            if (name.equals("code")) {
                boolean fitsInt = value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() == JsonParser.NumberType.INT;
                m.errorCode = fitsInt ? value : JsonToken.VALUE_NUMBER_FLOAT;
            }
            if (name.equals("message")) m.errorMessage = value;
            p.skipChildren();
        }
    }

    /**
     * Reads an object's fields, noting the first token of each value; the parser ends on its END_OBJECT.
     * Returns the {@code name} field's value when it is a string.
     */
    private static String readFieldTypes(JsonParser p, Map<String, JsonToken> into) {
        String nameValue = null;
        for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
            String name = p.currentName();
            JsonToken value = p.nextToken();
            into.put(name, value);
            if (name.equals("name") && value == JsonToken.VALUE_STRING) nameValue = p.getString();
            p.skipChildren();
        }
        return nameValue;
    }

    private static Verdict judge(Message m) {
        Object id = m.badId == null ? m.id : null;
        if (m.badId != null) {
            return reject(null, INVALID_REQUEST, "Invalid request: id is " + m.badId
                    + "; an id is a string or an integer, and a notification has no id");
        }
        if (!m.hasJsonrpc || !"2.0".equals(m.jsonrpc)) {
            return reject(id, INVALID_REQUEST, "Invalid request: \"jsonrpc\" must be \"2.0\"" + (m.hasJsonrpc ? "" : " and is missing")
                    + "; " + ONE_MESSAGE);
        }
        if (m.hasMethod) return judgeRequest(m, id);
        if (m.hasResult || m.error != null) return judgeResponse(m, id);
        return reject(id, INVALID_REQUEST, "Invalid request: the message has no \"method\"; " + ONE_MESSAGE);
    }

    private static Verdict judgeRequest(Message m, Object id) {
        boolean notification = !m.hasId;
        if (m.method == null || m.method.isEmpty()) {
            return reject(id, INVALID_REQUEST, "Invalid request: \"method\" must be a non-empty string such as \"tools/list\"");
        }
        if (m.hasResult || m.error != null) {
            return reject(id, INVALID_REQUEST, "Invalid request: a request has \"method\" and no \"result\" or \"error\"");
        }
        if (m.params != null && m.params != JsonToken.START_OBJECT && m.params != JsonToken.VALUE_NULL) {
            return invalidParams(id, notification, m.method, "params must be an object, not " + article(describe(m.params))
                    + (m.method.equals("tools/call") ? "; send " + EXAMPLE_CALL : ""));
        }
        JsonToken meta = m.paramFields.get("_meta");
        if (meta != null && meta != JsonToken.START_OBJECT && meta != JsonToken.VALUE_NULL) {
            return invalidParams(id, notification, m.method, "params._meta must be an object, not " + article(describe(meta)));
        }
        for (Field f : PARAMS.getOrDefault(m.method, List.of())) {
            JsonToken t = m.paramFields.get(f.name());
            boolean absent = t == null || t == JsonToken.VALUE_NULL;
            if (absent && f.required()) {
                return invalidParams(id, notification, m.method, "params." + f.name() + " is required (" + f.kind().name().toLowerCase()
                        + ")" + hint(m.method));
            }
            if (!absent && !matches(t, f.kind())) {
                return invalidParams(id, notification, m.method, "params." + f.name() + " must be " + article(f.kind().name().toLowerCase())
                        + ", not " + article(describe(t)) + hint(m.method));
            }
        }
        return new Pass(m.method, notification ? null : id, m.paramName);
    }

    private static String hint(String method) {
        return method.equals("tools/call") ? "; send " + EXAMPLE_CALL : "";
    }

    private static Verdict judgeResponse(Message m, Object id) {
        if (!m.hasId || id == null) {
            return reject(null, INVALID_REQUEST, "Invalid request: a response needs the id of the request it answers");
        }
        if (m.hasResult == (m.error != null)) {
            return reject(null, INVALID_REQUEST, "Invalid request: a response has exactly one of \"result\" and \"error\"");
        }
        if (m.error != null && (m.error != JsonToken.START_OBJECT || m.errorCode != JsonToken.VALUE_NUMBER_INT
                || m.errorMessage != JsonToken.VALUE_STRING)) {
            return reject(null, INVALID_REQUEST, "Invalid request: \"error\" must be an object with an integer \"code\" "
                    + " within 32 bits and a string \"message\"");
        }
        return new Pass(null, id);
    }

    private static Verdict invalidParams(Object id, boolean notification, String method, String what) {
        return new Reject(id, INVALID_PARAMS, "Invalid params for " + shorten(method) + ": " + what, !notification);
    }

    private static Verdict reject(Object id, int code, String message) {
        return new Reject(id, code, message, true);
    }

    private static boolean matches(JsonToken t, Kind kind) {
        return kind == Kind.STRING ? t == JsonToken.VALUE_STRING : t == JsonToken.START_OBJECT;
    }

    private static void requireEnd(JsonParser p) {
        if (p.nextToken() != null) {
            throw new TrailingContent();
        }
    }

    /** Thrown by {@link #requireEnd}; a JacksonException so it is reported as a parse error. */
    private static final class TrailingContent extends JacksonException {
        TrailingContent() {
            super("more than one JSON value on the line");
        }
    }

    /**
     * Why the parser gave up, in our words: Jackson's own messages name its Java enums and features
     * ("enable JsonReadFeature..."), which mean nothing to a client.
     */
    static String reason(JacksonException e) {
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        String at = e.getLocation() != null && e.getLocation().getColumnNr() > 0
                ? " at column " + e.getLocation().getColumnNr() : "";
        if (e instanceof TrailingContent) return m + at;
        if (m.contains("end-of-input")) return "the line ends before the JSON value is complete";
        if (m.contains("UTF-8") || m.contains("UTF8")) return "the bytes are not valid UTF-8" + at;
        if (m.contains("CTRL-CHAR")) return "a control character must be escaped inside a string" + at;
        if (m.startsWith("Non-standard token")) return "NaN and Infinity are not JSON numbers" + at;
        int quote = m.indexOf('\'');
        int end = quote < 0 ? -1 : m.indexOf('\'', quote + 1);
        if (m.startsWith("Unrecognized token") && end > quote) {
            return "unrecognized token " + shorten(m.substring(quote, end + 1)) + at;
        }
        if (m.startsWith("Unexpected character") && end > quote) {
            return "unexpected character " + m.substring(quote, end + 1) + at;
        }
        return "unexpected input" + at;
    }

    private static String describe(JsonToken t) {
        if (t == null) return "nothing";
        return switch (t) {
            case START_ARRAY -> "array";
            case START_OBJECT -> "object";
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT -> "integer";
            case VALUE_NUMBER_FLOAT -> "decimal number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> "value";
        };
    }

    private static String article(String noun) {
        if (noun.equals("null") || noun.equals("nothing")) return noun;
        return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
    }

    private static String shorten(String s) {
        if (s == null) return "unreadable";
        String line = s.lines().findFirst().orElse("").strip();
        return line.length() > MAX_QUOTED_CHARS ? line.substring(0, MAX_QUOTED_CHARS) + "…" : line;
    }

    /**
     * The index of the first byte that breaks UTF-8 (overlong forms, surrogates and code points past
     * U+10FFFF included), or -1. Jackson checks only the strings it decodes, not those it skips.
     */
    static int firstInvalidUtf8(byte[] buf, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int b = buf[i] & 0xff;
            if (b < 0x80) {
                i++;
                continue;
            }
            int need;
            int min;
            if (b >= 0xc2 && b <= 0xdf) {
                need = 1;
                min = 0x80;
            } else if (b >= 0xe0 && b <= 0xef) {
                need = 2;
                min = 0x800;
            } else if (b >= 0xf0 && b <= 0xf4) {
                need = 3;
                min = 0x10000;
            } else {
                return i;
            }
            if (i + need >= end) return i;
            int cp = b & (0x3f >> need);
            for (int k = 1; k <= need; k++) {
                int c = buf[i + k] & 0xff;
                if ((c & 0xc0) != 0x80) return i;
                cp = (cp << 6) | (c & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
            i += need + 1;
        }
        return -1;
    }

    private static boolean isBlank(byte[] buf, int off, int len) {
        for (int i = off; i < off + len; i++) {
            byte b = buf[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') return false;
        }
        return true;
    }
}
