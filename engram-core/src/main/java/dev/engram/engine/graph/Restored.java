package dev.engram.engine.graph;

import java.time.Instant;
import java.util.List;

/**
 * What an importer carries over from another system for one entity, beyond its drafts: relevance,
 * verification count and time, read count and time, last write, and for an observation its own review
 * interval. A null keeps the stored value. {@code observations} are the stamps of the entity's
 * observations, each named by its text (brain-tools keeps every observation's freshness apart from its
 * entity's).
 */
public record Restored(String name, Double relevance, Integer verifyCount, Instant lastVerifiedAt, Long readCount,
                       Instant lastReadAt, Instant lastWriteAt, Integer reviewIntervalDays, List<Restored> observations) {
    public Restored {
        observations = observations == null ? List.of() : List.copyOf(observations);
    }

    /** An entity's stamps without a last write, an interval or observations (what a copy between zones carries). */
    public Restored(String name, Double relevance, Integer verifyCount, Instant lastVerifiedAt, Long readCount,
                    Instant lastReadAt) {
        this(name, relevance, verifyCount, lastVerifiedAt, readCount, lastReadAt, null, null, List.of());
    }

    /** Whether this carries anything at all. */
    public boolean isEmpty() {
        return relevance == null && verifyCount == null && lastVerifiedAt == null && readCount == null && lastReadAt == null
                && lastWriteAt == null && reviewIntervalDays == null && observations.isEmpty();
    }
}
