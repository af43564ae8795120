package dev.engram.spi;

/** One entry of the store's change feed: memory {@code memoryId} was inserted, updated or deleted. */
public record Change(long seq, String memoryId) {
}
