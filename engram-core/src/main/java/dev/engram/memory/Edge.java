package dev.engram.memory;

import java.time.Instant;
import java.util.Objects;

/** A typed, directed link {@code from --type--> to} between two memories of any zone. */
public record Edge(String fromId, String toId, EdgeType type, Instant createdAt) {
    public Edge {
        Objects.requireNonNull(fromId, "fromId");
        Objects.requireNonNull(toId, "toId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(createdAt, "createdAt");
        if (fromId.equals(toId)) {
            throw new IllegalArgumentException("an edge cannot join memory " + fromId + " to itself");
        }
    }

    /** The memory at the other end, seen from {@code id}. */
    public String other(String id) {
        return fromId.equals(id) ? toId : fromId;
    }
}
