package dev.engram.engine.zone;

import java.time.Instant;

/**
 * A zone as listed: its descriptions (null when none was given; the default zone always has one), its dates (a
 * zone without a record dates from its first memory, see {@link ZoneOperation#list}) and what it holds.
 */
public record ZoneSummary(String name, String shortDescription, String description, Instant createdAt, Instant updatedAt,
                          int entities, int memories) {
}
