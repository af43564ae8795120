package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.json.JsStringify;
import dev.engram.engine.graph.Added;
import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.Graph;
import dev.engram.engine.graph.Relation;
import dev.engram.mcp.tool.ToolReply;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * server-memory's output: the text is {@code JSON.stringify(value, null, 2)} of what the tool returns,
 * byte for byte, and the structured content carries the same value under server-memory's field names.
 */
final class GraphRenderer {
    private GraphRenderer() {
    }

    static KnowledgeGraph.Entity entity(Entity e) {
        return new KnowledgeGraph.Entity(e.name(), e.entityType(), e.observationTexts());
    }

    static KnowledgeGraph.Relation relation(Relation r) {
        return new KnowledgeGraph.Relation(r.from(), r.to(), r.type());
    }

    static KnowledgeGraph graph(List<Entity> entities, List<Relation> relations) {
        return new KnowledgeGraph(entities.stream().map(GraphRenderer::entity).toList(),
                relations.stream().map(GraphRenderer::relation).toList());
    }

    static KnowledgeGraph graph(Graph g) {
        return graph(g.entities(), g.relations());
    }

    /** create_entities: the entities created. */
    static ToolReply entities(List<Entity> created) {
        List<Map<String, Object>> list = created.stream().map(e -> entity(e).toMap()).toList();
        return new ToolReply(JsStringify.pretty(list), Map.of("entities", list));
    }

    /** create_relations: the relations created. */
    static ToolReply relations(List<Relation> created) {
        List<Map<String, Object>> list = created.stream().map(r -> relation(r).toMap()).toList();
        return new ToolReply(JsStringify.pretty(list), Map.of("relations", list));
    }

    /** add_observations: per entity asked, the texts added. */
    static ToolReply added(List<Added> added) {
        List<Map<String, Object>> list = added.stream().map(a -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("entityName", a.entityName());
            m.put("addedObservations", a.added());
            return m;
        }).toList();
        return new ToolReply(JsStringify.pretty(list), Map.of("results", list));
    }

    /** The three deletes: one fixed sentence, as server-memory says it. */
    static ToolReply done(String message) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", true);
        m.put("message", message);
        return new ToolReply(message, m);
    }

    /** read_graph, search_nodes, open_nodes. */
    static ToolReply graphReply(KnowledgeGraph g) {
        Map<String, Object> m = g.toMap();
        return new ToolReply(JsStringify.pretty(m), m);
    }

    /** The memory://knowledge-graph resource's text. */
    static String graphText(KnowledgeGraph g) {
        return JsStringify.pretty(g.toMap());
    }
}
