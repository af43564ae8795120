package dev.engram.cli.install;

import java.util.ArrayList;
import java.util.List;

/**
 * Just enough of TOML for Codex's config.toml: checks that the file is TOML (so a file the installer
 * cannot read is refused, never overwritten), lists its tables with their spans and every key path
 * it defines, and adds or takes out one whole {@code [table]} as text, leaving the rest byte for byte.
 */
public final class TomlTables {
    /**
     * A {@code [name]} table: {@code [start, end)} runs from its header line to the end of its last key's line (its
     * line break included). Blank lines and comments after that belong to what follows: a comment the user wrote
     * above the next table is not part of this one.
     */
    public record Table(String name, int start, int end) {
    }

    /**
     * The file's tables (array-of-tables headers too), the full dotted path of every key and header ({@code keys}),
     * and of every key given a value ({@code values}: {@code mcp_servers = {…}} defines mcp_servers as an inline table).
     */
    public record Scan(List<Table> tables, List<String> keys, List<String> values) {
    }

    private final String text;
    private int pos;
    private final List<Table> tables = new ArrayList<>();
    private final List<String> keys = new ArrayList<>();
    private final List<String> values = new ArrayList<>();
    /** Where each table's last line ends. */
    private final List<Integer> ends = new ArrayList<>();

    private TomlTables(String text) {
        this.text = text;
    }

    public static Scan scan(String text) throws JsonDocument.SyntaxError {
        TomlTables t = new TomlTables(text);
        t.document();
        List<Table> closed = new ArrayList<>();
        for (int i = 0; i < t.tables.size(); i++) {
            Table open = t.tables.get(i);
            closed.add(new Table(open.name(), open.start(), t.ends.get(i)));
        }
        return new Scan(List.copyOf(closed), List.copyOf(t.keys), List.copyOf(t.values));
    }

    private void document() throws JsonDocument.SyntaxError {
        String table = "";
        while (true) {
            skipBlankLines();
            if (pos >= text.length()) return;
            char c = text.charAt(pos);
            if (c == '[') {
                int start = pos;
                boolean arrayOfTables = text.startsWith("[[", pos);
                pos += arrayOfTables ? 2 : 1;
                table = key(']');
                expect(']');
                if (arrayOfTables) expect(']');
                endOfLine();
                tables.add(new Table(table, start, -1));
                ends.add(lineEnd());
                keys.add(table);
            } else {
                String k = key('=');
                expect('=');
                value();
                endOfLine();
                if (!ends.isEmpty()) ends.set(ends.size() - 1, lineEnd());
                keys.add(table.isEmpty() ? k : table + "." + k);
                values.add(table.isEmpty() ? k : table + "." + k);
            }
        }
    }

    /** A dotted key, its parts unquoted, up to {@code stop}. */
    private String key(char stop) throws JsonDocument.SyntaxError {
        StringBuilder out = new StringBuilder();
        while (true) {
            spaces();
            if (pos >= text.length()) throw error("unexpected end of file in a key");
            char c = text.charAt(pos);
            if (c == '"' || c == '\'') {
                int s = pos;
                basicOrLiteral();
                out.append(text, s + 1, pos - 1);
            } else {
                int s = pos;
                while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_'
                        || text.charAt(pos) == '-')) pos++;
                if (s == pos) throw error("expected a key");
                out.append(text, s, pos);
            }
            spaces();
            if (pos < text.length() && text.charAt(pos) == '.') {
                pos++;
                out.append('.');
                continue;
            }
            if (pos >= text.length() || text.charAt(pos) != stop) throw error("expected '" + stop + "' after the key " + out);
            return out.toString();
        }
    }

    private void value() throws JsonDocument.SyntaxError {
        spaces();
        if (pos >= text.length()) throw error("a key without a value");
        char c = text.charAt(pos);
        if (c == '"' || c == '\'') {
            basicOrLiteral();
        } else if (c == '[') {
            pos++;
            while (true) {
                skipBlankLines();
                if (peek() == ']') {
                    pos++;
                    return;
                }
                value();
                skipBlankLines();
                char n = peek();
                pos++;
                if (n == ']') return;
                if (n != ',') throw error("expected ',' or ']' in an array");
            }
        } else if (c == '{') {
            pos++;
            spaces();
            if (peek() == '}') {
                pos++;
                return;
            }
            while (true) {
                key('=');
                pos++;
                value();
                spaces();
                char n = peek();
                pos++;
                if (n == '}') return;
                if (n != ',') throw error("expected ',' or '}' in an inline table");
            }
        } else {
            int s = pos;
            while (pos < text.length() && "\n\r\t #,]}".indexOf(text.charAt(pos)) < 0) pos++;
            // dates may hold one space between date and time
            if (pos + 1 < text.length() && text.charAt(pos) == ' ' && text.substring(s, pos).matches("\\d{4}-\\d{2}-\\d{2}")
                    && Character.isDigit(text.charAt(pos + 1))) {
                pos++;
                while (pos < text.length() && "\n\r\t #,]}".indexOf(text.charAt(pos)) < 0) pos++;
            }
            String v = text.substring(s, pos);
            if (!v.matches("true|false|[+-]?(inf|nan)|[+-]?[0-9][0-9_]*(\\.[0-9_]+)?([eE][+-]?[0-9_]+)?|0[xob][0-9A-Fa-f_]+"
                    + "|\\d{4}-\\d{2}-\\d{2}([Tt ][0-9:.]+([Zz]|[+-]\\d{2}:\\d{2})?)?|\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?")) {
                pos = s;
                throw error("'" + v + "' is not a TOML value");
            }
        }
    }

    private void basicOrLiteral() throws JsonDocument.SyntaxError {
        char q = text.charAt(pos);
        String triple = String.valueOf(q).repeat(3);
        if (text.startsWith(triple, pos)) {
            pos += 3;
            while (true) {
                if (pos >= text.length()) throw error("unterminated multi-line string");
                if (q == '"' && text.charAt(pos) == '\\') {
                    pos += 2;
                    continue;
                }
                if (text.startsWith(triple, pos)) {
                    pos += 3;
                    while (pos < text.length() && text.charAt(pos) == q) pos++; // up to two quotes may end the content
                    return;
                }
                pos++;
            }
        }
        pos++;
        while (true) {
            if (pos >= text.length() || text.charAt(pos) == '\n') throw error("unterminated string");
            char c = text.charAt(pos++);
            if (c == q) return;
            if (q == '"' && c == '\\') pos++;
        }
    }

    private void spaces() {
        while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t')) pos++;
    }

    /** Spaces, newlines and comments. */
    private void skipBlankLines() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else if (c == '#') {
                while (pos < text.length() && text.charAt(pos) != '\n') pos++;
            } else {
                return;
            }
        }
    }

    private void endOfLine() throws JsonDocument.SyntaxError {
        spaces();
        if (pos < text.length() && text.charAt(pos) == '#') {
            while (pos < text.length() && text.charAt(pos) != '\n') pos++;
        }
        if (pos < text.length() && text.charAt(pos) == '\r') pos++;
        if (pos < text.length() && text.charAt(pos) != '\n') throw error("unexpected text after a value");
    }

    /** Past the line break that ends the current line (endOfLine stops before it). */
    private int lineEnd() {
        return pos < text.length() ? pos + 1 : pos;
    }

    private void expect(char c) throws JsonDocument.SyntaxError {
        spaces();
        if (pos >= text.length() || text.charAt(pos) != c) throw error("expected '" + c + "'");
        pos++;
    }

    private char peek() throws JsonDocument.SyntaxError {
        if (pos >= text.length()) throw error("unexpected end of file");
        return text.charAt(pos);
    }

    private JsonDocument.SyntaxError error(String what) {
        int line = 1;
        for (int i = 0; i < Math.min(pos, text.length()); i++) if (text.charAt(i) == '\n') line++;
        return new JsonDocument.SyntaxError(what + " at line " + line);
    }
}
