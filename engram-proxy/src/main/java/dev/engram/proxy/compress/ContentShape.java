package dev.engram.proxy.compress;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.util.regex.Pattern;

/**
 * What a result looks like: parsed JSON (or null), markdown headings, code fences, and whether it
 * names HTTP endpoints ({@code GET /users}, memtomem-stm's sign of API docs).
 */
public record ContentShape(Object json, int headings, int codeFences, boolean httpEndpoints) {
    private static final Pattern ENDPOINT = Pattern.compile("\\b(?:GET|POST|PUT|DELETE|PATCH)\\s+/");

    private static final TypeRef<Object> ANY = new TypeRef<>() {
    };

    public static ContentShape of(String text, McpJsonMapper mapper) {
        Object json = parseJson(text, mapper);
        return new ContentShape(json, Sections.headings(text).size(), fences(text),
                json == null && ENDPOINT.matcher(text).find());
    }

    private static Object parseJson(String text, McpJsonMapper mapper) {
        String t = text.strip();
        if (t.isEmpty() || (t.charAt(0) != '{' && t.charAt(0) != '[')) return null;
        try {
            return mapper.readValue(t, ANY);
        } catch (Exception e) {
            return null; // looks like JSON but is not (a log line starting with '['): treat as text
        }
    }

    private static int fences(String text) {
        int n = 0;
        for (int i = text.indexOf("```"); i >= 0; i = text.indexOf("```", i + 3)) n++;
        return n;
    }
}
