package dev.engram.error;

/**
 * An embedder could not produce vectors: model still loading or failed to load, endpoint down or
 * misconfigured, wrong dimensions. Our side of the fence (like {@link StoreException}): recall falls
 * back to lexical search and the log carries the message, which says what to fix.
 */
public final class EmbeddingException extends RuntimeException {
    public EmbeddingException(String message, Throwable cause) {
        super(message, cause);
    }

    public EmbeddingException(String message) {
        super(message);
    }
}
