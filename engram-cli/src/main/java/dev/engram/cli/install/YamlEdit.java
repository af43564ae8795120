package dev.engram.cli.install;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Adds one entry to a top-level block mapping of a YAML file (Goose's {@code extensions:}) and takes exactly
 * that entry out again, as text edits. The file is read with a real YAML parser (snakeyaml-engine: syntax,
 * one document, no duplicate keys) and the edit placed by the parser's marks: the entry's lines go after the
 * last entry of the mapping, in its indentation, or the mapping is appended to the file; everything else stays
 * byte for byte, and removal deletes the same lines, so a file init only added to comes back as it was. What it
 * cannot edit safely (a top level that is not a block mapping, the mapping in flow style, aliases in it, a second
 * document) is refused, never rewritten.
 */
public final class YamlEdit {
    /**
     * What an addition did: the entry {@code key} with {@code value} in the top-level mapping {@code section}, the
     * exact text written, the line break written before it, whether the section itself was written, and the text of
     * the entry it replaced, if any.
     */
    public record Placement(String section, String key, Object value, String block, String prefix, boolean createdSection,
                            String replaced) {
    }

    /** The text with the entry in it, and how it was placed. */
    public record Added(String text, Placement placement) {
    }

    private YamlEdit() {
    }

    /** The new text and its placement, or null when the entry is already there with this value. */
    public static Added add(String text, String section, String key, Map<String, Object> value)
            throws JsonDocument.SyntaxError, JsonEdit.Conflict {
        Doc doc = Doc.read(text);
        MappingNode root = doc.root();
        NodeTuple sec = root == null ? null : find(root, section);
        if (sec == null) {
            if (text.lines().anyMatch(l -> l.equals("...") || l.startsWith("... ") || l.startsWith("...#"))) {
                throw new JsonEdit.Conflict("it ends its document with '...', after which a new '" + section + ":' would not be read");
            }
            int column = root == null || root.getValue().isEmpty() ? 0 : doc.column(root.getValue().get(0).getKeyNode());
            String block = JsonEdit.newlines(text, " ".repeat(column) + section + ":\n" + entry(key, value, column + 2, 2));
            String prefix = text.isEmpty() || text.endsWith("\n") ? "" : JsonEdit.newlines(text, "\n");
            return new Added(text + prefix + block, new Placement(section, key, value, block, prefix, true, null));
        }
        Node keyNode = sec.getKeyNode();
        Node v = sec.getValueNode();
        doc.requireNoAliases(sec, section);
        if (v instanceof ScalarNode s) {
            if (!s.getValue().isEmpty() || s.getScalarStyle() != ScalarStyle.PLAIN || doc.start(s) != doc.end(s)) {
                throw new JsonEdit.Conflict("'" + section + "' is a scalar ('" + abbreviate(s.getValue()) + "'), not a mapping");
            }
            // "section:" with nothing after it: the entry goes on the lines below
            int at = doc.lineEnd(doc.end(keyNode));
            String block = JsonEdit.newlines(text, entry(key, value, doc.column(keyNode) + 2, 2));
            String prefix = at == text.length() && !text.endsWith("\n") ? JsonEdit.newlines(text, "\n") : "";
            return new Added(text.substring(0, at) + prefix + block + text.substring(at),
                    new Placement(section, key, value, block, prefix, false, null));
        }
        if (!(v instanceof MappingNode m)) {
            throw new JsonEdit.Conflict("'" + section + "' is a list, not a mapping");
        }
        if (m.getFlowStyle() == FlowStyle.FLOW) {
            throw new JsonEdit.Conflict("'" + section + "' is written in flow style ({…}); engram init adds entries to block mappings"
                    + " only (one entry a line)");
        }
        for (NodeTuple t : m.getValue()) doc.requireOwnLine(t.getKeyNode(), section);
        int column = doc.column(m.getValue().get(0).getKeyNode());
        String entry = entry(key, value, column, unit(doc, m, column));
        NodeTuple existing = find(m, key);
        if (existing != null) {
            if (ours(doc.value(section, key), value)) return null;
            int s = doc.lineStart(doc.start(existing.getKeyNode()));
            int e = doc.entryEnd(existing);
            String old = text.substring(s, e);
            String block = JsonEdit.newlines(text, old.endsWith("\n") ? entry : entry.substring(0, entry.length() - 1));
            return new Added(text.substring(0, s) + block + text.substring(e), new Placement(section, key, value, block, "", false, old));
        }
        int at = doc.entryEnd(m.getValue().get(m.getValue().size() - 1));
        String prefix = at == text.length() && at > 0 && text.charAt(at - 1) != '\n' ? JsonEdit.newlines(text, "\n") : "";
        String block = JsonEdit.newlines(text, entry);
        return new Added(text.substring(0, at) + prefix + block + text.substring(at),
                new Placement(section, key, value, block, prefix, false, null));
    }

    /** Takes the entry out again; its old text back when the addition replaced one. */
    public static TextRemoval remove(String text, Placement p) throws JsonDocument.SyntaxError {
        Doc doc;
        try {
            doc = Doc.read(text);
        } catch (JsonEdit.Conflict e) {
            return new TextRemoval(null, "the file is no longer one engram init can edit: " + e.getMessage());
        }
        NodeTuple sec = doc.root() == null ? null : find(doc.root(), p.section());
        if (sec == null || !(sec.getValueNode() instanceof MappingNode m)) return new TextRemoval(null, null);
        NodeTuple t = find(m, p.key());
        if (t == null) return new TextRemoval(null, null);
        Object now = doc.value(p.section(), p.key());
        if (!ours(now, p.value())) return new TextRemoval(null, String.valueOf(now));
        if (m.getFlowStyle() == FlowStyle.FLOW) return new TextRemoval(null, "'" + p.section() + "' rewritten in flow style");
        try {
            doc.requireNoAliases(sec, p.section());
            doc.requireOwnLine(t.getKeyNode(), p.section());
        } catch (JsonEdit.Conflict e) {
            return new TextRemoval(null, e.getMessage());
        }
        int s = doc.lineStart(doc.start(t.getKeyNode()));
        int e = doc.entryEnd(t);
        if (p.replaced() != null) return new TextRemoval(text.substring(0, s) + p.replaced() + text.substring(e), null);
        if (p.createdSection() && m.getValue().size() == 1) {
            int header = doc.lineStart(doc.start(sec.getKeyNode()));
            if (text.substring(header, s).strip().equals(p.section() + ":")) s = header; // the section was init's, and holds nothing else
        }
        if (e == text.length() && !p.prefix().isEmpty() && text.startsWith(p.prefix(), s - p.prefix().length())) s -= p.prefix().length();
        return new TextRemoval(text.substring(0, s) + text.substring(e), null);
    }

    /** The value of the entry {@code key} in an entry's own text (as {@link Placement#replaced()} holds it), or null. */
    static Object entryValue(String entryText, String key) {
        try {
            return new Load(Doc.SETTINGS).loadFromString(entryText) instanceof Map<?, ?> m ? m.get(key) : null;
        } catch (YamlEngineException e) {
            return null;
        }
    }

    /**
     * Whether the entry's value is the one written: every key written still has its value, and any other key has
     * an empty one (null, "", [], {}), as Goose fills in its defaults when it saves its config again.
     */
    static boolean ours(Object now, Object written) {
        if (!(now instanceof Map<?, ?> n) || !(written instanceof Map<?, ?> w)) return Objects.equals(now, written);
        for (Map.Entry<?, ?> e : w.entrySet()) if (!Objects.equals(n.get(e.getKey()), e.getValue())) return false;
        for (Map.Entry<?, ?> e : n.entrySet()) {
            if (w.containsKey(e.getKey())) continue;
            Object x = e.getValue();
            boolean empty = x == null || "".equals(x) || (x instanceof Collection<?> c && c.isEmpty()) || (x instanceof Map<?, ?> mm && mm.isEmpty());
            if (!empty) return false;
        }
        return true;
    }

    /** One entry in block style: {@code key:} at {@code column}, its members one a line {@code unit} deeper. */
    static String entry(String key, Map<String, Object> value, int column, int unit) {
        String inner = " ".repeat(column + unit);
        StringBuilder b = new StringBuilder(" ".repeat(column)).append(key).append(":\n");
        for (Map.Entry<String, Object> e : value.entrySet()) b.append(inner).append(e.getKey()).append(": ").append(scalar(e.getValue())).append('\n');
        return b.toString();
    }

    /**
     * A value in flow style: a string plain when it can only be read back as that string, else double-quoted (a
     * JSON string is a YAML double-quoted scalar); the items of a list all quoted.
     */
    private static String scalar(Object v) {
        if (v instanceof String s) return PLAIN.matcher(s).matches() && !RESERVED.contains(s.toLowerCase(java.util.Locale.ROOT)) ? s : JsonEdit.quote(s);
        if (v instanceof List<?> l) {
            List<String> items = new ArrayList<>();
            for (Object o : l) items.add(o instanceof String s ? JsonEdit.quote(s) : String.valueOf(o));
            return "[" + String.join(", ", items) + "]";
        }
        return String.valueOf(v);
    }

    private static final java.util.regex.Pattern PLAIN = java.util.regex.Pattern.compile("[A-Za-z_/][A-Za-z0-9_./-]*");
    /** Words YAML 1.1 readers (serde_yaml among them, for some) take for booleans or null. */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("true", "false", "yes", "no", "on", "off", "y", "n", "null");

    /** The indentation step inside the mapping's entries (that of the first entry's members), else two spaces. */
    private static int unit(Doc doc, MappingNode m, int column) {
        if (m.getValue().get(0).getValueNode() instanceof MappingNode first && first.getFlowStyle() != FlowStyle.FLOW
                && !first.getValue().isEmpty()) {
            int step = doc.column(first.getValue().get(0).getKeyNode()) - column;
            if (step > 0) return step;
        }
        return 2;
    }

    private static NodeTuple find(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) if (t.getKeyNode() instanceof ScalarNode s && s.getValue().equals(key)) return t;
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    /** A parsed file: its top-level mapping's nodes with their marks, its values, and where its aliases are. */
    private record Doc(String text, MappingNode root, Object values, List<Integer> aliases, boolean bmp) {
        private static final LoadSettings SETTINGS = LoadSettings.builder().setAllowDuplicateKeys(false).setUseMarks(true).build();

        static Doc read(String text) throws JsonDocument.SyntaxError, JsonEdit.Conflict {
            Node node;
            Object values;
            List<Integer> aliases = new ArrayList<>();
            boolean bmp = text.codePointCount(0, text.length()) == text.length();
            try {
                node = new Compose(SETTINGS).composeString(text).orElse(null);
                values = new Load(SETTINGS).loadFromString(text);
                for (Event e : new Parse(SETTINGS).parseString(text)) {
                    if (e instanceof AliasEvent a && a.getStartMark().isPresent()) aliases.add(offset(text, bmp, a.getStartMark().get()));
                }
            } catch (YamlEngineException e) {
                throw new JsonDocument.SyntaxError(message(e));
            }
            if (node != null && !(node instanceof MappingNode)) throw new JsonEdit.Conflict("its top level is not a mapping");
            MappingNode root = (MappingNode) node;
            if (root != null && root.getFlowStyle() == FlowStyle.FLOW) {
                throw new JsonEdit.Conflict("its top level is a flow mapping ({…}); engram init edits block mappings only");
            }
            return new Doc(text, root, values, aliases, bmp);
        }

        /** The value at {@code section.key} as plain Java (Map, List, String, Boolean, Number), or null. */
        Object value(String section, String key) {
            return values instanceof Map<?, ?> r && r.get(section) instanceof Map<?, ?> s ? s.get(key) : null;
        }

        /** Refuses a section holding aliases: their nodes carry the marks of what they point to, not their own. */
        void requireNoAliases(NodeTuple sec, String section) throws JsonEdit.Conflict {
            int from = start(sec.getKeyNode());
            // a block mapping ends at the next token after it (its end mark), past every alias it holds
            int to = Math.max(lineEnd(end(sec.getKeyNode())), end(sec.getValueNode()));
            if (start(sec.getValueNode()) < end(sec.getKeyNode()) || aliases.stream().anyMatch(a -> a >= from && a < to)) {
                throw new JsonEdit.Conflict("'" + section + "' uses YAML aliases (*name), which engram init does not edit");
            }
        }

        /** Refuses an entry whose key does not start its line (only whitespace before it). */
        void requireOwnLine(Node key, String section) throws JsonEdit.Conflict {
            int s = start(key);
            if (!text.substring(lineStart(s), s).isBlank()) {
                throw new JsonEdit.Conflict("an entry of '" + section + "' does not start its own line");
            }
        }

        int start(Node n) {
            return offset(text, bmp, n.getStartMark().orElseThrow());
        }

        int end(Node n) {
            return offset(text, bmp, n.getEndMark().orElseThrow());
        }

        int column(Node n) {
            int s = start(n);
            return s - lineStart(s);
        }

        int lineStart(int at) {
            return text.lastIndexOf('\n', at - 1) + 1;
        }

        /** The offset after the line break ending the line that holds {@code at} (the end of the text on the last line). */
        int lineEnd(int at) {
            int nl = text.indexOf('\n', at);
            return nl < 0 ? text.length() : nl + 1;
        }

        /** The end of an entry's last line: after its value's last character, a comment on that line and the line break. */
        int entryEnd(NodeTuple t) {
            int e = Math.max(end(t.getKeyNode()), contentEnd(t.getValueNode()));
            if (e > 0 && text.charAt(e - 1) == '\n') return e; // a block scalar ends after its line break
            if (text.substring(lineStart(e), e).isBlank() && lineStart(e) > start(t.getKeyNode())) return lineStart(e);
            return lineEnd(e);
        }

        /** Where a node's own text ends: a block collection's end mark lies at the next token, so its last item's is taken. */
        private int contentEnd(Node n) {
            if (n instanceof MappingNode m && m.getFlowStyle() != FlowStyle.FLOW && !m.getValue().isEmpty()) {
                NodeTuple last = m.getValue().get(m.getValue().size() - 1);
                return Math.max(end(last.getKeyNode()), contentEnd(last.getValueNode()));
            }
            if (n instanceof SequenceNode s && s.getFlowStyle() != FlowStyle.FLOW && !s.getValue().isEmpty()) {
                return contentEnd(s.getValue().get(s.getValue().size() - 1));
            }
            return end(n);
        }

        /** A mark's character offset: the parser counts code points. */
        private static int offset(String text, boolean bmp, Mark m) {
            return bmp ? m.getIndex() : text.offsetByCodePoints(0, m.getIndex());
        }

        private static String message(YamlEngineException e) {
            if (e instanceof MarkedYamlEngineException m) {
                String where = m.getProblemMark().map(k -> " at line " + (k.getLine() + 1) + ", column " + (k.getColumn() + 1)).orElse("");
                String context = m.getContext() == null || m.getContext().isBlank() ? "" : " (" + m.getContext().strip() + ")";
                return (m.getProblem() == null ? "" : m.getProblem().strip()) + where + context;
            }
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("").strip();
        }
    }
}
