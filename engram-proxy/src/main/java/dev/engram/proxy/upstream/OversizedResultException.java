package dev.engram.proxy.upstream;

/**
 * The upstream answered, but with a message larger than the proxy reads. The connection is still
 * good (unlike other {@link UpstreamException}s, the session is kept): only this answer is lost.
 */
public final class OversizedResultException extends UpstreamException {
    public OversizedResultException(String message) {
        super(message);
    }
}
