package dev.engram.cli.install;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A JSON (or JSONC) file read with the position of every value, so the installer edits the text in
 * place: whatever it does not touch (other servers, unknown keys, their order, comments, indentation)
 * stays byte for byte. Only what a JSON parser needs is modelled; values compare by {@link Node#value()}.
 */
public final class JsonDocument {
    /** A value and where it sits in the text: {@code [start, end)}. */
    public sealed interface Node permits Obj, Arr, Scalar {
        int start();

        int end();

        /** The value as plain Java (Map, List, String, Number as its text, Boolean, null) for comparisons. */
        Object value();
    }

    /** One {@code "key": value} of an object; {@code keyStart} is the offset of the key's opening quote. */
    public record Member(String key, int keyStart, Node value) {
    }

    public record Obj(int start, int end, List<Member> members) implements Node {
        public Obj {
            members = List.copyOf(members);
        }

        public Member member(String key) {
            Member found = null;
            for (Member m : members) if (m.key().equals(key)) found = m; // the last one wins, as in every JSON reader
            return found;
        }

        @Override
        public Object value() {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Member m : members) out.put(m.key(), m.value().value());
            return out;
        }
    }

    public record Arr(int start, int end, List<Node> elements) implements Node {
        public Arr {
            elements = List.copyOf(elements);
        }

        @Override
        public Object value() {
            List<Object> out = new ArrayList<>();
            for (Node n : elements) out.add(n.value());
            return out;
        }
    }

    /** A string, number, boolean or null; {@code value} is the decoded string, the number's text, a Boolean or null. */
    public record Scalar(int start, int end, Object value) implements Node {
    }

    /** The text is not JSON (or JSONC for a file that allows comments). */
    public static final class SyntaxError extends Exception {
        public SyntaxError(String message) {
            super(message);
        }
    }

    /** Deeper than any agent's settings go; a deeper file is refused instead of overflowing the parser's stack. */
    static final int MAX_DEPTH = 256;
    private final String text;
    private final boolean comments;
    private int pos;
    private int depth;

    private JsonDocument(String text, boolean comments) {
        this.text = text;
        this.comments = comments;
    }

    /**
     * The root of {@code text}, which must be one object. {@code jsonc} allows comments and trailing
     * commas (VS Code's and Zed's settings files); plain JSON files refuse them, as their agents would.
     */
    public static Obj parse(String text, boolean jsonc) throws SyntaxError {
        JsonDocument d = new JsonDocument(text, jsonc);
        d.skipSpace();
        if (d.pos < text.length() && text.charAt(d.pos) == '\uFEFF') {
            d.pos++;
            d.skipSpace();
        }
        if (d.pos >= text.length()) throw d.error("the file is empty; expected a JSON object");
        if (text.charAt(d.pos) != '{') throw d.error("expected a JSON object at the top");
        Obj root = (Obj) d.value();
        d.skipSpace();
        if (d.pos < text.length()) throw d.error("unexpected text after the top-level object");
        return root;
    }

    private Node value() throws SyntaxError {
        skipSpace();
        if (pos >= text.length()) throw error("unexpected end of file");
        char c = text.charAt(pos);
        if ((c == '{' || c == '[') && ++depth > MAX_DEPTH) {
            throw error("objects and arrays nested more than " + MAX_DEPTH + " deep");
        }
        return switch (c) {
            case '{' -> exit(object());
            case '[' -> exit(array());
            case '"' -> {
                int start = pos;
                String s = string();
                yield new Scalar(start, pos, s);
            }
            default -> literal();
        };
    }

    private Node exit(Node container) {
        depth--;
        return container;
    }

    private Obj object() throws SyntaxError {
        int start = pos++;
        List<Member> members = new ArrayList<>();
        skipSpace();
        if (peek() == '}') return new Obj(start, ++pos, members);
        while (true) {
            skipSpace();
            if (peek() != '"') throw error("expected a quoted key");
            int keyStart = pos;
            String key = string();
            skipSpace();
            if (peek() != ':') throw error("expected ':' after the key \"" + key + "\"");
            pos++;
            members.add(new Member(key, keyStart, value()));
            skipSpace();
            char c = peek();
            if (c == '}') return new Obj(start, ++pos, members);
            if (c != ',') throw error("expected ',' or '}'");
            pos++;
            skipSpace();
            if (peek() == '}') {
                if (!comments) throw error("trailing comma before '}'");
                return new Obj(start, ++pos, members);
            }
        }
    }

    private Arr array() throws SyntaxError {
        int start = pos++;
        List<Node> elements = new ArrayList<>();
        skipSpace();
        if (peek() == ']') return new Arr(start, ++pos, elements);
        while (true) {
            elements.add(value());
            skipSpace();
            char c = peek();
            if (c == ']') return new Arr(start, ++pos, elements);
            if (c != ',') throw error("expected ',' or ']'");
            pos++;
            skipSpace();
            if (peek() == ']') {
                if (!comments) throw error("trailing comma before ']'");
                return new Arr(start, ++pos, elements);
            }
        }
    }

    private String string() throws SyntaxError {
        pos++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (pos >= text.length()) throw error("unterminated string");
            char c = text.charAt(pos++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("a control character inside a string");
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (pos >= text.length()) throw error("unterminated string");
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) throw error("a short \\u escape");
                    if (!text.substring(pos, pos + 4).chars().allMatch(h -> Character.digit(h, 16) >= 0 && h < 0x80)) {
                        throw error("a bad \\u escape (four hex digits expected)");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("a bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("an unknown escape \\" + e);
            }
        }
    }

    private Scalar literal() throws SyntaxError {
        int start = pos;
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, pos)) {
                pos += word.length();
                return new Scalar(start, pos, word.equals("null") ? null : Boolean.valueOf(word));
            }
        }
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) pos++;
        String number = text.substring(start, pos);
        if (!number.matches("-?(0|[1-9]\\d*)(\\.\\d+)?([eE][+-]?\\d+)?")) {
            pos = start;
            throw error("expected a value");
        }
        return new Scalar(start, pos, new java.math.BigDecimal(number));
    }

    private char peek() throws SyntaxError {
        if (pos >= text.length()) throw error("unexpected end of file");
        return text.charAt(pos);
    }

    private void skipSpace() throws SyntaxError {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else if (c == '/' && pos + 1 < text.length() && (text.charAt(pos + 1) == '/' || text.charAt(pos + 1) == '*')) {
                if (!comments) throw error("a comment (this file must be plain JSON)");
                if (text.charAt(pos + 1) == '/') {
                    while (pos < text.length() && text.charAt(pos) != '\n') pos++;
                } else {
                    int close = text.indexOf("*/", pos + 2);
                    if (close < 0) throw error("unterminated /* comment");
                    pos = close + 2;
                }
            } else {
                return;
            }
        }
    }

    private SyntaxError error(String what) {
        int line = 1;
        int col = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) {
            if (text.charAt(i) == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        return new SyntaxError(what + " at line " + line + ", column " + col);
    }

    /** Whether two plain values are the same JSON (numbers by value, so 1 equals 1.0). */
    public static boolean same(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return new java.math.BigDecimal(x.toString()).compareTo(new java.math.BigDecimal(y.toString())) == 0;
        }
        if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
            if (!x.keySet().equals(y.keySet())) return false;
            for (Object k : x.keySet()) if (!same(x.get(k), y.get(k))) return false;
            return true;
        }
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!same(x.get(i), y.get(i))) return false;
            return true;
        }
        return Objects.equals(a, b);
    }
}
