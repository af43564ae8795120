package dev.engram.engine.graph;

import java.time.Instant;

/**
 * What an importer carries over from another system for one entity, beyond its drafts: relevance,
 * verification count and time, read count and time. A null keeps the stored value.
 */
public record Restored(String name, Double relevance, Integer verifyCount, Instant lastVerifiedAt, Long readCount,
                       Instant lastReadAt) {
}
