package dev.engram.proxy.compress;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;

/** What a result looks like: parsed JSON (or null), markdown headings and code fences. */
public record ContentShape(Object json, int headings, int codeFences) {
    private static final TypeRef<Object> ANY = new TypeRef<>() {
    };

    public static ContentShape of(String text, McpJsonMapper mapper) {
        return new ContentShape(parseJson(text, mapper), Sections.headings(text).size(), fences(text));
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
