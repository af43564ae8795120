package dev.engram.proxy.compress;

import dev.engram.proxy.config.CompressionMode;
import java.util.Optional;

/**
 * One way to shrink a result. Contract: the text returned is at most {@code input.budget()}
 * characters, footers included; empty means the strategy does not apply to this content (e.g.
 * schema pruning of non-JSON). Implementations are stateless and thread-safe.
 */
public interface CompressionStrategy {
    CompressionMode mode();

    Optional<Compressed> compress(CompressionInput input);
}
