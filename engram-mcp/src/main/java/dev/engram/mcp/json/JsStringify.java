package dev.engram.mcp.json;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON text byte for byte as JavaScript's {@code JSON.stringify(value, null, indent)} writes it, for
 * the profiles whose upstream is a Node server (server-memory, brain-tools): agents and scripts written
 * against them see the same text, so we cannot use Jackson's pretty printer, which puts a space before
 * each colon and writes an empty array as {@code [ ]}. Maps, lists, strings, booleans, numbers (as
 * JavaScript prints them) and null; anything else is written as its string, as a Date would be.
 */
public final class JsStringify {
    private JsStringify() {
    }

    /** Compact, as {@code JSON.stringify(value)}: the JSONL line format. */
    public static String compact(Object value) {
        return stringify(value, 0);
    }

    /** Indented by two spaces, as {@code JSON.stringify(value, null, 2)}: the tools' text. */
    public static String pretty(Object value) {
        return stringify(value, 2);
    }

    public static String stringify(Object value, int indent) {
        StringBuilder out = new StringBuilder();
        write(out, value, indent, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int indent, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Number n) {
            out.append(number(n.doubleValue()));
        } else if (value instanceof Map<?, ?> map) {
            if (map.isEmpty()) {
                out.append("{}");
                return;
            }
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> it = map.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                newline(out, indent, depth + 1);
                quote(out, String.valueOf(e.getKey()));
                out.append(indent > 0 ? ": " : ":");
                write(out, e.getValue(), indent, depth + 1);
                if (it.hasNext()) out.append(',');
            }
            newline(out, indent, depth);
            out.append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                newline(out, indent, depth + 1);
                write(out, list.get(i), indent, depth + 1);
                if (i < list.size() - 1) out.append(',');
            }
            newline(out, indent, depth);
            out.append(']');
        } else {
            quote(out, value.toString());
        }
    }

    /** A double as JavaScript prints it: integral values without a fraction, no trailing zeros; NaN and infinities as null. */
    public static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == Math.rint(d) && Math.abs(d) < 1e21) return Long.toString((long) d);
        if (Math.abs(d) >= 1e-6) return new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        String e = Double.toString(d).replace(".0E", "E").replace("E", "e");
        return e.contains("e-") ? e : e.replace("e", "e+");
    }

    private static void newline(StringBuilder out, int indent, int depth) {
        if (indent == 0) return;
        out.append('\n');
        out.append(" ".repeat(indent * depth));
    }

    /** JSON.stringify's string quoting (ES2019 well-formed): short escapes, other controls and lone surrogates as lowercase u-escapes. */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        unicode(out, c);
                    } else if (Character.isHighSurrogate(c)) {
                        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                            out.append(c).append(s.charAt(++i));
                        } else {
                            unicode(out, c);
                        }
                    } else if (Character.isLowSurrogate(c)) {
                        unicode(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void unicode(StringBuilder out, char c) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        out.append("0".repeat(4 - hex.length())).append(hex);
    }
}
