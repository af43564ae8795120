package dev.engram.mcp.profile.servermemory;

import dev.engram.engine.RecallQuery;

/**
 * How many entities search_nodes returns. Bounded by default: server-memory answers every entity that
 * contains the query, which for one common word at 10k entities is some 33k tokens in one turn; Engram
 * ranks and returns the best {@value #DEFAULT_LIMIT}. {@code unbounded} brings back server-memory's own
 * behaviour (every substring match, in graph order) for callers that rely on it.
 * Set with {@code ENGRAM_SERVER_MEMORY_SEARCH=unbounded|N}.
 */
public record SearchBound(Integer limit) {
    /** The profile setting's name in {@link dev.engram.mcp.profile.ProfileContext#settings()}. */
    public static final String SETTING = "server-memory.search";
    public static final String ENVIRONMENT = "ENGRAM_SERVER_MEMORY_SEARCH";
    public static final int DEFAULT_LIMIT = 20;
    public static final SearchBound DEFAULT = new SearchBound(DEFAULT_LIMIT);
    public static final SearchBound UNBOUNDED = new SearchBound(null);

    public SearchBound {
        if (limit != null && (limit < 1 || limit > RecallQuery.MAX_LIMIT)) {
            throw new IllegalArgumentException("must be 1.." + RecallQuery.MAX_LIMIT + " or unbounded, got " + limit);
        }
    }

    public boolean unbounded() {
        return limit == null;
    }

    /** {@code unbounded}, or a number of entities 1..100; null or blank is the default. */
    public static SearchBound parse(String value) {
        if (value == null || value.isBlank()) return DEFAULT;
        String v = value.strip();
        if (v.equalsIgnoreCase("unbounded")) return UNBOUNDED;
        if (v.matches("\\d{1,9}")) return new SearchBound(Integer.parseInt(v));
        throw new IllegalArgumentException("must be unbounded or a number of entities 1.." + RecallQuery.MAX_LIMIT
                + ", got '" + v + "'");
    }

    @Override
    public String toString() {
        return unbounded() ? "unbounded" : String.valueOf(limit);
    }
}
