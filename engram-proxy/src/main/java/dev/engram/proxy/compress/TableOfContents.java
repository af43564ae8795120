package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
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

    /**
     * As {@link #render(String, List, int)}, with previews of at most {@code maxPreview} chars (0: titles only).
     * Linear in what fits the budget, not in the number of sections: a try stops once it is over the
     * budget, and the entries kept when the tail is summarized are found from running lengths. Rendering
     * every count from all-but-one down to one took O(sections²): 5,000 sections of a 10 MiB text spent
     * seconds here.
     */
    static Rendered render(String raw, List<Section> sections, int budget, int maxPreview) {
        for (int preview = maxPreview; preview >= 0; preview -= 20) {
            String t = lines(raw, sections, preview, budget);
            if (t != null) return new Rendered(t, sections.size());
        }
        int best = 0;
        int used = 0;
        for (int n = 1; n < sections.size(); n++) {
            used += entry(raw, sections.get(n - 1), 0).length();
            if (used > budget) break; // longer prefixes only grow
            if (used + rest(sections, n).length() <= budget) best = n;
        }
        if (best == 0) return new Rendered("", 0);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < best; i++) sb.append(entry(raw, sections.get(i), 0));
        return new Rendered(sb.append(rest(sections, best)).toString(), best);
    }

    /**
     * What follows the title, line by line: text the title already shows (a heading, a first
     * line, a cut first line's start) is not repeated, graph marks ({@code | / \}) are dropped, and
     * so are header lines ({@code Author: …}, {@code Date: …}) while other text follows: in a git log
     * or a mail the line after them is what tells one record from the next.
     */
    static String preview(String raw, Section s, int chars) {
        String text = raw.substring(s.start(), TextCut.atCodePoint(raw, Math.min(s.end(), s.start() + (chars + 80) * 4)));
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
        return TextCut.clip(p, chars);
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

    /** Every section's entry, or null as soon as they are longer than {@code budget}. */
    private static String lines(String raw, List<Section> sections, int preview, int budget) {
        StringBuilder sb = new StringBuilder();
        for (Section s : sections) {
            sb.append(entry(raw, s, preview));
            if (sb.length() > budget) return null;
        }
        return sb.toString();
    }

    private static String entry(String raw, Section s, int preview) {
        StringBuilder sb = new StringBuilder("- ").append(s.id()).append(" \"").append(s.title().replace('"', '\''))
                .append("\" (").append(s.size()).append(" chars)");
        if (preview > 0) {
            String p = preview(raw, s, preview);
            if (!p.isEmpty()) sb.append(": ").append(p);
        }
        return sb.append('\n').toString();
    }

    /** The line summarizing the sections after the first {@code listed}: still selectable by id. */
    private static String rest(List<Section> sections, int listed) {
        return "- " + sections.get(listed).id() + " .. " + sections.get(sections.size() - 1).id() + ": "
                + (sections.size() - listed) + " more sections\n";
    }
}
