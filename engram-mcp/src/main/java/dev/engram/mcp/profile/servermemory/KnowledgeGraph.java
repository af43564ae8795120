package dev.engram.mcp.profile.servermemory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * server-memory's view of a graph: entities with their observations in order, and relations by entity
 * name. What its tools print, its resource serves and its {@code memory.jsonl} holds; independent of
 * how Engram stores it.
 */
public record KnowledgeGraph(List<Entity> entities, List<Relation> relations) {
    public KnowledgeGraph {
        entities = List.copyOf(entities);
        relations = List.copyOf(relations);
    }

    public static KnowledgeGraph empty() {
        return new KnowledgeGraph(List.of(), List.of());
    }

    public record Entity(String name, String entityType, List<String> observations) {
        public Entity {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(entityType, "entityType");
            observations = List.copyOf(observations);
        }

        /** The fields in server-memory's order: name, entityType, observations. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("entityType", entityType);
            m.put("observations", new ArrayList<>(observations));
            return m;
        }
    }

    public record Relation(String from, String to, String relationType) {
        public Relation {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(relationType, "relationType");
        }

        /** The fields in server-memory's order: from, to, relationType. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("from", from);
            m.put("to", to);
            m.put("relationType", relationType);
            return m;
        }
    }

    /** {@code {"entities": [...], "relations": [...]}}, the shape of read_graph, search_nodes and open_nodes. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("entities", entities.stream().map(Entity::toMap).toList());
        m.put("relations", relations.stream().map(Relation::toMap).toList());
        return m;
    }
}
