package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.Optional;

/**
 * Only a table of contents; the agent expands sections with {@code stm_proxy_select_chunks} and the
 * entries' keys. In {@link TocFormat#JSON} (the default) it is memtomem-stm's JSON ({@link JsonToc}),
 * in {@link TocFormat#TEXT} Engram's shorter list ({@link TableOfContents}) between a header and a hint.
 */
public final class SelectiveStrategy implements CompressionStrategy {
    private final TocFormat format;

    public SelectiveStrategy() {
        this(TocFormat.Choice.DEFAULT.selective());
    }

    public SelectiveStrategy(TocFormat format) {
        this.format = format;
    }

    @Override
    public CompressionMode mode() {
        return CompressionMode.SELECTIVE;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (in.sections().size() < 2) return Optional.empty();
        int listed;
        String text;
        if (format == TocFormat.JSON) {
            JsonToc.Rendered toc = JsonToc.render(in);
            if (toc == null) return Optional.empty();
            listed = toc.listed();
            text = toc.text();
        } else {
            String head = "[selective: " + in.sections().size() + " sections, " + in.raw().length() + " chars | key="
                    + in.key() + "]\n";
            String hint = "[-> stm_proxy_select_chunks(key=\"" + in.key() + "\", sections=[\"" + in.sections().get(0).id()
                    + "\", ...]) | whole text: stm_proxy_read_more(key=\"" + in.key() + "\", offset=0)]";
            TableOfContents.Rendered toc = TableOfContents.render(in.raw(), in.sections(),
                    in.budget() - head.length() - hint.length());
            if (toc.listed() == 0) return Optional.empty();
            listed = toc.listed();
            text = head + toc.text() + hint;
        }
        double retention = listed == in.sections().size() ? 1.0 : (double) listed / in.sections().size();
        return Optional.of(new Compressed(text, mode(), retention));
    }
}
