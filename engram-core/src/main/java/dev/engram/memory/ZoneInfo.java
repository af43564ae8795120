package dev.engram.memory;

import java.time.Instant;
import java.util.Objects;

/**
 * What a zone says about itself (brain-tools' zone metadata). A zone exists as soon as a memory is
 * written to it; this record adds descriptions and dates for zones someone created on purpose.
 * Descriptions may be null.
 */
public record ZoneInfo(String name, String shortDescription, String description, Instant createdAt, Instant updatedAt) {
    public ZoneInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }
}
