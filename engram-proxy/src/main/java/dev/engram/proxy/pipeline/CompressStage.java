package dev.engram.proxy.pipeline;

import dev.engram.proxy.compress.CompressionOutcome;
import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.config.CompressionMode;

/**
 * COMPRESS. The raw result within its budget ({@link ProxiedCall#budget}) passes untouched; anything
 * else goes through the {@link Compressor} and comes out within that budget (unless the server says
 * {@code none}).
 */
public final class CompressStage implements PipelineStage {
    private final Compressor compressor;

    public CompressStage(Compressor compressor) {
        this.compressor = compressor;
    }

    @Override
    public String name() {
        return "compress";
    }

    @Override
    public PipelineText apply(PipelineText in, ProxiedCall call) {
        int budget = call.budget(in.raw().length());
        if (in.raw().length() <= budget) return in.compressed(in.text(), "none", null);
        CompressionOutcome out = compressor.compress(call.server(), call.tool(), in.raw(), in.text(), budget,
                call.compression(), call.contextQuery());
        return in.compressed(out.text(), out.path(), out.key());
    }

    @Override
    public int maxOutputChars(PipelineText in, ProxiedCall call) {
        boolean none = call.compression() == CompressionMode.NONE;
        int budget = call.budget(in.raw().length());
        return none || in.raw().length() <= budget ? in.text().length() : budget;
    }
}
