package dev.engram.proxy.upstream;

/**
 * An upstream could not be reached or failed during a call; the message is meant for the agent.
 * {@link #sessionBroken()} is false when the upstream answered the call with a JSON-RPC error: it
 * is alive and keeps its session.
 */
public class UpstreamException extends RuntimeException {
    private final boolean sessionBroken;

    public UpstreamException(String message) {
        this(message, null, true);
    }

    public UpstreamException(String message, Throwable cause) {
        this(message, cause, true);
    }

    private UpstreamException(String message, Throwable cause, boolean sessionBroken) {
        super(message, cause);
        this.sessionBroken = sessionBroken;
    }

    /** The upstream answered with an error: the call failed, the connection did not. */
    public static UpstreamException errorAnswer(String message, Throwable cause) {
        return new UpstreamException(message, cause, false);
    }

    public boolean sessionBroken() {
        return sessionBroken;
    }

    /** The JSON-RPC error code the upstream answered with, or null when it did not answer with one. */
    public Integer upstreamCode() {
        if (sessionBroken) return null;
        return getCause() instanceof io.modelcontextprotocol.spec.McpError e && e.getJsonRpcError() != null
                ? e.getJsonRpcError().code() : null;
    }
}
