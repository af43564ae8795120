package dev.engram.engine.lifecycle;

import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SearchIndex;
import java.time.Instant;

/**
 * What a {@link MaintenanceStep} works on: the store (writes go through {@link MemoryStore#write}, one
 * transaction per unit of work so a crash leaves nothing half-done), the index (to call
 * {@link SearchIndex#catchUpAfterWrite()} after writes and to find neighbours), the embedder, the cycle's instant,
 * the zone ({@code null}: every zone) and whether this is a dry run.
 */
public record MaintenanceContext(MemoryStore store, SearchIndex index, Embedder embedder, Instant now, String zone,
                                 boolean dryRun) {
}
