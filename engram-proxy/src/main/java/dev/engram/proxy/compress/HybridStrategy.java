package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.List;
import java.util.Optional;

/**
 * The head of the original (up to {@link #MAX_HEAD_CHARS}, at most 60% of the budget) followed by
 * a table of contents of everything after it: the agent reads the start at once and picks the rest.
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
}
