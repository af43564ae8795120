package dev.engram.store.sqlite;

import java.util.ArrayList;
import java.util.List;

/**
 * Tags as a JSON array of strings, the form SQLite's json functions read. Hand-written because a
 * JSON library for one array of strings would be the module's largest dependency.
 */
final class TagsJson {
    private TagsJson() {
    }

    static String encode(List<String> tags) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append('"');
            for (char c : tags.get(i).toCharArray()) {
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    default -> {
                        if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                        else sb.append(c);
                    }
                }
            }
            sb.append('"');
        }
        return sb.append(']').toString();
    }

    static List<String> decode(String json) {
        List<String> out = new ArrayList<>();
        int i = skipSpace(json, 0);
        expect(json, i++, '[');
        i = skipSpace(json, i);
        if (json.charAt(i) == ']') return out;
        while (true) {
            i = skipSpace(json, i);
            expect(json, i++, '"');
            StringBuilder sb = new StringBuilder();
            while (json.charAt(i) != '"') {
                char c = json.charAt(i++);
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = json.charAt(i++);
                switch (e) {
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(json.substring(i, i + 4), 16));
                        i += 4;
                    }
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    default -> sb.append(e); // \" \\ \/
                }
            }
            out.add(sb.toString());
            i = skipSpace(json, i + 1);
            if (json.charAt(i) == ']') return out;
            expect(json, i++, ',');
        }
    }

    private static int skipSpace(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        return i;
    }

    private static void expect(String s, int i, char c) {
        if (i >= s.length() || s.charAt(i) != c) {
            throw new IllegalArgumentException("tags column is not a JSON array of strings at offset " + i + ": " + s);
        }
    }
}
