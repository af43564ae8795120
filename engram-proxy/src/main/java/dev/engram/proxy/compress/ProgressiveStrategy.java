package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.List;
import java.util.Optional;

/**
 * The first chunk of the original; {@code stm_proxy_read_more} continues where the footer says.
 * When more is left than one read_more returns, the footer also lists the sections after the chunk,
 * so a question about the middle or the end is one {@code stm_proxy_select_chunks} call away
 * instead of several read_more calls.
 */
public final class ProgressiveStrategy implements CompressionStrategy {
    private final int chunkChars;
    private final TocFormat format;

    public ProgressiveStrategy(int chunkChars) {
        this(chunkChars, TocFormat.Choice.DEFAULT.views());
    }

    /** {@code format}: how the sections after the chunk are listed (text, or memtomem-stm's JSON). */
    public ProgressiveStrategy(int chunkChars, TocFormat format) {
        this.chunkChars = chunkChars;
        this.format = format;
    }

    @Override
    public CompressionMode mode() {
        return CompressionMode.PROGRESSIVE;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (in.raw().length() <= Footers.RESERVE) return Optional.empty();
        int limit = Math.min(chunkChars, in.budget() - Footers.RESERVE - 200);
        if (limit < 100) return Optional.empty();
        String text = firstAnswer(in, limit);
        if (text.length() > in.budget()) text = firstAnswer(in, limit / 2);
        // everything stays reachable by continuing: nothing is lost, only deferred
        return text.length() > in.budget() ? Optional.empty() : Optional.of(new Compressed(text, mode(), 1.0));
    }

    private String firstAnswer(CompressionInput in, int limit) {
        String raw = in.raw();
        int to = ProgressiveChunks.boundary(raw, 0, limit);
        if (ProgressiveChunks.boundary(raw, to, ProgressiveChunks.DEFAULT_CHUNK_CHARS) == raw.length()) {
            // one read_more with the defaults reaches the end: the footer's read_more hint is enough
            return ProgressiveChunks.chunk(new StoredResult(in.key(), "", "", raw, in.sections()), 0, limit);
        }
        // leave the list room, as hybrid leaves its table of contents: the chunk takes at most HEAD_RATIO
        to = ProgressiveChunks.boundary(raw, 0, Math.min(limit, (int) (in.budget() * HybridStrategy.HEAD_RATIO)));
        int cut = to;
        String footer = Footers.progressive(in.key(), 0, to, raw.length(), List.of());
        List<Section> rest = in.sections().stream().filter(s -> s.end() > cut).toList();
        int room = in.budget() - to - footer.length();
        String jump;
        if (format == TocFormat.JSON) {
            JsonToc.Rendered toc = rest.isEmpty() ? null : JsonToc.render(in, rest, room - 1);
            jump = toc == null ? "" : "\n" + toc.text();
        } else {
            jump = TableOfContents.jumpList(in.key(), raw, rest, room, TableOfContents.PREVIEW_CHARS);
        }
        return raw.substring(0, to) + footer + jump;
    }
}
