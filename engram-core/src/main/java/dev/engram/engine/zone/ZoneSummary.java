package dev.engram.engine.zone;

import java.time.Instant;

/**
 * A zone as listed: its descriptions and dates (null for a zone that only exists because memories
 * were written to it) and what it holds.
 */
public record ZoneSummary(String name, String shortDescription, String description, Instant createdAt, Instant updatedAt,
                          int entities, int memories) {
}
