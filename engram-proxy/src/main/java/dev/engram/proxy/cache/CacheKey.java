package dev.engram.proxy.cache;

import dev.engram.crypto.Sha256;
import io.modelcontextprotocol.json.McpJsonMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * SHA-256 of server, tool and the arguments in canonical JSON (object keys sorted at every level),
 * so {@code {"a":1,"b":2}} and {@code {"b":2,"a":1}} share an entry.
 */
public record CacheKey(String server, String tool, String digest) {
    public static CacheKey of(String server, String tool, Map<String, Object> arguments, McpJsonMapper mapper) {
        String canonical;
        try {
            canonical = mapper.writeValueAsString(canonical(arguments == null ? Map.of() : arguments));
        } catch (IOException e) {
            throw new IllegalStateException("arguments that came from JSON must serialize back", e);
        }
        return new CacheKey(server, tool, Sha256.hex(server + "\u0000" + tool + "\u0000" + canonical));
    }

    static Object canonical(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, val) -> sorted.put(String.valueOf(k), canonical(val)));
            return sorted;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) out.add(canonical(o));
            return out;
        }
        return v;
    }

}
