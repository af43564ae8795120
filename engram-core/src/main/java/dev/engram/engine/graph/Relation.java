package dev.engram.engine.graph;

/** A stored relation between two entities (which may sit in different zones), by name. */
public record Relation(String fromZone, String from, String toZone, String to, String type) {
}
