package dev.engram.engine.session;

import java.util.List;

/** A file touched by two or more active sessions: nobody is stopped, each is told who else is there. */
public record SoftConflict(String file, List<AgentSession> sessions) {
    public SoftConflict {
        sessions = List.copyOf(sessions);
    }
}
