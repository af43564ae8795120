package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;

/**
 * A compressed view. {@code retention} (0..1) is the share of the original's units (sections,
 * JSON key paths, characters for plain cuts) the agent can see or address from this view alone.
 */
public record Compressed(String text, CompressionMode strategy, double retention) {
    public Compressed {
        if (!(retention >= 0 && retention <= 1)) throw new IllegalArgumentException("retention must be 0..1, got " + retention);
    }
}
