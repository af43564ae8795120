package dev.engram.mcp.tool;

/**
 * Who made a tool call, as recorded on what it writes: the MCP client's name and session ({@code
 * claude-code/3f2a…}), the git branch checked out in the project directory, and the client's name alone
 * ({@code client}, the agent a session heartbeat shows), and the {@code transport} session when the transport
 * has ids a client presents (HTTP; session_rotate gives it a new one). Any part may be null: calls from tests,
 * benches and the CLI have no session, stdio has no transport session.
 */
public record Caller(String session, String branch, String client, TransportSession transport) {
    public static final Caller NONE = new Caller(null, null, null, null);

    public Caller(String session, String branch) {
        this(session, branch, null, null);
    }

    public Caller(String session, String branch, String client) {
        this(session, branch, client, null);
    }

    /** The session as stored: the client's name and the transport's session id, either of which may be missing. */
    public static String session(String clientName, String sessionId) {
        String client = clientName == null || clientName.isBlank() ? null : clientName.strip();
        String id = sessionId == null || sessionId.isBlank() ? null : sessionId.strip();
        if (client == null) return id;
        return id == null ? client : client + "/" + id;
    }
}
