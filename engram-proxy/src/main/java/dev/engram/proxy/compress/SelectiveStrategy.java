package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.Optional;

/** Only a table of contents; the agent expands sections with {@code stm_proxy_select_chunks}. */
public final class SelectiveStrategy implements CompressionStrategy {
    @Override
    public CompressionMode mode() {
        return CompressionMode.SELECTIVE;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (in.sections().size() < 2) return Optional.empty();
        String head = "[selective: " + in.sections().size() + " sections, " + in.raw().length() + " chars | key="
                + in.key() + "]\n";
        String hint = "[-> stm_proxy_select_chunks(key=\"" + in.key() + "\", sections=[\"" + in.sections().get(0).id()
                + "\", ...]) | whole text: stm_proxy_read_more(key=\"" + in.key() + "\", offset=0)]";
        TableOfContents.Rendered toc = TableOfContents.render(in.raw(), in.sections(),
                in.budget() - head.length() - hint.length());
        if (toc.listed() == 0) return Optional.empty();
        double retention = toc.listed() == in.sections().size() ? 1.0 : (double) toc.listed() / in.sections().size();
        return Optional.of(new Compressed(head + toc.text() + hint, mode(), retention));
    }
}
