package dev.engram.mcp.profile.servermemory;

import dev.engram.mcp.json.JsStringify;
import dev.engram.mcp.json.JsonLines;
import dev.engram.mcp.json.JsonText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * server-memory's {@code memory.jsonl}: one JSON object per line, {@code {"type":"entity","name",
 * "entityType","observations"}} or {@code {"type":"relation","from","to","relationType"}}, entities
 * first, lines joined by a newline with none after the last (as server-memory writes it). Pure: text
 * in, graph out, and back.
 * <p>Reading keeps every line it can use and names the others: a line of another or no {@code type} is
 * skipped, as server-memory's loader skips it; so is a line that is not JSON or lacks a field (server-memory
 * would fail every call on the first, and keep half an entity from the second). An import thus brings what the
 * file holds instead of nothing, and says which lines it left in the file. Fields server-memory does not write
 * are ignored, as it does.
 */
public final class MemoryJsonl {
    private final JsonText json;

    public MemoryJsonl(JsonText json) {
        this.json = json;
    }

    /** What a file gave: the graph of its usable lines, and why each other line was skipped ("line 3: …"). */
    public record Read(KnowledgeGraph graph, List<String> skipped) {
        public Read {
            skipped = List.copyOf(skipped);
        }
    }

    /** The whole file's text; blank lines are skipped silently, as server-memory skips them. */
    public Read read(String text) {
        List<KnowledgeGraph.Entity> entities = new ArrayList<>();
        List<KnowledgeGraph.Relation> relations = new ArrayList<>();
        List<String> skipped = JsonLines.read(text, json, (item, number) -> readItem(item, number, entities, relations));
        return new Read(new KnowledgeGraph(entities, relations), skipped);
    }

    private static void readItem(Map<String, Object> item, int number, List<KnowledgeGraph.Entity> entities,
                                 List<KnowledgeGraph.Relation> relations) {
        if (JsonLines.kind(item, number).equals("entity")) {
            entities.add(new KnowledgeGraph.Entity(string(item, "name", number, "entity"),
                    string(item, "entityType", number, "entity"), strings(item, number)));
        } else {
            relations.add(new KnowledgeGraph.Relation(string(item, "from", number, "relation"),
                    string(item, "to", number, "relation"), string(item, "relationType", number, "relation")));
        }
    }

    /** The file's text, exactly as server-memory's saveGraph writes it. */
    public String write(KnowledgeGraph graph) {
        List<String> lines = new ArrayList<>();
        for (KnowledgeGraph.Entity e : graph.entities()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", "entity");
            m.putAll(e.toMap());
            lines.add(JsStringify.compact(m));
        }
        for (KnowledgeGraph.Relation r : graph.relations()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", "relation");
            m.putAll(r.toMap());
            lines.add(JsStringify.compact(m));
        }
        return String.join("\n", lines);
    }

    private static String string(Map<String, Object> item, String field, int line, String kind) {
        if (item.get(field) instanceof String s) return s;
        throw JsonLines.bad(line, "an " + kind + " needs \"" + field + "\" as a string"
                + (item.containsKey(field) ? "" : " and has none") + shape(kind));
    }

    private static List<String> strings(Map<String, Object> item, int line) {
        if (item.get("observations") instanceof List<?> list) {
            List<String> out = new ArrayList<>(list.size());
            for (Object o : list) {
                if (!(o instanceof String s)) throw JsonLines.bad(line, "\"observations\" must hold only strings" + shape("entity"));
                out.add(s);
            }
            return out;
        }
        throw JsonLines.bad(line, "an entity needs \"observations\" as an array of strings" + shape("entity"));
    }

    private static String shape(String kind) {
        return kind.equals("entity")
                ? " ({\"type\":\"entity\",\"name\":\"Alice\",\"entityType\":\"person\",\"observations\":[\"likes tea\"]})"
                : " ({\"type\":\"relation\",\"from\":\"Alice\",\"to\":\"Bob\",\"relationType\":\"knows\"})";
    }
}
