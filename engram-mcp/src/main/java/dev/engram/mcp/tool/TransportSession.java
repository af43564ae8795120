package dev.engram.mcp.tool;

import dev.engram.engine.session.SessionRotation;

/**
 * The transport session a tool call came on, when its transport has ids a client presents (Streamable HTTP's
 * {@code Mcp-Session-Id}); over stdio there is none. The HTTP server makes one per request and hands it to the call
 * through the SDK's transport context ({@link #KEY}).
 */
public interface TransportSession {
    /** The request attribute and transport context key holding the session. */
    String KEY = "engram.transport-session";

    /** The transport's id of this session (what the SDK calls it). */
    String id();

    /**
     * The id its client presents for this session now: after a rotation the newest issued one, which is what a
     * reader of the session ({@code memory://active-session}) must be shown; before any, {@link #id()}.
     */
    default String currentId() {
        return id();
    }

    /**
     * Gives this session a new id ({@link SessionRotation#rotate}); the id this request presented stops working, and
     * the response to this request carries the new one in its {@code Mcp-Session-Id} header.
     */
    SessionRotation.Rotated rotate(String reason);
}
