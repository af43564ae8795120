package dev.engram.proxy.compress;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Renders sections as a table of contents within a character budget. Previews shrink before
 * entries go; if even bare entries do not fit, the tail is summarized as a range of ids (still
 * selectable), and the result reports how many entries were listed one by one.
 */
public final class TableOfContents {
    /** memtomem-stm's TOC preview length. */
    public static final int PREVIEW_CHARS = 80;
    private static final Pattern GRAPH = Pattern.compile("^[|/\\\\ ]+");
    private static final Pattern HEADER = Pattern.compile("[A-Z][A-Za-z-]*:\\s");

    private TableOfContents() {
    }

    public record Rendered(String text, int listed) {
    }

    public static Rendered render(String raw, List<Section> sections, int budget) {
        return render(raw, sections, budget, PREVIEW_CHARS);
    }

    /** As {@link #render(String, List, int)}, with previews of at most {@code maxPreview} chars (0: titles only). */
    static Rendered render(String raw, List<Section> sections, int budget, int maxPreview) {
        for (int preview = maxPreview; preview >= 0; preview -= 20) {
            String t = lines(raw, sections, sections.size(), Math.max(0, preview));
            if (t.length() <= budget) return new Rendered(t, sections.size());
        }
        for (int n = sections.size() - 1; n >= 1; n--) {
            String t = lines(raw, sections, n, 0);
            if (t.length() <= budget) return new Rendered(t, n);
        }
        return new Rendered("", 0);
    }

    /**
     * What follows the title, line by line: text the title already shows (a heading, a first
     * line, a cut first line's start) is not repeated, graph marks ({@code | / \}) are dropped, and
     * so are header lines ({@code Author: …}, {@code Date: …}) while other text follows: in a git log
     * or a mail the line after them is what tells one record from the next.
     */
    static String preview(String raw, Section s, int chars) {
        String text = raw.substring(s.start(), Math.min(s.end(), s.start() + (chars + 80) * 4));
        String shown = s.title().endsWith("…") ? s.title().substring(0, s.title().length() - 1) : s.title();
        StringBuilder kept = new StringBuilder();
        StringBuilder headers = new StringBuilder();
        boolean first = true;
        for (String line : text.split("\n")) {
            String l = TextCleaner.oneLine(line);
            if (first) {
                int at = shown.isEmpty() ? -1 : l.indexOf(shown);
                // a title sits at the very start, after at most a heading's or a list's marks
                if (at >= 0 && at <= 8) l = l.substring(at + shown.length());
                first = false;
            }
            l = GRAPH.matcher(l).replaceFirst("");
            if (l.isEmpty()) continue;
            (HEADER.matcher(l).lookingAt() ? headers : kept).append(' ').append(l);
            if (kept.length() > chars) break;
        }
        String p = (kept.length() > 0 ? kept : headers).toString().strip();
        return p.length() > chars ? p.substring(0, chars) + "…" : p;
    }

    /**
     * A list of {@code sections} for a view that shows something else first (a chunk, a JSON
     * summary): one {@code select_chunks} call reaches any of them. Empty when there are none or
     * not even one entry fits {@code budget}.
     */
    static String jumpList(String key, String raw, List<Section> sections, int budget, int maxPreview) {
        if (sections.isEmpty()) return "";
        String head = "\n[any part, in one call: stm_proxy_select_chunks(key=\"" + key + "\", sections=[\""
                + sections.get(0).id() + "\"]); sections:]\n";
        Rendered toc = render(raw, sections, budget - head.length(), maxPreview);
        return toc.listed() == 0 ? "" : head + toc.text().stripTrailing();
    }

    /**
     * The jump list under a JSON summary (schema pruning, field extraction), in what is left of the
     * budget after {@code used} chars. Titles only: a JSON section's title is its path range
     * ({@code [24..35]}), which says more than the first 80 chars of its text would.
     */
    static String jsonJumpList(CompressionInput in, int used) {
        if (in.sections().size() < 2) return "";
        return jumpList(in.key(), in.raw(), in.sections(), in.budget() - used, 0);
    }

    private static String lines(String raw, List<Section> sections, int listed, int preview) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < listed; i++) {
            Section s = sections.get(i);
            sb.append("- ").append(s.id()).append(" \"").append(s.title().replace('"', '\'')).append("\" (")
                    .append(s.size()).append(" chars)");
            if (preview > 0) {
                String p = preview(raw, s, preview);
                if (!p.isEmpty()) sb.append(": ").append(p);
            }
            sb.append('\n');
        }
        if (listed < sections.size()) {
            sb.append("- ").append(sections.get(listed).id()).append(" .. ").append(sections.get(sections.size() - 1).id())
                    .append(": ").append(sections.size() - listed).append(" more sections\n");
        }
        return sb.toString();
    }
}
