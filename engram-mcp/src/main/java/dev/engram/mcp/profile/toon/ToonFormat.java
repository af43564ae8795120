package dev.engram.mcp.profile.toon;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * toon-memory's line format (seed-systems §1.6): a {@code version: 1} line, a header
 * {@code entries[N|]{id|category|…}:} (or an unnamed {@code [N|]{…}:}, or {@code archived[N|]{…}:} in
 * archive.toon), one indented line per entry of up to 20 pipe-separated fields, and an optional
 * {@code summaries:} block of {@code file: summary} lines. Fields are read by position: toon writes
 * all 20 whatever the header names, and old files stop after 12. {@code \|}, {@code \n} and
 * {@code \\} are escapes, the corruption toon suffered before v4.1.2 when they were not.
 */
public final class ToonFormat {
    /** The 20 fields in toon's order. */
    public static final List<String> FIELDS = List.of("id", "category", "key", "content", "file", "tags", "date", "ttl",
            "accessed", "links", "quality", "confidence", "lastAccessed", "priority", "path_scope", "origin", "status",
            "supersededOn", "importance", "evidence");
    private static final Pattern HEADER = Pattern.compile("^\\s*([A-Za-z_]*)\\[(\\d+)\\|?](?:\\{[^}]*})?:?\\s*$");

    private ToonFormat() {
    }

    /** One entry as toon stores it: the 20 fields by name ("" when the line had fewer). */
    public record Entry(Map<String, String> fields, boolean archived) {
        public Entry {
            fields = Map.copyOf(fields);
        }

        public String get(String name) {
            return fields.getOrDefault(name, "");
        }
    }

    /** A parsed file: entries in file order, file summaries, and the lines that could not be read (with why). */
    public record Parsed(List<Entry> entries, Map<String, String> summaries, List<String> malformed) {
        public Parsed {
            entries = List.copyOf(entries);
            summaries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(summaries));
            malformed = List.copyOf(malformed);
        }
    }

    public static Parsed parse(String text) {
        List<Entry> entries = new ArrayList<>();
        Map<String, String> summaries = new LinkedHashMap<>();
        List<String> malformed = new ArrayList<>();
        String section = null;
        String[] lines = text.replace("\r\n", "\n").split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) continue;
            Matcher h = HEADER.matcher(line);
            if (h.matches()) {
                section = h.group(1).isEmpty() ? "entries" : h.group(1);
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                section = line.strip().equals("summaries:") ? "summaries" : null; // version: 1 and the like
                continue;
            }
            if ("summaries".equals(section)) {
                int colon = line.indexOf(": ");
                if (colon > 0) summaries.put(unescape(line.substring(0, colon).strip()), unescape(line.substring(colon + 2)));
                continue;
            }
            if (section == null) {
                // an entry line with no header above it: say so, never skip it silently
                malformed.add("line " + (i + 1) + ": an indented line outside any entries[N|] section");
                continue;
            }
            List<String> values = split(line.strip());
            if (values.size() < 4 || values.get(2).isBlank()) {
                malformed.add("line " + (i + 1) + ": " + values.size() + " fields, expected id|category|key|content at least");
                continue;
            }
            Map<String, String> fields = new LinkedHashMap<>();
            for (int f = 0; f < FIELDS.size(); f++) fields.put(FIELDS.get(f), f < values.size() ? values.get(f) : "");
            entries.add(new Entry(fields, section.equals("archived")));
        }
        return new Parsed(entries, summaries, malformed);
    }

    /**
     * Whether {@code text} is a TOON memory document Engram may replace: empty, or with an entries header
     * and no line that fails to parse. /etc/passwd or a JSON file is not.
     */
    public static boolean isDocument(String text) {
        if (text.isBlank()) return true;
        boolean header = text.replace("\r\n", "\n").lines().anyMatch(l -> HEADER.matcher(l).matches());
        return header && parse(text).malformed().isEmpty();
    }

    /** Splits on unescaped pipes and undoes the escapes of each field. */
    static List<String> split(String line) {
        return split(line, true);
    }

    private static List<String> split(String line, boolean pipes) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char n = line.charAt(++i);
                switch (n) {
                    case 'n' -> cur.append('\n');
                    case '|', '\\' -> cur.append(n);
                    // any other pair is text (a Windows path, a regex): toon keeps both characters
                    default -> cur.append(c).append(n);
                }
            } else if (pipes && c == '|') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    static String unescape(String s) {
        return split(s, false).get(0);
    }

    public static String escape(String s) {
        if (s == null) return "";
        // a CR (alone or before LF) is a line break, written as \n: \r would read back as two characters
        return s.replace("\\", "\\\\").replace("|", "\\|").replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n");
    }

    /** A whole file: entries (in {@code section}, "entries" or "archived") and summaries, as toon 4.x writes it. */
    public static String write(String section, List<Entry> entries, Map<String, String> summaries) {
        StringBuilder out = new StringBuilder("version: 1\n");
        out.append(section).append('[').append(entries.size()).append("|]{").append(String.join("|", FIELDS)).append("}:\n");
        for (Entry e : entries) {
            List<String> values = new ArrayList<>(FIELDS.size());
            for (String f : FIELDS) values.add(escape(e.get(f)));
            out.append("  ").append(String.join("|", values)).append('\n');
        }
        if (summaries != null && !summaries.isEmpty()) {
            out.append("summaries:\n");
            summaries.forEach((file, summary) -> out.append("  ").append(escape(file)).append(": ").append(escape(summary)).append('\n'));
        }
        return out.toString();
    }
}
