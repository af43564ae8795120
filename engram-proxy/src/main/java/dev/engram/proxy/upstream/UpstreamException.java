package dev.engram.proxy.upstream;

/**
 * An upstream could not be reached or failed during a call; the message is meant for the agent.
 * {@link #sessionBroken()} is true only when the connection itself failed (the process exited, the
 * stream ended): not when the upstream answered with a JSON-RPC error, did not answer in time (it may
 * still be serving other calls), or the agent cancelled the call.
 */
public class UpstreamException extends RuntimeException {
    /** What went wrong, which decides what happens to the session. */
    public enum Kind {
        /** The connection failed: the session is dropped and the next call starts a new one. */
        BROKEN,
        /** The upstream answered with an error: the call failed, the connection did not. */
        ERROR_ANSWER,
        /** No answer within the call timeout: the request was cancelled upstream; others on the session go on. */
        TIMED_OUT,
        /** The agent cancelled the call: the request was cancelled upstream; nothing is wrong with the session. */
        CANCELLED
    }

    private final Kind kind;

    public UpstreamException(String message) {
        this(message, null, Kind.BROKEN);
    }

    public UpstreamException(String message, Throwable cause) {
        this(message, cause, Kind.BROKEN);
    }

    public UpstreamException(String message, Throwable cause, Kind kind) {
        super(message, cause);
        this.kind = kind;
    }

    /** The upstream answered with an error: the call failed, the connection did not. */
    public static UpstreamException errorAnswer(String message, Throwable cause) {
        return new UpstreamException(message, cause, Kind.ERROR_ANSWER);
    }

    public Kind kind() {
        return kind;
    }

    public boolean sessionBroken() {
        return kind == Kind.BROKEN;
    }

    /** The JSON-RPC error code the upstream answered with, or null when it did not answer with one. */
    public Integer upstreamCode() {
        if (kind != Kind.ERROR_ANSWER) return null;
        return getCause() instanceof io.modelcontextprotocol.spec.McpError e && e.getJsonRpcError() != null
                ? e.getJsonRpcError().code() : null;
    }
}
