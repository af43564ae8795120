package dev.engram.proxy.upstream;

/** An upstream could not be reached or failed during a call; the message is meant for the agent. Its session is dropped, except after an {@link OversizedResultException}. */
public class UpstreamException extends RuntimeException {
    public UpstreamException(String message) {
        super(message);
    }

    public UpstreamException(String message, Throwable cause) {
        super(message, cause);
    }
}
