package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.Optional;

/** The first chunk of the original; {@code stm_proxy_read_more} continues where the footer says. */
public final class ProgressiveStrategy implements CompressionStrategy {
    private final int chunkChars;

    public ProgressiveStrategy(int chunkChars) {
        this.chunkChars = chunkChars;
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
        StoredResult view = new StoredResult(in.key(), "", "", in.raw(), in.sections());
        String text = ProgressiveChunks.chunk(view, 0, limit);
        if (text.length() > in.budget()) text = ProgressiveChunks.chunk(view, 0, limit / 2);
        // everything stays reachable by continuing: nothing is lost, only deferred
        return text.length() > in.budget() ? Optional.empty() : Optional.of(new Compressed(text, mode(), 1.0));
    }
}
