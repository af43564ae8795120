package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.Optional;

/**
 * Only a table of contents, as memtomem-stm's JSON ({@link JsonToc}); the agent expands sections with
 * {@code stm_proxy_select_chunks} and the entries' keys.
 */
public final class SelectiveStrategy implements CompressionStrategy {
    @Override
    public CompressionMode mode() {
        return CompressionMode.SELECTIVE;
    }

    @Override
    public Optional<Compressed> compress(CompressionInput in) {
        if (in.sections().size() < 2) return Optional.empty();
        JsonToc.Rendered toc = JsonToc.render(in);
        if (toc == null) return Optional.empty();
        double retention = toc.listed() == in.sections().size() ? 1.0 : (double) toc.listed() / in.sections().size();
        return Optional.of(new Compressed(toc.text(), mode(), retention));
    }
}
