package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.CompressionMode;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * For large JSON arrays: every array keeps its first two and last item with a count of what was
 * left out, and long strings are cut, so the agent sees the schema and the size without the bulk.
 * Applies to an array of at least {@link #MIN_ITEMS} items, or an object holding one. Below the
 * footer, the sections by item range ({@code [24..35]}), each one select_chunks call away.
 */
public final class SchemaPruningStrategy implements CompressionStrategy {
    /** memtomem-stm's threshold: below this a list is read, not skimmed. */
    public static final int MIN_ITEMS = 20;
    private static final int[] STRING_CAPS = {80, 40, 16};

    private final McpJsonMapper mapper;

    public SchemaPruningStrategy(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    public CompressionMode mode() {
        return CompressionMode.SCHEMA_PRUNING;
    }

    /** True when {@code json} is a large array or an object holding one. */
    public static boolean applies(Object json) {
        if (json instanceof List<?> l) return l.size() >= MIN_ITEMS;
        if (json instanceof Map<?, ?> m) return m.values().stream().anyMatch(v -> v instanceof List<?> l && l.size() >= MIN_ITEMS);
        return false;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (!applies(in.json())) return Optional.empty();
        String footer = Footers.original(in.key(), in.raw().length(), "schema_pruning: arrays show first 2 + last item");
        for (int cap : STRING_CAPS) {
            Object pruned = prune(in.json(), cap);
            String body = write(pruned);
            if (body.length() + footer.length() <= in.budget()) {
                String view = body + footer + TableOfContents.jsonJumpList(in, body.length() + footer.length());
                return Optional.of(new Compressed(view, mode(), JsonPaths.retention(in.json(), pruned, 8)));
            }
        }
        return Optional.empty();
    }

    static Object prune(Object v, int stringCap) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, val) -> out.put(String.valueOf(k), prune(val, stringCap)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            if (l.size() <= 3) {
                for (Object o : l) out.add(prune(o, stringCap));
                return out;
            }
            out.add(prune(l.get(0), stringCap));
            out.add(prune(l.get(1), stringCap));
            out.add("... " + (l.size() - 3) + " more items (" + l.size() + " in all) ...");
            out.add(prune(l.get(l.size() - 1), stringCap));
            return out;
        }
        if (v instanceof String s && s.length() > stringCap) return TextCut.clip(s, stringCap);
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
