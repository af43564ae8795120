package dev.engram.engine.session;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One agent session on this store, as its heartbeats left it: the session id, the agent (the MCP
 * client's name), the host and process serving it, the git branch, when it started and was last seen,
 * and the files its tool calls named with when each was last touched. {@code agent} and {@code branch}
 * may be null (a client that sent no name, a project outside git).
 */
public record AgentSession(String id, String agent, String host, long pid, String branch, Instant startedAt,
                           Instant lastSeen, Map<String, Instant> files) {
    public AgentSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(lastSeen, "lastSeen");
        files = Map.copyOf(files);
    }
}
