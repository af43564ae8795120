package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Sections of JSON text cut between array elements and object members, titled by JSON path
 * ({@code [24..35]}, {@code server.option_0 .. option_11}), so a table of contents of a JSON
 * result says which items or keys each section holds: an agent looking for item 57 or the
 * {@code database} settings can pick its section without reading the rest. A member or element
 * larger than {@link Sections#TARGET_CHARS} is split inside, down to {@link #MAX_DEPTH} levels.
 * Works on the text itself (not a parsed copy), so the sections cover it exactly.
 */
final class JsonSections {
    static final int MAX_DEPTH = 12;
    private static final int KEY_CHARS = 24;
    /** Longer than a heading's 60: a path range names two keys. */
    private static final int TITLE_CHARS = 80;

    /** A member or element: where its line starts, its parent's path and its own label. */
    private record Unit(int start, String parent, String label, boolean element) {
    }

    private final String text;
    private int pos;

    private JsonSections(String text) {
        this.text = text;
    }

    /** Empty when {@code text} is not one JSON object or array, or has fewer than two members/elements. */
    static Optional<List<Section>> split(String text) {
        try {
            JsonSections scanner = new JsonSections(text);
            scanner.skipWs();
            int root = scanner.pos;
            if (root >= text.length() || (text.charAt(root) != '{' && text.charAt(root) != '[')) return Optional.empty();
            List<Unit> units = new ArrayList<>();
            scanner.units(root, "", 0, -1, units);
            scanner.skipWs();
            if (scanner.pos != text.length() || units.size() < 2) return Optional.empty();
            return Optional.of(group(text, units));
        } catch (IllegalStateException | IndexOutOfBoundsException e) {
            return Optional.empty(); // not JSON after all: the caller splits it as text
        }
    }

    /**
     * Scans the container at {@code at}; big children are split inside, the rest become units.
     * {@code headerStart} (or -1) is where the container's own line starts: its first unit starts
     * there, so a section opens with the key it belongs to. Leaves {@code pos} after the container.
     */
    private void units(int at, String path, int depth, int headerStart, List<Unit> out) {
        boolean array = text.charAt(at) == '[';
        char close = array ? ']' : '}';
        pos = at + 1;
        skipWs();
        int index = 0;
        while (text.charAt(pos) != close) {
            int start = pos;
            String label;
            if (array) {
                label = "[" + index + "]";
            } else {
                int keyEnd = skipString(pos);
                label = text.substring(pos + 1, keyEnd - 1);
                pos = keyEnd;
                skipWs();
                expect(':');
                skipWs();
            }
            int valueStart = pos;
            skipValue();
            int end = pos;
            char open = text.charAt(valueStart);
            int unitStart = index == 0 && headerStart >= 0 ? headerStart : lineStart(start);
            if (end - start > Sections.TARGET_CHARS && depth < MAX_DEPTH && (open == '{' || open == '[')) {
                units(valueStart, join(path, key(label)), depth + 1, unitStart, out);
                pos = end;
            } else {
                out.add(new Unit(unitStart, path, label, array));
            }
            index++;
            skipWs();
            if (text.charAt(pos) == ',') {
                pos++;
                skipWs();
            } else if (text.charAt(pos) != close) {
                throw new IllegalStateException("expected , or " + close + " at " + pos);
            }
        }
        pos++;
    }

    /**
     * Groups consecutive units into sections, never across parents, so each title is one path
     * range. A parent's run of units is cut into as many sections of about
     * {@link Sections#TARGET_CHARS} as it needs, of even size (no 400-char remnant at the end of
     * each parent); a unit goes with the section its middle falls in.
     */
    private static List<Section> group(String text, List<Unit> units) {
        List<Integer> cuts = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        int runStart = 0;
        while (runStart < units.size()) {
            int runEnd = runStart + 1;
            while (runEnd < units.size() && units.get(runEnd).parent().equals(units.get(runStart).parent())) runEnd++;
            int size = end(text, units, runEnd) - units.get(runStart).start();
            int pieces = (size + Sections.TARGET_CHARS - 1) / Sections.TARGET_CHARS;
            double each = (double) size / pieces;
            int first = runStart;
            for (int i = runStart + 1; i <= runEnd; i++) {
                boolean cut = i == runEnd || piece(text, units, i, runStart, each) > piece(text, units, i - 1, runStart, each);
                if (!cut) continue;
                cuts.add(cuts.isEmpty() ? 0 : units.get(first).start());
                titles.add(title(units.get(first), units.get(i - 1)));
                first = i;
            }
            runStart = runEnd;
        }
        List<Section> out = new ArrayList<>();
        for (int i = 0; i < cuts.size(); i++) {
            int end = i + 1 < cuts.size() ? cuts.get(i + 1) : text.length();
            if (end > cuts.get(i)) out.add(new Section("s" + (out.size() + 1), titles.get(i), cuts.get(i), end));
        }
        return out;
    }

    /** Which of a run's equal pieces unit {@code i}'s middle falls in. */
    private static int piece(String text, List<Unit> units, int i, int runStart, double each) {
        double middle = (units.get(i).start() + end(text, units, i + 1)) / 2.0;
        return (int) ((middle - units.get(runStart).start()) / each);
    }

    /** Where unit {@code i - 1} ends, for sizing: unit {@code i}'s start, or the end of the text. */
    private static int end(String text, List<Unit> units, int i) {
        return i < units.size() ? units.get(i).start() : text.length();
    }

    /** {@code [24..35]}, {@code server.server_option_0 .. 12}: a range's shared key prefix is shown once. */
    private static String title(Unit a, Unit b) {
        String parent = a.parent();
        if (a == b) return shorten(join(parent, a.label()));
        if (a.element()) return shorten(parent + a.label().substring(0, a.label().length() - 1) + ".." + b.label().substring(1));
        int common = sharedPrefix(a.label(), b.label());
        String prefix = a.label().substring(0, common);
        return shorten(join(parent, prefix + key(a.label().substring(common))) + " .. " + key(b.label().substring(common)));
    }

    /** The longest common prefix of two keys that ends at a separator ({@code / . _ - :}). */
    private static int sharedPrefix(String x, String y) {
        int n = 0;
        while (n < Math.min(x.length(), y.length()) && x.charAt(n) == y.charAt(n)) n++;
        while (n > 0 && "/._-:".indexOf(x.charAt(n - 1)) < 0) n--;
        return n;
    }

    private static String join(String parent, String label) {
        if (label.startsWith("[")) return parent + label;
        return parent.isEmpty() ? label : parent + "." + label;
    }

    private static String key(String label) {
        if (label.isEmpty()) return "\"\"";
        return TextCut.clip(label, KEY_CHARS);
    }

    private static String shorten(String title) {
        return TextCut.clip(title, TITLE_CHARS);
    }

    /** Cut before the indentation of a pretty-printed line, or right at the value in minified JSON. */
    private int lineStart(int at) {
        int i = at;
        while (i > 0 && (text.charAt(i - 1) == ' ' || text.charAt(i - 1) == '\t')) i--;
        return i > 0 && text.charAt(i - 1) == '\n' ? i : at;
    }

    /** Skips one value, iteratively (deep nesting cannot overflow the stack). */
    private void skipValue() {
        int depth = 0;
        do {
            char c = text.charAt(pos);
            if (c == '"') {
                pos = skipString(pos);
            } else if (c == '{' || c == '[') {
                depth++;
                pos++;
            } else if (c == '}' || c == ']') {
                if (--depth < 0) throw new IllegalStateException("unbalanced at " + pos);
                pos++;
            } else if (c == ',' || c == ':' || Character.isWhitespace(c)) {
                if (depth == 0) throw new IllegalStateException("value expected at " + pos);
                pos++;
            } else {
                int from = pos;
                while (pos < text.length() && "{}[],:\" \t\r\n".indexOf(text.charAt(pos)) < 0) pos++;
                if (pos == from) throw new IllegalStateException("value expected at " + pos);
            }
        } while (depth > 0);
    }

    /** Index just after the string starting at {@code at}. */
    private int skipString(int at) {
        if (text.charAt(at) != '"') throw new IllegalStateException("string expected at " + at);
        int i = at + 1;
        while (text.charAt(i) != '"') i += text.charAt(i) == '\\' ? 2 : 1;
        return i + 1;
    }

    private void expect(char c) {
        if (text.charAt(pos) != c) throw new IllegalStateException("expected " + c + " at " + pos);
        pos++;
    }

    private void skipWs() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) pos++;
    }
}
