package dev.engram.proxy.config.importing;

import dev.engram.error.InvalidArgumentException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of TOML that Codex's {@code config.toml} uses: tables ({@code [a.b]}, {@code [[a]]}),
 * bare, quoted and dotted keys, strings (basic, literal, multi-line), integers, floats, booleans,
 * arrays and inline tables. Dates are kept as text. Enough to read MCP server entries without a
 * TOML library on the class path; a file it cannot read fails with the line, never a guess.
 */
final class MiniToml {
    private final String s;
    private int i;
    private int line = 1;

    private MiniToml(String text) {
        this.s = text;
    }

    static Map<String, Object> parse(String text) {
        return new MiniToml(text).document();
    }

    private Map<String, Object> document() {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> current = root;
        while (true) {
            skipBlankAndComments();
            if (i >= s.length()) return root;
            if (s.charAt(i) == '[') {
                boolean arrayTable = s.startsWith("[[", i);
                i += arrayTable ? 2 : 1;
                List<String> path = keyPath();
                expect(arrayTable ? "]]" : "]");
                current = arrayTable ? appendTable(root, path) : table(root, path);
            } else {
                List<String> path = keyPath();
                expect("=");
                Object value = value();
                Map<String, Object> target = table(current, path.subList(0, path.size() - 1));
                target.put(path.get(path.size() - 1), value);
            }
            endOfLine();
        }
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> table(Map<String, Object> from, List<String> path) {
        Map<String, Object> t = from;
        for (String k : path) {
            Object next = t.computeIfAbsent(k, x -> new LinkedHashMap<String, Object>());
            if (next instanceof List<?> list && !list.isEmpty() && list.get(list.size() - 1) instanceof Map<?, ?> last) {
                next = last;
            }
            if (!(next instanceof Map<?, ?>)) throw error("key '" + k + "' is a value, not a table");
            t = (Map<String, Object>) next;
        }
        return t;
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> appendTable(Map<String, Object> root, List<String> path) {
        Map<String, Object> parent = table(root, path.subList(0, path.size() - 1));
        Object list = parent.computeIfAbsent(path.get(path.size() - 1), x -> new ArrayList<Object>());
        if (!(list instanceof List<?>)) throw error("key '" + path.get(path.size() - 1) + "' is not an array of tables");
        Map<String, Object> t = new LinkedHashMap<>();
        ((List<Object>) list).add(t);
        return t;
    }

    private List<String> keyPath() {
        List<String> path = new ArrayList<>();
        do {
            skipSpaces();
            path.add(key());
            skipSpaces();
        } while (consume('.'));
        return path;
    }

    private String key() {
        if (i >= s.length()) throw error("a key is missing");
        char c = s.charAt(i);
        if (c == '"' || c == '\'') return string();
        int start = i;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '-')) i++;
        if (start == i) throw error("a key is missing");
        return s.substring(start, i);
    }

    private Object value() {
        skipSpaces();
        if (i >= s.length()) throw error("a value is missing");
        char c = s.charAt(i);
        if (c == '"' || c == '\'') return string();
        if (c == '[') return array();
        if (c == '{') return inlineTable();
        int start = i;
        while (i < s.length() && ",]}#\n\r".indexOf(s.charAt(i)) < 0) i++;
        String word = s.substring(start, i).strip();
        if (word.equals("true")) return true;
        if (word.equals("false")) return false;
        String digits = word.replace("_", "");
        try {
            if (digits.matches("[+-]?\\d+")) return Long.parseLong(digits);
            if (digits.matches("[+-]?(\\d+\\.?\\d*([eE][+-]?\\d+)?|inf|nan)")) return Double.parseDouble(digits);
        } catch (NumberFormatException e) {
            // falls through to text: dates and times are kept as written
        }
        if (word.isEmpty()) throw error("a value is missing");
        return word;
    }

    private List<Object> array() {
        expect("[");
        List<Object> out = new ArrayList<>();
        while (true) {
            skipBlankAndComments();
            if (consume(']')) return out;
            out.add(value());
            skipBlankAndComments();
            if (consume(']')) return out;
            expect(",");
        }
    }

    private Map<String, Object> inlineTable() {
        expect("{");
        Map<String, Object> out = new LinkedHashMap<>();
        skipSpaces();
        if (consume('}')) return out;
        while (true) {
            List<String> path = keyPath();
            expect("=");
            Object v = value();
            table(out, path.subList(0, path.size() - 1)).put(path.get(path.size() - 1), v);
            skipSpaces();
            if (consume('}')) return out;
            expect(",");
        }
    }

    private String string() {
        char q = s.charAt(i);
        boolean multi = s.startsWith(String.valueOf(q).repeat(3), i);
        i += multi ? 3 : 1;
        if (multi && i < s.length() && s.charAt(i) == '\n') i++; // a newline right after the opening is trimmed
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (i >= s.length()) throw error("a string is not closed");
            char c = s.charAt(i);
            if (multi ? s.startsWith(String.valueOf(q).repeat(3), i) : c == q) {
                i += multi ? 3 : 1;
                return sb.toString();
            }
            if (c == '\n') {
                if (!multi) throw error("a string is not closed on its line");
                line++;
            }
            if (c == '\\' && q == '"') {
                i++;
                if (i >= s.length()) throw error("a string ends in a backslash");
                char e = s.charAt(i);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case 'u', 'U' -> {
                        int n = e == 'u' ? 4 : 8;
                        if (i + n >= s.length()) throw error("a \\" + e + " escape is cut short");
                        sb.appendCodePoint(Integer.parseInt(s.substring(i + 1, i + 1 + n), 16));
                        i += n;
                    }
                    default -> {
                        if (multi && Character.isWhitespace(e)) { // line-ending backslash: trims what follows
                            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                                if (s.charAt(i) == '\n') line++;
                                i++;
                            }
                            continue;
                        }
                        throw error("unknown escape \\" + e);
                    }
                }
                i++;
                continue;
            }
            sb.append(c);
            i++;
        }
    }

    private void endOfLine() {
        skipSpaces();
        if (i < s.length() && s.charAt(i) == '#') {
            while (i < s.length() && s.charAt(i) != '\n') i++;
        }
        if (i < s.length() && s.charAt(i) == '\r') i++;
        if (i < s.length() && s.charAt(i) != '\n') throw error("unexpected '" + s.charAt(i) + "' after a value");
    }

    private void skipSpaces() {
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) i++;
    }

    private void skipBlankAndComments() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\n') line++;
            if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
                i++;
            } else if (c == '#') {
                while (i < s.length() && s.charAt(i) != '\n') i++;
            } else {
                return;
            }
        }
    }

    private boolean consume(char c) {
        if (i < s.length() && s.charAt(i) == c) {
            i++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        skipSpaces();
        if (!s.startsWith(token, i)) {
            throw error("expected '" + token + "'" + (i < s.length() ? " but found '" + s.charAt(i) + "'" : " at the end"));
        }
        i += token.length();
        skipSpaces();
    }

    private InvalidArgumentException error(String why) {
        return new InvalidArgumentException("TOML", "line " + line + ": " + why);
    }
}
