package dev.engram.mcp.profile.brain;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON text as brain-tools prints it, {@code JSON.stringify(data, null, 2)}: two-space indent,
 * {@code "key": value}, {@code []} and {@code {}} for empty containers, numbers as JavaScript writes
 * them (10 not 10.0). A null value is written as null; leave a key out to mean undefined.
 */
final class BrainJson {
    private BrainJson() {
    }

    static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, 0);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, int depth) {
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
                newline(out, depth + 1);
                quote(out, String.valueOf(e.getKey()));
                out.append(": ");
                write(out, e.getValue(), depth + 1);
                if (it.hasNext()) out.append(',');
            }
            newline(out, depth);
            out.append('}');
        } else if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                newline(out, depth + 1);
                write(out, list.get(i), depth + 1);
                if (i < list.size() - 1) out.append(',');
            }
            newline(out, depth);
            out.append(']');
        } else {
            quote(out, value.toString());
        }
    }

    /** A double as JavaScript prints it: integral values without a fraction, no trailing zeros. */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) return "null";
        if (d == Math.rint(d) && Math.abs(d) < 1e21) return Long.toString((long) d);
        if (Math.abs(d) >= 1e-6) return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
        String s = Double.toString(d).replace(".0E", "E").replace("E", "e");
        return s.contains("e-") ? s : s.replace("e", "e+");
    }

    private static void newline(StringBuilder out, int depth) {
        out.append('\n').append("  ".repeat(depth));
    }

    private static void quote(StringBuilder out, String s) {
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
                    boolean lone = Character.isHighSurrogate(c) ? !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1)))
                            : Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1)));
                    if (c < 0x20 || lone) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
