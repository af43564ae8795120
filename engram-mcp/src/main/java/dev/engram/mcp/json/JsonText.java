package dev.engram.mcp.json;

import dev.engram.error.StoreException;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.util.Map;

/**
 * JSON text from the renderers' maps and back, with the SDK's own mapper so MCP and the CLI print
 * the same bytes. Thread-safe.
 */
public final class JsonText {
    private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
    };

    private final McpJsonMapper mapper;

    public JsonText(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    public static JsonText standard() {
        return new JsonText(McpJsonDefaults.getMapper());
    }

    public McpJsonMapper mapper() {
        return mapper;
    }

    /** One line of JSON. */
    public String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new StoreException("write JSON: " + e.getMessage(), e);
        }
    }

    /** One JSON object; malformed text is the caller's mistake and comes back as IllegalArgumentException. */
    public Map<String, Object> readObject(String text) {
        try {
            return mapper.readValue(text, MAP);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a JSON object: " + firstLine(e.getMessage()), e);
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
