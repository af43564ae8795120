package dev.engram.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * A typed, directed link {@code from --type--> to} between two memories of any zone. {@code label} is
 * an optional free-text relation name as a graph profile's caller gives it ({@code works_at}); an
 * edge is identified by its ends, type and label, so two labels between the same memories coexist.
 */
public record Edge(String fromId, String toId, EdgeType type, String label, Instant createdAt) {
    public Edge {
        Objects.requireNonNull(fromId, "fromId");
        Objects.requireNonNull(toId, "toId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(createdAt, "createdAt");
        if (label != null && label.isEmpty()) throw new IllegalArgumentException("label must be null or non-empty");
        if (fromId.equals(toId)) {
            throw new IllegalArgumentException("an edge cannot join memory " + fromId + " to itself");
        }
    }

    /** An edge without a label. */
    public Edge(String fromId, String toId, EdgeType type, Instant createdAt) {
        this(fromId, toId, type, null, createdAt);
    }

    /** The memory at the other end, seen from {@code id}. */
    public String other(String id) {
        return fromId.equals(id) ? toId : fromId;
    }
}
