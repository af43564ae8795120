package dev.engram.proxy.compress;

import java.util.List;

/**
 * Renders sections as a table of contents within a character budget. Previews shrink before
 * entries go; if even bare entries do not fit, the tail is summarized as a range of ids (still
 * selectable), and the result reports how many entries were listed one by one.
 */
public final class TableOfContents {
    /** memtomem-stm's TOC preview length. */
    public static final int PREVIEW_CHARS = 80;

    private TableOfContents() {
    }

    public record Rendered(String text, int listed) {
    }

    public static Rendered render(String raw, List<Section> sections, int budget) {
        for (int preview = PREVIEW_CHARS; preview >= 0; preview -= 20) {
            String t = lines(raw, sections, sections.size(), Math.max(0, preview));
            if (t.length() <= budget) return new Rendered(t, sections.size());
        }
        for (int n = sections.size() - 1; n >= 1; n--) {
            String t = lines(raw, sections, n, 0);
            if (t.length() <= budget) return new Rendered(t, n);
        }
        return new Rendered("", 0);
    }

    private static String lines(String raw, List<Section> sections, int listed, int preview) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < listed; i++) {
            Section s = sections.get(i);
            sb.append("- ").append(s.id()).append(" \"").append(s.title().replace('"', '\'')).append("\" (")
                    .append(s.size()).append(" chars)");
            if (preview > 0) {
                String p = TextCleaner.oneLine(raw.substring(s.start(), Math.min(s.end(), s.start() + preview * 3)));
                if (p.length() > preview) p = p.substring(0, preview) + "…";
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
