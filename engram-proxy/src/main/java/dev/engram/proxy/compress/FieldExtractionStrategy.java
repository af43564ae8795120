package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.CompressionMode;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For nested JSON objects: every top-level key stays; a nested object shows up to
 * {@link #NESTED_KEYS} of its keys with short previews, an array its length and first item. The
 * agent sees which fields exist and where; below the footer, the sections by key range
 * ({@code server.option_0 .. option_11}) let it read the one it needs in full in one call.
 */
public final class FieldExtractionStrategy implements CompressionStrategy {
    /** memtomem-stm: a dict with this many nested dict/list values is "nested". */
    public static final int MIN_NESTED_VALUES = 3;
    public static final int NESTED_KEYS = 6;
    public static final int VALUE_CHARS = 80;

    private final McpJsonMapper mapper;

    public FieldExtractionStrategy(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public CompressionMode mode() {
        return CompressionMode.EXTRACT_FIELDS;
    }

    public static boolean applies(Object json) {
        return json instanceof Map<?, ?> m
                && m.values().stream().filter(v -> v instanceof Map<?, ?> || v instanceof List<?>).count() >= MIN_NESTED_VALUES;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (!(in.json() instanceof Map<?, ?> root) || !applies(root)) return Optional.empty();
        Map<String, Object> view = new LinkedHashMap<>();
        root.forEach((k, v) -> view.put(String.valueOf(k), level1(v)));
        String footer = Footers.original(in.key(), in.raw().length(), "extract_fields: all top-level keys, nested values previewed");
        String body = write(view);
        if (body.length() + footer.length() > in.budget()) return Optional.empty();
        String jump = TableOfContents.jsonJumpList(in, body.length() + footer.length());
        // retention counts top-level keys: each one is present, and its full value is one select_chunks away
        return Optional.of(new Compressed(body + footer + jump, mode(), JsonPaths.retention(root, view, 1)));
    }

    private static Object level1(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            int n = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (n++ == NESTED_KEYS) {
                    out.put("…", (m.size() - NESTED_KEYS) + " more keys");
                    break;
                }
                out.put(String.valueOf(e.getKey()), preview(e.getValue()));
            }
            return out;
        }
        if (v instanceof List<?> l) {
            return l.isEmpty() ? l : List.of("[" + l.size() + " items] first: " + preview(l.get(0)));
        }
        return preview(v);
    }

    private static Object preview(Object v) {
        if (v instanceof Map<?, ?> m) return "{… " + m.size() + " keys}";
        if (v instanceof List<?> l) return "[… " + l.size() + " items]";
        if (v instanceof String s && s.length() > VALUE_CHARS) return TextCut.clip(s, VALUE_CHARS);
        return v;
    }

    private String write(Object v) {
        try {
            return mapper.writeValueAsString(v);
        } catch (IOException e) {
            throw new IllegalStateException("re-serializing parsed JSON failed", e);
        }
    }
}
