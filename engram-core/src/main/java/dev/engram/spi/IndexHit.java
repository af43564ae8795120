package dev.engram.spi;

/** A search candidate: memory id and lexical score (higher is better, not normalised). */
public record IndexHit(String id, double score) {
}
