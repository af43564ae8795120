package dev.engram.engine.session;

import java.util.Objects;
import java.util.Set;

/**
 * What one process says about one of its sessions: who it is, where it runs, the branch checked out now
 * and the files named since its last heartbeat (added to those it already touched).
 */
public record Heartbeat(String id, String agent, String host, long pid, String branch, Set<String> files) {
    public Heartbeat {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(host, "host");
        files = Set.copyOf(files);
    }
}
