package dev.engram.spi;

import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A lexical search with filters. {@code text} is free text, matched over content, key, tags and
 * file; a blank text matches nothing. Null or empty filters do not restrict. {@code tags} must all
 * match; {@code statuses} restricts the lifecycle state. {@code from}/{@code to} bound the creation time, inclusive.
 */
public record IndexQuery(String text, Set<String> zones, Set<MemoryType> types, Set<String> tags,
                         Set<MemoryStatus> statuses, Instant from, Instant to, int limit) {
    public IndexQuery {
        Objects.requireNonNull(text, "text");
        zones = zones == null ? Set.of() : Set.copyOf(zones);
        types = types == null ? Set.of() : Set.copyOf(types);
        tags = tags == null ? Set.of() : Set.copyOf(tags);
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }

    public static IndexQuery text(String text, String zone, int limit) {
        return new IndexQuery(text, Set.of(zone), Set.of(), Set.of(), Set.of(), null, null, limit);
    }
}
