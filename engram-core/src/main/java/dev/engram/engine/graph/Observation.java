package dev.engram.engine.graph;

import dev.engram.memory.Memory;

/**
 * One observation with the entity it belongs to. brain-tools stored each observation as an entity of
 * its own named {@code "<entity>: <text>"}; {@link #name()} is that name, by which the brain tools find,
 * verify, mark, open and delete a single observation.
 */
public record Observation(Entity entity, Memory memory) {
    public String name() {
        return entity.name() + EntityGraph.OBSERVATION_NAME_SEPARATOR + memory.content();
    }

    public String text() {
        return memory.content();
    }
}
