package dev.engram.cli.install;

import dev.engram.cli.install.JsonDocument.Arr;
import dev.engram.cli.install.JsonDocument.Member;
import dev.engram.cli.install.JsonDocument.Node;
import dev.engram.cli.install.JsonDocument.Obj;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Adds one entry to a JSON config and takes exactly that entry out again, as text edits: adding
 * inserts a member (or an array element) after the container's last item in the file's own
 * indentation, and removing deletes the same span, so a file the installer only added to comes back
 * byte for byte. Missing containers on the path are created and, once empty again, removed.
 */
public final class JsonEdit {
    /**
     * An entry: the member {@code key} of the object at {@code path}, or (key null) an element of the array
     * at {@code path}; {@code value} is plain Java (Map, List, String, Boolean, Number).
     */
    public record Entry(List<String> path, String key, Object value) {
        public Entry {
            path = List.copyOf(path);
        }
    }

    /**
     * What an addition did, kept in the install manifest so removal can undo exactly it: how many
     * containers of the path existed ({@code anchorDepth}), the inner text of the container it went
     * into when that was empty, and the text of the value it replaced, if any.
     */
    public record Placement(Entry entry, int anchorDepth, String emptyInner, String replaced) {
    }

    public sealed interface Added permits Inserted, Unchanged {
    }

    /** The new text and how the entry was placed. */
    public record Inserted(String text, Placement placement) implements Added {
    }

    /** The entry is already there with this value. */
    public record Unchanged() implements Added {
    }

    public sealed interface Removed permits Deleted, Gone, Edited {
    }

    /** The text without the entry; {@code rootEmpty} when nothing else is left in the file. */
    public record Deleted(String text, boolean rootEmpty) implements Removed {
    }

    /** The entry is no longer in the file. */
    public record Gone() implements Removed {
    }

    /** The entry is there with another value than the one written: someone edited it; it stays. */
    public record Edited(Object now) implements Removed {
    }

    /** A container on the path is not what the entry needs (a string where an object should be). */
    public static final class Conflict extends Exception {
        public Conflict(String message) {
            super(message);
        }
    }

    private JsonEdit() {
    }

    public static Added add(String text, boolean jsonc, Entry entry) throws JsonDocument.SyntaxError, Conflict {
        Obj root = JsonDocument.parse(text, jsonc);
        String unit = indentUnit(text, root);
        List<String> path = entry.path();
        Node container = root;
        int depth = 0;
        while (depth < path.size()) {
            Member m = ((Obj) container).member(path.get(depth));
            if (m == null) break;
            // the last step of a list entry must be an array, every other step an object ("SessionStart": {} is refused)
            boolean array = depth == path.size() - 1 && entry.key() == null;
            if (array ? m.value() instanceof Arr : m.value() instanceof Obj) {
                container = m.value();
                depth++;
            } else {
                throw new Conflict("\"" + String.join(".", path.subList(0, depth + 1)) + "\" is not "
                        + (array ? "an array" : "an object"));
            }
        }
        if (depth == path.size()) {
            if (entry.key() != null) {
                Obj obj = (Obj) container;
                Member existing = obj.member(entry.key());
                if (existing != null) {
                    if (JsonDocument.same(existing.value().value(), entry.value())) return new Unchanged();
                    String old = text.substring(existing.value().start(), existing.value().end());
                    String written = newlines(text, write(entry.value(), lineIndent(text, existing.keyStart()), unit));
                    return new Inserted(text.substring(0, existing.value().start()) + written + text.substring(existing.value().end()),
                            new Placement(entry, depth, null, old));
                }
                return insert(text, container, quote(entry.key()) + ": ", entry.value(), unit, entry, depth);
            }
            Arr arr = (Arr) container;
            for (Node n : arr.elements()) if (JsonDocument.same(n.value(), entry.value())) return new Unchanged();
            return insert(text, container, "", entry.value(), unit, entry, depth);
        }
        // the rest of the path does not exist: one member holding it all goes into the deepest container that does
        Object wrapped = entry.key() == null ? List.of(entry.value()) : single(entry.key(), entry.value());
        for (int i = path.size() - 1; i > depth; i--) wrapped = single(path.get(i), wrapped);
        return insert(text, container, quote(path.get(depth)) + ": ", wrapped, unit, entry, depth);
    }

    public static Removed remove(String text, boolean jsonc, Placement placement) throws JsonDocument.SyntaxError {
        Entry entry = placement.entry();
        List<String> path = entry.path();
        Obj root = JsonDocument.parse(text, jsonc);
        Node container = locate(root, path, path.size());
        if (container == null) return new Gone();
        int index = -1;
        if (entry.key() != null) {
            if (!(container instanceof Obj obj)) return new Gone();
            List<Member> ms = obj.members();
            for (int i = 0; i < ms.size(); i++) if (ms.get(i).key().equals(entry.key())) index = i;
            if (index < 0) return new Gone();
            Node now = ms.get(index).value();
            if (!JsonDocument.same(now.value(), entry.value())) return new Edited(now.value());
            if (placement.replaced() != null) {
                String restored = text.substring(0, now.start()) + placement.replaced() + text.substring(now.end());
                return new Deleted(restored, false);
            }
        } else {
            if (!(container instanceof Arr arr)) return new Gone();
            for (int i = 0; i < arr.elements().size(); i++) {
                if (JsonDocument.same(arr.elements().get(i).value(), entry.value())) index = i;
            }
            if (index < 0) return new Gone();
        }
        int depth = path.size();
        String out = removeItem(text, container, index, depth == placement.anchorDepth() ? placement.emptyInner() : "");
        // the containers the addition created go once they hold nothing else
        while (depth > placement.anchorDepth()) {
            Obj now = JsonDocument.parse(out, jsonc);
            Node c = locate(now, path, depth);
            if (c == null || size(c) > 0) break;
            Obj parent = (Obj) locate(now, path, depth - 1);
            int at = -1;
            for (int i = 0; i < parent.members().size(); i++) if (parent.members().get(i).key().equals(path.get(depth - 1))) at = i;
            depth--;
            out = removeItem(out, parent, at, depth == placement.anchorDepth() ? placement.emptyInner() : "");
        }
        return new Deleted(out, JsonDocument.parse(out, jsonc).members().isEmpty());
    }

    /** The plain values of the array at {@code path} (empty when there is none), for recognising entries written by hand. */
    public static List<Object> elements(String text, boolean jsonc, List<String> path) throws JsonDocument.SyntaxError {
        return locate(JsonDocument.parse(text, jsonc), path, path.size()) instanceof Arr arr ? arr.elements().stream().map(Node::value).toList()
                : List.of();
    }

    /**
     * How init would have placed {@code entry} to give exactly {@code text} (null when it would not have): the text
     * without the entry, and the placement adding it back gives. The entry is taken out with the containers it
     * alone holds open (the fewest left is tried first), and kept only when adding it back gives the text byte for
     * byte: uninstall then takes out precisely what init would have added, and nothing the user wrote differently.
     */
    public static Inserted adopt(String text, boolean jsonc, Entry entry) throws JsonDocument.SyntaxError {
        for (int depth = 0; depth <= entry.path().size(); depth++) {
            if (!(remove(text, jsonc, new Placement(entry, depth, "", null)) instanceof Deleted d)) return null;
            try {
                if (add(d.text(), jsonc, entry) instanceof Inserted ins && ins.text().equals(text)) return new Inserted(d.text(), ins.placement());
            } catch (Conflict e) {
                return null;
            }
        }
        return null;
    }

    /** The container at {@code path[0, depth)}, or null when a step is missing. */
    private static Node locate(Obj root, List<String> path, int depth) {
        Node n = root;
        for (int i = 0; i < depth; i++) {
            if (!(n instanceof Obj o)) return null;
            Member m = o.member(path.get(i));
            if (m == null) return null;
            n = m.value();
        }
        return n;
    }

    private static int size(Node container) {
        return container instanceof Obj o ? o.members().size() : container instanceof Arr a ? a.elements().size() : -1;
    }

    private static Inserted insert(String text, Node container, String prefix, Object value, String unit, Entry entry, int depth) {
        int items = size(container);
        if (items == 0) {
            String inner = text.substring(container.start() + 1, container.end() - 1);
            String outer = leadingSpace(text, container.start());
            String itemIndent = outer + unit;
            // what an empty container holds can only be comments (a JSONC file's commented-out servers): they stay,
            // above the entry; uninstall puts the inner text back whole
            String kept = inner.isBlank() ? "" : inner.stripTrailing();
            String replaced = kept + newlines(text, "\n" + itemIndent + prefix + write(value, itemIndent, unit) + "\n" + outer);
            return new Inserted(text.substring(0, container.start() + 1) + replaced + text.substring(container.end() - 1),
                    new Placement(entry, depth, inner, null));
        }
        int lastStart = itemStart(container, items - 1);
        int lastEnd = itemEnd(container, items - 1);
        String before = text.substring(lineStart(text, lastStart), lastStart);
        String itemIndent = before.isBlank() ? before : leadingSpace(text, container.start()) + unit;
        String added = newlines(text, ",\n" + itemIndent + prefix + write(value, itemIndent, unit));
        return new Inserted(text.substring(0, lastEnd) + added + text.substring(lastEnd), new Placement(entry, depth, null, null));
    }

    /** {@code snippet} with the file's own line ends (a Windows file keeps CRLF throughout). */
    static String newlines(String text, String snippet) {
        return text.contains("\r\n") ? snippet.replace("\n", "\r\n") : snippet;
    }

    /** Takes item {@code index} out of the container; the only item leaves {@code innerIfEmpty} between the brackets. */
    private static String removeItem(String text, Node container, int index, String innerIfEmpty) {
        int items = size(container);
        if (items == 1) {
            return text.substring(0, container.start() + 1) + (innerIfEmpty == null ? "" : innerIfEmpty) + text.substring(container.end() - 1);
        }
        if (index == items - 1) {
            // the inverse of an addition after the last item: from the end of the one before to the end of this one
            return text.substring(0, itemEnd(container, index - 1)) + text.substring(itemEnd(container, index));
        }
        return text.substring(0, itemStart(container, index)) + text.substring(itemStart(container, index + 1));
    }

    private static int itemStart(Node container, int i) {
        return container instanceof Obj o ? o.members().get(i).keyStart() : ((Arr) container).elements().get(i).start();
    }

    private static int itemEnd(Node container, int i) {
        return container instanceof Obj o ? o.members().get(i).value().end() : ((Arr) container).elements().get(i).end();
    }

    private static Map<String, Object> single(String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(key, value);
        return m;
    }

    /** The indentation step the file uses (that of the root's first member on its own line), else two spaces. */
    private static String indentUnit(String text, Obj root) {
        for (Member m : root.members()) {
            String before = text.substring(lineStart(text, m.keyStart()), m.keyStart());
            if (!before.isEmpty() && before.isBlank()) return before;
        }
        return "  ";
    }

    private static int lineStart(String text, int offset) {
        return text.lastIndexOf('\n', offset - 1) + 1;
    }

    /** The whitespace the line holding {@code offset} starts with. */
    private static String leadingSpace(String text, int offset) {
        int s = lineStart(text, offset);
        int e = s;
        while (e < text.length() && (text.charAt(e) == ' ' || text.charAt(e) == '\t')) e++;
        return text.substring(s, e);
    }

    private static String lineIndent(String text, int offset) {
        String before = text.substring(lineStart(text, offset), offset);
        return before.isBlank() ? before : leadingSpace(text, offset);
    }

    /** Pretty-prints a plain value: objects one member a line, arrays of scalars on one line. */
    public static String write(Object value, String indent, String unit) {
        StringBuilder b = new StringBuilder();
        write(b, value, indent, unit);
        return b.toString();
    }

    private static void write(StringBuilder b, Object value, String indent, String unit) {
        if (value instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append("{\n");
            int i = 0;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(indent).append(unit).append(quote(e.getKey().toString())).append(": ");
                write(b, e.getValue(), indent + unit, unit);
                b.append(++i < m.size() ? ",\n" : "\n");
            }
            b.append(indent).append('}');
        } else if (value instanceof List<?> l) {
            boolean flat = l.stream().noneMatch(v -> v instanceof Map || v instanceof List);
            if (l.isEmpty() || flat) {
                b.append('[');
                for (int i = 0; i < l.size(); i++) {
                    if (i > 0) b.append(", ");
                    write(b, l.get(i), indent, unit);
                }
                b.append(']');
                return;
            }
            b.append("[\n");
            for (int i = 0; i < l.size(); i++) {
                b.append(indent).append(unit);
                write(b, l.get(i), indent + unit, unit);
                b.append(i + 1 < l.size() ? ",\n" : "\n");
            }
            b.append(indent).append(']');
        } else if (value instanceof String s) {
            b.append(quote(s));
        } else {
            b.append(value);
        }
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    /** Plain values of a list, for building entries. */
    static List<Object> list(Object... items) {
        return new ArrayList<>(List.of(items));
    }
}
