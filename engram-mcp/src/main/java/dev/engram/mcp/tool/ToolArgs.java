package dev.engram.mcp.tool;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;

/**
 * A tool call's arguments, turned into typed values exactly once (R4). Handlers never touch the
 * raw map. Every type error names the field, the expected JSON type and an example taken from the
 * tool's own input schema, so the agent can fix its call in one step. JSON null counts as absent.
 * Lenient where clients commonly differ: numbers and booleans sent as strings are accepted, and a
 * list may be a single comma- or semicolon-separated string.
 */
public final class ToolArgs {
    private final String tool;
    private final Map<String, Object> raw;
    private final Map<String, Object> properties;
    private final Caller caller;

    private ToolArgs(String tool, Map<String, Object> raw, Map<String, Object> properties, Caller caller) {
        this.tool = tool;
        this.raw = raw;
        this.properties = properties;
        this.caller = caller;
    }

    /**
     * Reads {@code arguments} against {@code tool}'s input schema. Unknown names are rejected when the
     * schema closes it ({@code "additionalProperties": false}, as every native schema does) and ignored
     * when it does not, as JSON Schema reads an open one (the brain tools whose brain-tools schema is open).
     */
    public static ToolArgs of(McpSchema.Tool tool, Map<String, Object> arguments) {
        return of(tool, arguments, Caller.NONE);
    }

    /** As {@link #of(McpSchema.Tool, Map)}, for a call made by {@code caller}. */
    @SuppressWarnings("unchecked")
    public static ToolArgs of(McpSchema.Tool tool, Map<String, Object> arguments, Caller caller) {
        Object props = tool.inputSchema() == null ? null : tool.inputSchema().get("properties");
        Map<String, Object> properties = props instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        Map<String, Object> raw = arguments == null ? Map.of() : arguments;
        boolean closed = tool.inputSchema() != null && Boolean.FALSE.equals(tool.inputSchema().get("additionalProperties"));
        List<String> unknown = closed ? raw.keySet().stream().filter(k -> !properties.containsKey(k)).sorted().toList() : List.of();
        if (!unknown.isEmpty()) {
            String accepted = String.join(", ", new TreeSet<>(properties.keySet()));
            String first = unknown.get(0);
            String hint = first.length() > 100 ? null : closest(first, properties.keySet());
            throw new InvalidArgumentException(first.length() > 60 ? MemoryRules.shown(first) : first,
                    "is not an argument of " + tool.name()
                    + (hint == null ? "" : " (did you mean '" + hint + "'?)")
                    + (accepted.isEmpty() ? "; it takes no arguments" : "; it accepts: " + accepted));
        }
        return new ToolArgs(tool.name(), raw, properties, java.util.Objects.requireNonNull(caller, "caller"));
    }

    public String tool() {
        return tool;
    }

    /** Who made the call: recorded on the memories it writes. */
    public Caller caller() {
        return caller;
    }

    /** Whether the tool's schema has an argument of this name (whether this call sent it or not). */
    public boolean declares(String name) {
        return properties.containsKey(name);
    }

    /** A required string; blank counts as missing. */
    public String text(String name) {
        String v = textOr(name);
        if (v == null || v.isBlank()) {
            throw new InvalidArgumentException(name, "is required: " + description(name) + example(name, "string"));
        }
        return v;
    }

    /** An optional string, or null. */
    public String textOr(String name) {
        Object v = value(name);
        if (v == null) return null;
        if (v instanceof String s) {
            MemoryRules.requireWellFormed(name, s);
            return s;
        }
        throw wrongType(name, "a string", v);
    }

    /** An optional integer within {@code min..max}, or null. */
    public Integer intOr(String name, int min, int max) {
        Object v = value(name);
        if (v == null) return null;
        long n;
        if (v instanceof java.math.BigInteger || v instanceof java.math.BigDecimal
                || v instanceof Number num0 && Math.abs(num0.doubleValue()) > Long.MAX_VALUE / 2.0) {
            // longValue() of 2^64+5 is 5: a value this large is out of range, never silently another number
            throw new InvalidArgumentException(name, "must be " + min + ".." + max + ", got "
                    + MemoryRules.shown(String.valueOf(v)).replace("'", ""));
        } else if (v instanceof Number num && num.doubleValue() == Math.rint(num.doubleValue())) {
            n = num.longValue();
        } else if (v instanceof String s && s.strip().matches("-?\\d{1,9}")) {
            n = Long.parseLong(s.strip());
        } else {
            throw wrongType(name, "an integer", v);
        }
        if (n < min || n > max) {
            throw new InvalidArgumentException(name, "must be " + min + ".." + max + ", got " + n);
        }
        return (int) n;
    }

    public int intOr(String name, int fallback, int min, int max) {
        Integer v = intOr(name, min, max);
        return v == null ? fallback : v;
    }

    /** An optional number within {@code min..max}, or null; a numeric string is accepted as for integers. */
    public Double numberOr(String name, double min, double max) {
        Object v = value(name);
        if (v == null) return null;
        double d;
        if (v instanceof Number n) {
            d = n.doubleValue();
        } else if (v instanceof String s && s.strip().matches("-?\\d{1,9}(\\.\\d{1,9})?")) {
            d = Double.parseDouble(s.strip());
        } else {
            throw wrongType(name, "a number", v);
        }
        if (!(d >= min && d <= max)) { // written so that NaN is refused too
            throw new InvalidArgumentException(name, "must be " + min + ".." + max + ", got " + d);
        }
        return d;
    }

    /** An optional boolean, false when absent. */
    public boolean bool(String name) {
        Object v = value(name);
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s);
        }
        throw wrongType(name, "a boolean", v);
    }

    /** An optional boolean, or null when absent: for flags whose default is true or depends on other arguments. */
    public Boolean boolOr(String name) {
        return value(name) == null ? null : bool(name);
    }

    /**
     * Like {@link #list} for a JSON array, but blank items are kept (unstripped), so a tool can refuse an
     * empty name rather than silently skip it; null when absent.
     */
    public List<String> listWithBlanks(String name) {
        Object v = value(name);
        if (!(v instanceof List<?> items)) return list(name);
        list(name); // the same type checks and messages
        List<String> out = new ArrayList<>(items.size());
        for (Object item : items) out.add((String) item);
        return Collections.unmodifiableList(out);
    }

    /**
     * An optional list of strings, or null: a JSON array of strings, or one string whose items are
     * separated by commas or semicolons (agents often send {@code "a, b"}).
     */
    public List<String> list(String name) {
        Object v = value(name);
        if (v == null) return null;
        if (v instanceof String s) {
            MemoryRules.requireWellFormed(name, s);
            return Arrays.stream(s.split("[,;]")).map(String::strip).filter(x -> !x.isEmpty()).toList();
        }
        if (v instanceof List<?> items) {
            List<String> out = new ArrayList<>(items.size());
            for (int i = 0; i < items.size(); i++) {
                Object item = items.get(i);
                if (!(item instanceof String s)) {
                    throw new InvalidArgumentException(name, "must be an array of strings, but item " + i + " is "
                            + describe(item) + example(name, "array"));
                }
                MemoryRules.requireWellFormed(name, s);
                if (!s.isBlank()) out.add(s.strip());
            }
            return Collections.unmodifiableList(out);
        }
        throw wrongType(name, "an array of strings", v);
    }

    /**
     * An optional array of strings exactly as sent, or null: no splitting, no trimming, blank items kept
     * (the caller decides about them). For names and texts that must come back byte for byte, such as
     * server-memory's entity names, which may hold commas and spaces.
     */
    public List<String> exactStrings(String name) {
        Object v = value(name);
        if (v == null) return null;
        if (!(v instanceof List<?> items)) throw wrongType(name, "an array of strings", v);
        return strings(name, items);
    }

    /** The items of an array of strings as they are; {@code field} names the array in messages (e.g. "entities[0].observations"). */
    public List<String> strings(String field, List<?> items) {
        List<String> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            if (!(items.get(i) instanceof String s)) {
                throw new InvalidArgumentException(field, "must be an array of strings, but item " + i + " is "
                        + describe(items.get(i)) + example(field, "array"));
            }
            MemoryRules.requireWellFormed(field + "[" + i + "]", s);
            out.add(s);
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * Like {@link #list}, for values that never contain spaces (ids, keys): a single string may also
     * separate them with spaces, as in {@code "m_abc key-2; key-3"}. Each names a memory to look up, so at most
     * {@link MemoryRules#MAX_REFERENCES} are taken.
     */
    public List<String> words(String name) {
        Object v = value(name);
        List<String> words;
        if (v instanceof String s) {
            MemoryRules.requireWellFormed(name, s);
            words = Arrays.stream(s.split("[,;\\s]+")).filter(x -> !x.isEmpty()).toList();
        } else {
            words = list(name);
        }
        if (words != null) MemoryRules.requireAtMostReferences(name, words.size());
        return words;
    }

    /** An optional JSON object, or an empty map. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object(String name) {
        Object v = value(name);
        if (v == null) return Map.of();
        if (v instanceof Map<?, ?> m) return Collections.unmodifiableMap((Map<String, Object>) m);
        throw wrongType(name, "an object", v);
    }

    /** An optional array of JSON objects, or null. */
    @SuppressWarnings("unchecked")
    public List<Map<String, Object>> objects(String name) {
        Object v = value(name);
        if (v == null) return null;
        if (!(v instanceof List<?> items)) throw wrongType(name, "an array of objects", v);
        List<Map<String, Object>> out = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            if (!(items.get(i) instanceof Map<?, ?> m)) {
                throw new InvalidArgumentException(name, "must be an array of objects, but item " + i + " is "
                        + describe(items.get(i)) + example(name, "array"));
            }
            out.add(Collections.unmodifiableMap((Map<String, Object>) m));
        }
        return Collections.unmodifiableList(out);
    }

    /** An optional closed choice parsed by the model's {@code parse(field, value)}, or null. */
    public <E> E choice(String name, BiFunction<String, String, E> parse) {
        String v = textOr(name);
        return v == null || v.isBlank() ? null : parse.apply(name, v);
    }

    /** The value sent for a declared argument, as the client sent it (null when absent). */
    public Object sent(String name) {
        return value(name);
    }

    /**
     * Whether the client sent this declared argument as JSON null, which every reader above takes as absent: for a
     * profile whose original refuses null, to say "got null" rather than "is required" of a field that was sent.
     */
    public boolean sentNull(String name) {
        return value(name) == null && raw.containsKey(name);
    }

    private Object value(String name) {
        if (!properties.containsKey(name)) {
            // a handler asking for a name its schema does not declare is our bug, not the agent's
            throw new IllegalStateException(tool + " reads undeclared argument " + name);
        }
        return raw.get(name);
    }

    private InvalidArgumentException wrongType(String name, String expected, Object got) {
        return new InvalidArgumentException(name, "must be " + expected + ", got " + describe(got)
                + example(name, expected));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> property(String name) {
        Object p = properties.get(name);
        return p instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private String description(String name) {
        Object d = property(name).get("description");
        return d == null ? "send a value" : d.toString();
    }

    /** "; e.g. "limit": 5", from the schema's first example, else a typical value for the type. */
    private String example(String name, String expected) {
        Object ex = property(name).get("examples") instanceof List<?> l && !l.isEmpty() ? l.get(0) : null;
        String shown;
        if (ex != null) {
            shown = ex instanceof String s ? quote(s) : ex instanceof List<?> list ? listLiteral(list) : JSON.write(ex);
        } else if (expected.contains("integer")) {
            shown = "5";
        } else if (expected.contains("boolean")) {
            shown = "true";
        } else if (expected.contains("array")) {
            shown = "[\"a\", \"b\"]";
        } else {
            shown = "\"text\"";
        }
        return " (e.g. \"" + name + "\": " + shown + ")";
    }

    /** Strings as the other examples quote them; objects (a graph profile's entities) as the JSON to send. */
    private static String listLiteral(List<?> list) {
        return "[" + String.join(", ", list.stream().map(o -> o instanceof String str ? quote(str) : JSON.write(o)).toList()) + "]";
    }

    private static final dev.engram.mcp.json.JsonText JSON = dev.engram.mcp.json.JsonText.standard();

    /** A sent value in a message: its JSON type, and a short string or number as sent. */
    public static String describe(Object v) {
        if (v instanceof String s) return "string " + quote(s.length() > 40 ? s.substring(0, 40) + "…" : s);
        if (v instanceof Boolean b) return "boolean " + b;
        if (v instanceof Number n) return "number " + n;
        if (v instanceof List<?>) return "an array";
        if (v instanceof Map<?, ?>) return "an object";
        return v == null ? "null" : v.getClass().getSimpleName();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\\\"") + "\"";
    }

    /** The accepted name within edit distance 2 of a typo, if exactly one is that close. */
    static String closest(String typo, Set<String> names) {
        String best = null;
        int bestDistance = 3;
        for (String n : names) {
            int d = distance(typo.toLowerCase(java.util.Locale.ROOT), n);
            if (d < bestDistance) {
                best = n;
                bestDistance = d;
            }
        }
        return best;
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) prev[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
