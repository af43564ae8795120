package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;

/**
 * The result of COMPRESS: the text for the agent, the strategy that produced it, the path taken
 * (e.g. {@code hybrid→progressive_fallback}) and whether the original was stored under {@code key}.
 */
public record CompressionOutcome(String text, CompressionMode strategy, String path, double retention, String key) {
    public boolean stored() {
        return key != null;
    }
}
