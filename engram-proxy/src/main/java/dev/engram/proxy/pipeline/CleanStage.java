package dev.engram.proxy.pipeline;

import dev.engram.proxy.compress.Compressor;
import dev.engram.proxy.compress.TextCleaner;

/**
 * CLEAN. A result within its budget ({@link ProxiedCall#budget}) is left exactly as sent (small
 * results pass through byte-identical); a larger one is cleaned by {@link TextCleaner}, which never
 * lengthens it, unless it is over {@link Compressor#MAX_PROCESSED_CHARS}.
 */
public final class CleanStage implements PipelineStage {
    @Override
    public String name() {
        return "clean";
    }

    @Override
    public PipelineText apply(PipelineText in, ProxiedCall call) {
        if (in.raw().length() <= call.budget(in.raw().length())) return in;
        if (in.raw().length() > Compressor.MAX_PROCESSED_CHARS) return in; // too large to clean: COMPRESS says so
        return in.withText(TextCleaner.clean(in.text()));
    }

    @Override
    public int maxOutputChars(PipelineText in, ProxiedCall call) {
        return in.text().length();
    }
}
