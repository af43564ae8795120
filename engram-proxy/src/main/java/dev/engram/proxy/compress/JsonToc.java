package dev.engram.proxy.compress;

import java.util.List;

/**
 * The selective strategy's table of contents as memtomem-stm writes it, so scripts written for STM
 * read Engram's unchanged: {@code {"type": "toc", "selection_key", "format", "total_chars",
 * "ttl_seconds_remaining", "entries":
 * [{"key", "type", "size", "preview", "inline"}], "hint"}}. An entry's {@code key} is what
 * {@code stm_proxy_select_chunks} takes in {@code sections}. Engram adds fields STM readers skip: an
 * entry's {@code title} (STM's key is the title; Engram's is a short id), and {@code omitted} when the
 * budget cannot hold every entry (the tail as an id range, still selectable).
 * <p>
 * It fits the budget as the text list does: previews shrink by 20 chars down to none, then only a
 * prefix of the entries is listed. Null when not even one entry fits.
 */
final class JsonToc {
    /**
     * STM's {@code ttl_seconds_remaining}: how long the key lasts unused. The proxy's store keeps an
     * original {@link OriginalStore#DEFAULT_TTL} after its last use, so a fresh TOC has all of it.
     */
    static final long TTL_SECONDS = OriginalStore.DEFAULT_TTL.toSeconds();

    private JsonToc() {
    }

    record Rendered(String text, int listed) {
    }

    static Rendered render(CompressionInput in) {
        return render(in, in.sections(), in.budget());
    }

    /** The TOC of {@code sections} (all of {@code in}'s, or the rest after a head) within {@code budget} chars. */
    static Rendered render(CompressionInput in, List<Section> sections, int budget) {
        String format = format(in);
        String head = "{\"type\": \"toc\", \"selection_key\": " + quote(in.key()) + ", \"format\": " + quote(format)
                + ", \"total_chars\": " + in.raw().length() + ", \"ttl_seconds_remaining\": " + TTL_SECONDS
                + ", \"entries\": [";
        String tail = ", \"hint\": " + quote("Call stm_proxy_select_chunks(key='" + in.key() + "', sections=['"
                + sections.get(0).id() + "', ...]) to retrieve; the whole text: stm_proxy_read_more(key='" + in.key()
                + "', offset=0).") + "}";
        for (int preview = TableOfContents.PREVIEW_CHARS; preview >= 0; preview -= 20) {
            StringBuilder sb = new StringBuilder(head);
            for (int i = 0; i < sections.size() && sb.length() <= budget; i++) {
                if (i > 0) sb.append(", ");
                sb.append(entry(in, format, sections.get(i), preview));
            }
            sb.append(']').append(tail);
            if (sb.length() <= budget) return new Rendered(sb.toString(), sections.size());
        }
        // a prefix of bare entries and the rest as an id range; running lengths keep this linear
        int best = 0;
        int used = head.length();
        for (int n = 1; n < sections.size(); n++) {
            used += (n > 1 ? 2 : 0) + entry(in, format, sections.get(n - 1), 0).length();
            if (used > budget) break; // longer prefixes only grow
            if (used + omitted(sections, n).length() + tail.length() <= budget) best = n;
        }
        if (best == 0) return null;
        StringBuilder sb = new StringBuilder(head);
        for (int i = 0; i < best; i++) {
            if (i > 0) sb.append(", ");
            sb.append(entry(in, format, sections.get(i), 0));
        }
        return new Rendered(sb.append(omitted(sections, best)).append(tail).toString(), best);
    }

    private static String entry(CompressionInput in, String format, Section s, int preview) {
        String type = switch (format) {
            case "json" -> jsonType(in.raw(), s);
            case "markdown" -> "heading";
            default -> "paragraph";
        };
        return "{\"key\": " + quote(s.id()) + ", \"type\": " + quote(type) + ", \"size\": " + s.size()
                + ", \"preview\": " + quote(preview > 0 ? TableOfContents.preview(in.raw(), s, preview) : "")
                + ", \"inline\": false, \"title\": " + quote(s.title()) + "}";
    }

    /** Closes the entries and names the sections not listed: {@code "omitted": {"from", "to", "count"}}. */
    private static String omitted(List<Section> sections, int listed) {
        return "], \"omitted\": {\"from\": " + quote(sections.get(listed).id()) + ", \"to\": "
                + quote(sections.get(sections.size() - 1).id()) + ", \"count\": " + (sections.size() - listed) + "}";
    }

    /** STM's names: {@code json} for a JSON text, {@code markdown} when cut at headings, else {@code text}. */
    static String format(CompressionInput in) {
        if (in.json() != null) return "json";
        return Sections.headings(in.raw()).size() >= 2 ? "markdown" : "text";
    }

    /** STM types a JSON chunk by its first char; Engram's JSON sections are runs of members or elements. */
    private static String jsonType(String raw, Section s) {
        String t = raw.substring(s.start(), s.end()).strip();
        if (t.startsWith("{")) return "object";
        if (t.startsWith("[")) return "array";
        return "string";
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || Character.isSurrogate(c) && !validPair(s, i)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A lone surrogate (a preview cut inside a pair) is escaped so the TOC stays encodable. */
    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
