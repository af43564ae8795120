package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.objects;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.engine.graph.MissingEndpoint;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** create_relations (zones per end, missing ends created as "unknown" by default) and delete_relations. */
final class RelationTools {
    private final BrainContext c;

    RelationTools(BrainContext c) {
        this.c = c;
    }

    List<ToolHandler> tools() {
        return List.of(createRelations(), deleteRelations());
    }

    ToolHandler createRelations() {
        var def = tool("create_relations", "Create relations", "Create relationships between entities in knowledge graph (memory)",
                schema(props("relations", objects("List of relations to create", props(
                                "from", string("Source entity name", "John Smith"),
                                "fromZone", string("Optional zone for source entity, defaults to memory_zone or default zone. "
                                        + "Must be one of the existing zones.", "default"),
                                "to", string("Target entity name", "iaptic-server"),
                                "toZone", string("Optional zone for target entity, defaults to memory_zone or default zone. "
                                        + "Must be one of the existing zones.", "default"),
                                "type", string("Relationship type", "works_on")),
                                List.of("from", "to", "type"),
                                List.of(Map.of("from", "John Smith", "to", "iaptic-server", "type", "works_on"))),
                        "memory_zone", string("Optional default memory zone specifier. Used if a relation doesn't specify "
                                + "fromZone or toZone.", "default"),
                        "auto_create_missing_entities", bool("Whether to automatically create missing entities in the "
                                + "relations (default: true)", true)), "relations"),
                ToolHints.writes(true));
        return new BrainTool(def, args -> {
            List<Map<String, Object>> items = items(args);
            String zone = c.zone(args, BrainContext.ZONE_ARGUMENT, false);
            MissingEndpoint missing = Boolean.FALSE.equals(args.boolOr("auto_create_missing_entities"))
                    ? MissingEndpoint.FAIL : MissingEndpoint.CREATE_UNKNOWN;
            // every item's shape is checked before the first is written: a refused call writes nothing
            for (int i = 0; i < items.size(); i++) {
                Map<String, Object> item = items.get(i);
                Items.onlyKnown(item, "relations", i, List.of("from", "fromZone", "to", "toZone", "type"));
                requiredEnds(item, i);
                Items.text(item, "relations", i, "fromZone", false, "default");
                Items.text(item, "relations", i, "toZone", false, "default");
            }
            List<Map<String, Object>> saved = new ArrayList<>();
            List<Map<String, Object>> failed = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                Map<String, Object> item = items.get(i);
                RelationDraft ends = requiredEnds(item, i);
                String from = ends.from(), to = ends.to(), type = ends.type();
                try {
                    String fromZone = endZone(item, i, "fromZone", zone);
                    String toZone = endZone(item, i, "toZone", zone);
                    c.graph(args).relate(zone, List.of(new RelationDraft(fromZone, from, toZone, to, type)), missing);
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("from", from);
                    r.put("to", to);
                    r.put("type", type);
                    r.put("fromZone", fromZone);
                    r.put("toZone", toZone);
                    saved.add(r);
                } catch (EngramUserException e) {
                    Map<String, Object> f = new LinkedHashMap<>();
                    f.put("relation", item);
                    f.put("error", e.getMessage());
                    failed.add(f);
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", !saved.isEmpty() || failed.isEmpty());
            out.put("relations", saved);
            if (!failed.isEmpty()) out.put("failedRelations", failed);
            if (saved.isEmpty() && !failed.isEmpty()) throw new BrainFailure(out);
            return out;
        });
    }

    /** The item's from, to and type (zones not read): refused with the item's index when one is missing or not text. */
    private static RelationDraft requiredEnds(Map<String, Object> item, int i) {
        return RelationDraft.of(Items.text(item, "relations", i, "from", true, "John Smith"),
                Items.text(item, "relations", i, "to", true, "iaptic-server"),
                Items.text(item, "relations", i, "type", true, "works_on"));
    }

    private String endZone(Map<String, Object> item, int i, String field, String fallback) {
        String z = Items.text(item, "relations", i, field, false, "default");
        return z == null || z.isBlank() ? fallback : c.zones().require("relations[" + i + "]." + field, z.strip().toLowerCase(Locale.ROOT));
    }

    private static List<Map<String, Object>> items(ToolArgs args) {
        List<Map<String, Object>> items = args.objects("relations");
        if (items == null) args.text("relations");
        if (items.isEmpty()) {
            throw new InvalidArgumentException("relations", "is empty; send at least one {\"from\": …, \"to\": …, \"type\": …}");
        }
        return items;
    }

    ToolHandler deleteRelations() {
        var def = tool("delete_relations", "Delete relations", "Delete relationships from knowledge graph (memory)",
                schema(props("relations", objects("List of relations to delete", props(
                                "from", string("Source entity name", "John Smith"),
                                "to", string("Target entity name", "iaptic-server"),
                                "type", string("Relationship type", "works_on")),
                                List.of("from", "to", "type"),
                                List.of(Map.of("from", "John Smith", "to", "iaptic-server", "type", "works_on"))),
                        "memory_zone", string("Optional memory zone specifier. If provided, relations will be deleted from "
                                + "this zone.", "default")), "relations"),
                ToolHints.destructive(true));
        return new BrainTool(def, args -> {
            List<Map<String, Object>> items = items(args);
            String zone = c.zone(args, BrainContext.ZONE_ARGUMENT, false);
            for (int i = 0; i < items.size(); i++) { // all checked before the first is deleted
                Items.onlyKnown(items.get(i), "relations", i, List.of("from", "to", "type"));
                requiredEnds(items.get(i), i);
            }
            List<Map<String, Object>> results = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                RelationDraft ends = requiredEnds(items.get(i), i);
                String from = ends.from(), to = ends.to(), type = ends.type();
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("from", from);
                r.put("to", to);
                r.put("type", type);
                r.put("deleted", c.graph(args).unrelate(zone, List.of(RelationDraft.of(from, to, type))) > 0);
                results.add(r);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("results", results);
            return out;
        });
    }
}
