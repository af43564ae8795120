package dev.engram.mcp.profile.brain;

import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.MemoryRules;
import dev.engram.rank.Freshness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Fields of the objects inside an array argument, each error naming its place ({@code entities[2].name}). */
final class Items {
    private Items() {
    }

    static String text(Map<String, Object> item, String array, int i, String field, boolean required, String example) {
        Object v = item.get(field);
        String where = array + "[" + i + "]." + field;
        if (v == null) {
            if (required) throw new InvalidArgumentException(where, "is required (e.g. \"" + field + "\": \"" + example + "\")");
            return null;
        }
        if (!(v instanceof String s)) {
            throw new InvalidArgumentException(where, "must be a string (e.g. \"" + field + "\": \"" + example + "\")");
        }
        MemoryRules.requireWellFormed(where, s);
        if (required && s.isBlank()) throw new InvalidArgumentException(where, "cannot be empty; send at least one visible character");
        return s;
    }

    static List<String> strings(Map<String, Object> item, String array, int i, String field) {
        Object v = item.get(field);
        String where = array + "[" + i + "]." + field;
        if (v == null) return List.of();
        if (v instanceof String s) return s.isBlank() ? List.of() : List.of(s);
        if (!(v instanceof List<?> list)) throw new InvalidArgumentException(where, "must be an array of strings (e.g. [\"uses TypeScript\"])");
        List<String> out = new ArrayList<>();
        for (int j = 0; j < list.size(); j++) {
            if (!(list.get(j) instanceof String s)) {
                throw new InvalidArgumentException(where + "[" + j + "]", "must be a string");
            }
            MemoryRules.requireWellFormed(where, s);
            if (!s.isBlank()) out.add(s);
        }
        return out;
    }

    static Integer interval(Map<String, Object> item, String array, int i, String field) {
        Object v = item.get(field);
        if (v == null) return null;
        String where = array + "[" + i + "]." + field;
        if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new InvalidArgumentException(where, "must be a whole number of days, 1.." + Freshness.MAX_REVIEW_INTERVAL_DAYS + " (e.g. 30)");
        }
        return Freshness.checkedInterval(where, (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n.longValue())));
    }

    /** An optional number (brain-tools' relevanceScore); its range is the graph's to check. */
    static Double number(Map<String, Object> item, String array, int i, String field, String example) {
        Object v = item.get(field);
        if (v == null) return null;
        if (!(v instanceof Number n) || Double.isNaN(n.doubleValue())) {
            throw new InvalidArgumentException(array + "[" + i + "]." + field, "must be a number (e.g. \"" + field + "\": " + example + ")");
        }
        return n.doubleValue();
    }

    static Boolean bool(Map<String, Object> item, String array, int i, String field) {
        Object v = item.get(field);
        if (v == null) return null;
        if (v instanceof Boolean b) return b;
        throw new InvalidArgumentException(array + "[" + i + "]." + field, "must be true or false");
    }

    static void onlyKnown(Map<String, Object> item, String array, int i, List<String> known) {
        for (String k : item.keySet()) {
            if (!known.contains(k)) {
                throw new InvalidArgumentException(array + "[" + i + "]." + k, "is not a field here; send only " + String.join(", ", known));
            }
        }
    }
}
