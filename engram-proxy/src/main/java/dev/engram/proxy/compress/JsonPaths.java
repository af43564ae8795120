package dev.engram.proxy.compress;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Key paths of a parsed JSON value ({@code a.b}, {@code items[].id}), the unit of JSON retention. */
final class JsonPaths {
    private JsonPaths() {
    }

    static Set<String> of(Object value, int maxDepth) {
        Set<String> out = new TreeSet<>();
        collect(value, "", 0, maxDepth, out);
        return out;
    }

    private static void collect(Object v, String path, int depth, int maxDepth, Set<String> out) {
        if (depth >= maxDepth) return;
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String p = path.isEmpty() ? String.valueOf(e.getKey()) : path + "." + e.getKey();
                out.add(p);
                collect(e.getValue(), p, depth + 1, maxDepth, out);
            }
        } else if (v instanceof List<?> l) {
            for (Object item : l) collect(item, path + "[]", depth, maxDepth, out);
        }
    }

    static double retention(Object original, Object view, int maxDepth) {
        Set<String> all = of(original, maxDepth);
        if (all.isEmpty()) return 1.0;
        Set<String> kept = of(view, maxDepth);
        kept.retainAll(all);
        return (double) kept.size() / all.size();
    }
}
