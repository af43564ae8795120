package dev.engram.engine.graph;

import dev.engram.memory.Memory;
import java.util.List;

/** An entity as stored: its memory and its observation memories in the order they were added. */
public record Entity(Memory memory, List<Memory> observations) {
    public Entity {
        observations = List.copyOf(observations);
    }

    public String name() {
        return memory.name();
    }

    public String entityType() {
        return memory.entityType();
    }

    public String zone() {
        return memory.zone();
    }

    public String id() {
        return memory.id();
    }

    /** The observations' texts, exactly as given, in order. */
    public List<String> observationTexts() {
        return observations.stream().map(Memory::content).toList();
    }
}
