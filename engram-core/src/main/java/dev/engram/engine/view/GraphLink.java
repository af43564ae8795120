package dev.engram.engine.view;

import dev.engram.memory.EdgeType;

/** A typed edge between two drawn memories; {@code label} is a graph profile's relation name, or null. */
public record GraphLink(String from, String to, EdgeType type, String label) {
}
