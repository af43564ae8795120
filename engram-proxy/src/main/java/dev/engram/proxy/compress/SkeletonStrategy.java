package dev.engram.proxy.compress;

import dev.engram.analysis.TextCut;
import dev.engram.proxy.config.CompressionMode;
import java.util.List;
import java.util.Optional;

/**
 * Every heading and the first line of each section under it: the document's outline, which for API
 * docs (one section per endpoint) says what every endpoint does. memtomem-stm's {@code skeleton}.
 * Each heading carries its section's id and size, so one {@code stm_proxy_select_chunks} call gives
 * any section exact; the footer names the whole original for {@code stm_proxy_read_more}.
 * <p>
 * Fits the budget by cutting first lines shorter (200, 120, 80, 40 chars, then headings alone), and
 * past that lists a prefix of the headings and names the rest as an id range (still selectable).
 * Applies only to markdown that splits at headings (at least two).
 */
public final class SkeletonStrategy implements CompressionStrategy {
    /** The first-line lengths tried, longest first; 0 means headings alone. */
    private static final int[] LINE_CHARS = {200, 120, 80, 40, 0};
    /** A heading longer than this is cut: the outline is for finding, the section has the rest. */
    static final int MAX_HEADING_CHARS = 120;

    @Override
    public CompressionMode mode() {
        return CompressionMode.SKELETON;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        List<Section> sections = in.sections();
        if (sections.size() < 2 || Sections.headings(in.raw()).size() < 2) return Optional.empty();
        String footer = footer(in);
        int room = in.budget() - footer.length();
        for (int chars : LINE_CHARS) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < sections.size() && sb.length() <= room; i++) sb.append(entry(in.raw(), sections.get(i), chars));
            if (sb.length() <= room) return Optional.of(new Compressed(sb.toString().stripTrailing() + footer, mode(), 1.0));
        }
        // headings alone do not fit: a prefix of them and the rest as a range; running lengths keep this linear
        int best = 0;
        int used = 0;
        for (int n = 1; n < sections.size(); n++) {
            used += entry(in.raw(), sections.get(n - 1), 0).length();
            if (used > room) break;
            if (used + rest(sections, n).length() <= room) best = n;
        }
        if (best == 0) return Optional.empty();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < best; i++) sb.append(entry(in.raw(), sections.get(i), 0));
        sb.append(rest(sections, best));
        return Optional.of(new Compressed(sb.toString().stripTrailing() + footer, mode(), (double) best / sections.size()));
    }

    /**
     * A section's heading line with its id and size, then (when {@code chars > 0}) its first line of
     * text, cut to {@code chars}. The preamble before the first heading shows only its first line.
     */
    static String entry(String raw, Section s, int chars) {
        String text = raw.substring(s.start(), TextCut.atCodePoint(raw, Math.min(s.end(), s.start() + 64 * 1024)));
        String[] lines = text.split("\n", -1);
        boolean preamble = !lines[0].stripLeading().startsWith("#");
        StringBuilder sb = new StringBuilder();
        String label = "[" + s.id() + " · " + s.size() + " chars]";
        if (preamble) {
            sb.append(label).append('\n');
        } else {
            sb.append(cut(TextCleaner.oneLine(lines[0]).strip(), MAX_HEADING_CHARS)).append("  ").append(label).append('\n');
        }
        if (chars > 0) {
            String first = firstLine(lines, preamble ? 0 : 1);
            if (!first.isEmpty()) sb.append(cut(first, chars)).append('\n');
        }
        return sb.append('\n').toString();
    }

    /** The first line with text at or after {@code from}, fence markers skipped; "" when the section has none. */
    private static String firstLine(String[] lines, int from) {
        for (int i = from; i < lines.length; i++) {
            String l = TextCleaner.oneLine(lines[i]).strip();
            if (l.isEmpty() || l.startsWith("```")) continue;
            return l;
        }
        return "";
    }

    private static String cut(String s, int chars) {
        return TextCut.clip(s, chars);
    }

    private static String rest(List<Section> sections, int listed) {
        return "[" + sections.get(listed).id() + " .. " + sections.get(sections.size() - 1).id() + ": "
                + (sections.size() - listed) + " more sections]\n";
    }

    private static String footer(CompressionInput in) {
        return "\n---\n[skeleton: every heading and its section's first line, " + in.sections().size()
                + " sections | key=" + in.key() + "; any section whole: stm_proxy_select_chunks(key=\"" + in.key()
                + "\", sections=[\"" + in.sections().get(Math.min(1, in.sections().size() - 1)).id()
                + "\"]); full original: " + in.raw().length() + " chars -> stm_proxy_read_more(key=\"" + in.key()
                + "\", offset=0)]";
    }
}
