package dev.engram.proxy.surfacing;

/** One memory found for a proxied call: its id, a short label, a preview and its recall score. */
public record MemoryHit(String id, String label, String preview, double score) {
}
