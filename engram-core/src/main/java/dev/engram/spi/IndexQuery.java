package dev.engram.spi;

import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;

/**
 * A lexical search with filters. {@code text} is free text, matched as {@code match} says; a blank
 * text matches nothing. Null or empty filters do not restrict. {@code tags} must all match;
 * {@code statuses} restricts the lifecycle state. {@code from}/{@code to} bound the creation time, inclusive.
 */
public record IndexQuery(String text, Set<String> zones, Set<MemoryType> types, Set<String> tags,
                         Set<MemoryStatus> statuses, Instant from, Instant to, int limit, Match match) {

    /** Where the text is looked for. */
    public enum Match {
        /** Content, key, tags and file, in every language's analysis: finding what an agent means. */
        ALL_FIELDS,
        /**
         * The content's words only, as whitespace and punctuation split them: comparing one text with
         * others (near-duplicates), where keys and tags say nothing and a few clauses do the job.
         */
        CONTENT_WORDS
    }

    public IndexQuery {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(match, "match");
        zones = zones == null ? Set.of() : Set.copyOf(zones);
        types = types == null ? Set.of() : Set.copyOf(types);
        tags = tags == null ? Set.of() : Set.copyOf(tags);
        statuses = statuses == null ? Set.of() : Set.copyOf(statuses);
        if (limit < 1) throw new IllegalArgumentException("limit must be >= 1, got " + limit);
    }

    public IndexQuery(String text, Set<String> zones, Set<MemoryType> types, Set<String> tags,
                      Set<MemoryStatus> statuses, Instant from, Instant to, int limit) {
        this(text, zones, types, tags, statuses, from, to, limit, Match.ALL_FIELDS);
    }

    public static IndexQuery text(String text, String zone, int limit) {
        return new IndexQuery(text, Set.of(zone), Set.of(), Set.of(), Set.of(), null, null, limit);
    }
}
