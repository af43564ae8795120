package dev.engram.engine.graph;

import java.util.List;

/** Entities (oldest first) and the relations touching them (oldest first). */
public record Graph(List<Entity> entities, List<Relation> relations) {
    public Graph {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
    }
}
