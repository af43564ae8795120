package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The head of the original (up to {@link #MAX_HEAD_CHARS}, at most 60% of the budget) followed by
 * a table of contents of everything after it: the agent reads the start at once and picks the rest.
 * With a {@code _context_query} that some sections match ({@link CompressionInput#focus}), the head is
 * those sections instead, best first until the same share of the budget is used, shown in document
 * order under their ids; the table of contents then lists every section not shown whole.
 */
public final class HybridStrategy implements CompressionStrategy {
    /** memtomem-stm's head_chars. */
    public static final int MAX_HEAD_CHARS = 5000;
    /** memtomem-stm's head_ratio: the TOC keeps at least 40% of a tight budget. */
    public static final double HEAD_RATIO = 0.6;

    private final TocFormat format;

    public HybridStrategy() {
        this(TocFormat.Choice.DEFAULT.views());
    }

    /** {@code format}: how the rest is listed, Engram's text list or memtomem-stm's JSON table of contents. */
    public HybridStrategy(TocFormat format) {
        this.format = format;
    }

    @Override
    public CompressionMode mode() {
        return CompressionMode.HYBRID;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        String raw = in.raw();
        int headBudget = (int) Math.min(MAX_HEAD_CHARS, in.budget() * HEAD_RATIO);
        if (headBudget < 100 || in.sections().size() < 2) return Optional.empty();
        if (in.focused()) {
            Optional<Compressed> focused = focusedView(in, headBudget);
            if (focused.isPresent()) return focused;
        }
        int cutAt = ProgressiveChunks.boundary(raw, 0, headBudget);
        String head = TextCleaner.clean(raw.substring(0, cutAt));
        List<Section> rest = in.sections().stream().filter(s -> s.end() > cutAt).toList();
        if (rest.isEmpty()) return Optional.empty();
        String mid = "\n---\n[hybrid: chars 0-" + cutAt + " of " + raw.length() + " shown above | key=" + in.key()
                + "; the rest, by section:]\n";
        String hint = "[-> stm_proxy_select_chunks(key=\"" + in.key() + "\", sections=[\"" + rest.get(0).id()
                + "\"]) | continue: stm_proxy_read_more(key=\"" + in.key() + "\", offset=" + cutAt + ")]";
        int fullyInHead = in.sections().size() - rest.size();
        if (format == TocFormat.JSON) {
            // STM's shape: the head, a separator line, the JSON table of contents of the rest (its hint inside)
            JsonToc.Rendered toc = JsonToc.render(in, rest, in.budget() - head.length() - mid.length());
            if (toc == null) return Optional.empty();
            double retention = (double) (fullyInHead + toc.listed()) / in.sections().size();
            return Optional.of(new Compressed(head + mid + toc.text(), mode(), retention));
        }
        int tocBudget = in.budget() - head.length() - mid.length() - hint.length();
        TableOfContents.Rendered toc = TableOfContents.render(raw, rest, tocBudget);
        if (toc.listed() == 0) return Optional.empty();
        double retention = (double) (fullyInHead + toc.listed()) / in.sections().size();
        return Optional.of(new Compressed(head + mid + toc.text() + hint, mode(), retention));
    }

    /**
     * The sections that match the query (whole while they fit {@code showBudget}; the best one cut at a
     * paragraph or line when not even it fits), then the table of contents of all the others. Empty when
     * nothing could be shown, so the caller falls back to the head view.
     */
    /** A shown section's header line: its id, its title and {@code size}. */
    private static String label(Section s, String size) {
        return "[" + s.id() + " \"" + s.title().replace('"', '\'') + "\" · " + size + "]\n";
    }

    private Optional<Compressed> focusedView(CompressionInput in, int showBudget) {
        String raw = in.raw();
        List<Section> all = in.sections();
        TreeMap<Integer, String> shown = new TreeMap<>();
        Set<Integer> whole = new HashSet<>();
        int used = 0;
        for (SectionRanker.Ranked r : in.focus()) {
            Section s = all.get(r.index());
            String text = TextCleaner.clean(raw.substring(s.start(), s.end())).stripTrailing();
            String label = label(s, s.size() + " chars");
            String block = label + text + "\n";
            if (used + block.length() <= showBudget) {
                shown.put(r.index(), block);
                whole.add(r.index());
                used += block.length();
            } else if (shown.isEmpty()) {
                // the best match alone is longer than the room: its beginning, cut where a chunk would be
                String partLabel = label(s, "first part of " + s.size() + " chars");
                int room = showBudget - partLabel.length() - 1;
                if (room < 100) break;
                int cut = ProgressiveChunks.boundary(raw, s.start(), Math.min(room, s.size()));
                String part = TextCleaner.clean(raw.substring(s.start(), cut)).stripTrailing();
                if (part.length() > room) part = TruncateStrategy.cut(part, room);
                shown.put(r.index(), partLabel + part + "\n");
                used += partLabel.length() + part.length() + 1;
            }
        }
        if (shown.isEmpty()) return Optional.empty();
        List<Section> rest = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) if (!whole.contains(i)) rest.add(all.get(i));
        if (rest.isEmpty()) return Optional.empty();
        String ids = String.join(", ", shown.keySet().stream().map(i -> all.get(i).id()).toList());
        String head = String.join("", shown.values());
        String mid = "---\n[hybrid: " + shown.size() + " of " + all.size() + " sections shown above (" + ids
                + "), those that match your _context_query best | key=" + in.key() + "; the others, by section:]\n";
        String hint = "[-> stm_proxy_select_chunks(key=\"" + in.key() + "\", sections=[\"" + rest.get(0).id()
                + "\"]) | whole text: stm_proxy_read_more(key=\"" + in.key() + "\", offset=0)]";
        if (format == TocFormat.JSON) {
            JsonToc.Rendered toc = JsonToc.render(in, rest, in.budget() - head.length() - mid.length());
            if (toc == null) return Optional.empty();
            return Optional.of(new Compressed(head + mid + toc.text(), mode(), (double) (whole.size() + toc.listed()) / all.size()));
        }
        TableOfContents.Rendered toc = TableOfContents.render(raw, rest, in.budget() - head.length() - mid.length() - hint.length());
        if (toc.listed() == 0) return Optional.empty();
        return Optional.of(new Compressed(head + mid + toc.text() + hint, mode(), (double) (whole.size() + toc.listed()) / all.size()));
    }
}
