package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.choice;
import static dev.engram.mcp.profile.brain.BrainTool.openSchema;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.strings;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.zone.ConflictPolicy;
import dev.engram.engine.zone.CopyResult;
import dev.engram.engine.zone.MergeResult;
import dev.engram.engine.zone.ZoneStats;
import dev.engram.engine.zone.ZoneSummary;
import dev.engram.error.InvalidArgumentException;
import dev.engram.llm.ChatModels;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.MemoryRules;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Zone tools over the engine's {@link dev.engram.engine.zone.ZoneOperation}, plus get_time_utc. */
final class ZoneTools {
    private static final Logger log = LoggerFactory.getLogger(ZoneTools.class);
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);
    private static final List<String> USEFULNESS = List.of("not useful", "a little useful", "very useful");
    private final BrainContext c;

    ZoneTools(BrainContext c) {
        this.c = c;
    }

    List<ToolHandler> tools() {
        return List.of(listZones(), createZone(), deleteZone(), copyEntities(), moveEntities(), mergeZones(), zoneStats(),
                timeUtc());
    }

    private static String zoneName(ToolArgs args, String field) {
        return args.text(field).strip().toLowerCase(Locale.ROOT);
    }

    ToolHandler listZones() {
        var def = tool("list_zones", "List zones", "List all available memory zones with metadata. When a reason is provided, "
                        + "zones will be filtered and prioritized based on relevance to your needs.",
                schema(props("reason", string("Reason for listing zones. What zones are you looking for? Why are you looking "
                        + "for them? The AI will use this to prioritize and filter relevant zones.", "find the zone of the "
                        + "billing project"))), ToolHints.readOnly());
        return new BrainTool(def, args -> {
            String reason = args.textOr("reason");
            List<ZoneSummary> zones = c.zones().list();
            Map<String, Integer> scores = reason == null || reason.isBlank() || c.model.isEmpty() ? Map.of() : usefulness(zones, reason);
            List<Map<String, Object>> out = new ArrayList<>();
            List<ZoneSummary> ordered = new ArrayList<>(zones);
            ordered.sort(Comparator.comparingInt((ZoneSummary z) -> -scores.getOrDefault(z.name(), 2)));
            for (ZoneSummary z : ordered) {
                int score = scores.getOrDefault(z.name(), 2);
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", z.name());
                if (score >= 1) m.put("description", z.description() != null ? z.description() : z.shortDescription());
                if (score >= 2) {
                    if (z.shortDescription() != null) m.put("shortDescription", z.shortDescription());
                    if (z.createdAt() != null) m.put("created_at", BrainContext.ISO.format(z.createdAt()));
                    if (z.updatedAt() != null) m.put("last_modified", BrainContext.ISO.format(z.updatedAt()));
                    m.put("entity_count", z.entities());
                }
                m.put("usefulness", USEFULNESS.get(score));
                out.add(m);
            }
            return Map.of("zones", out);
        });
    }

    /** The model's 0/1/2 per zone for the reason; an unscored or failed zone counts as very useful. */
    private Map<String, Integer> usefulness(List<ZoneSummary> zones, String reason) {
        String list = zones.stream().map(z -> "- " + z.name() + ": " + (z.description() != null ? z.description()
                : z.shortDescription() != null ? z.shortDescription() : "(no description)")).collect(Collectors.joining("\n"));
        try {
            String answer = c.model.get().complete(new ChatPrompt("You rate how useful each memory zone is for the user's "
                    + "need: 0 not useful, 1 a little useful, 2 very useful. Answer with one JSON object mapping each zone "
                    + "name to its number, nothing else.", "Need: " + reason + "\n\nZones:\n" + list, 0.1, 400,
                    Duration.ofSeconds(10)));
            Map<String, Integer> out = new HashMap<>();
            ChatModels.jsonObject(answer, c.json).forEach((k, v) -> {
                if (v instanceof Number n && n.intValue() >= 0 && n.intValue() <= 2) out.put(k, n.intValue());
            });
            return out;
        } catch (LlmException e) {
            log.warn("list_zones: no usefulness scores, the model did not answer: {}", e.getMessage());
            return Map.of();
        }
    }

    ToolHandler createZone() {
        var def = tool("create_zone", "Create zone", "Create a new memory zone with optional description.",
                openSchema(props("name", string("Zone name (cannot be 'default'): lowercase letters, digits, '-', '_' or '.'", "billing"),
                        "shortDescription", string("Short description of the zone.", "Billing service"),
                        "description", string("Full zone description. Make it very descriptive and detailed. Sent for a "
                                + "zone that exists, it replaces that zone's description.", null)), "name"),
                ToolHints.writes(true));
        return new BrainTool(def, args -> {
            String name = zoneName(args, "name");
            // brain-tools upserts the zone's metadata: this is also how its description is changed
            c.zones().createOrUpdate(name, args.textOr("shortDescription"), args.textOr("description"));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("zone", name);
            out.put("message", "Zone \"" + name + "\" created successfully");
            return out;
        });
    }

    ToolHandler deleteZone() {
        var def = tool("delete_zone", "Delete zone", "Delete a memory zone and all its entities/relations.",
                openSchema(props("name", string("Zone name to delete (cannot be 'default')", "billing"),
                        "confirm", bool("Confirmation flag, must be true", false)), "name", "confirm"),
                ToolHints.destructive(true));
        return new BrainTool(def, args -> {
            String name = zoneName(args, "name");
            if (!Boolean.TRUE.equals(args.boolOr("confirm"))) {
                throw BrainFailure.of("Confirmation required. Set confirm=true to proceed with deletion.", null);
            }
            // a zone that is not there is deleted already: brain-tools answers success, and so does a second call
            if (name.equals(MemoryRules.DEFAULT_ZONE) || c.zones().exists(MemoryRules.zone("name", name))) {
                c.zones().delete(name, true);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("message", "Zone \"" + name + "\" deleted successfully");
            return out;
        });
    }

    private static List<String> names(ToolArgs args) {
        List<String> names = args.list("names");
        if (names == null) args.text("names");
        if (names.isEmpty()) throw new InvalidArgumentException("names", "is empty; send at least one entity name, e.g. [\"iaptic-server\"]");
        return names;
    }

    private static List<Map<String, Object>> skipped(CopyResult r) {
        return r.skipped().stream().map(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", s.name());
            m.put("reason", s.reason());
            return m;
        }).toList();
    }

    ToolHandler copyEntities() {
        var def = tool("copy_entities", "Copy entities", "Copy entities between zones with optional relation handling.",
                openSchema(props("names", strings("Entity names to copy", List.of("iaptic-server")),
                        "source_zone", string("Source zone", "default"), "target_zone", string("Target zone", "billing"),
                        "copy_relations", bool("Copy related relationships (default: true)", true),
                        "overwrite", bool("Overwrite if entity exists (default: false)", false)), "names", "source_zone", "target_zone"),
                ToolHints.writes(true));
        return new BrainTool(def, args -> {
            List<String> names = names(args);
            String source = c.zones().require("source_zone", zoneName(args, "source_zone"));
            String target = c.zones().require("target_zone", zoneName(args, "target_zone"));
            CopyResult r = c.zones().copy(names, source, target, !Boolean.FALSE.equals(args.boolOr("copy_relations")),
                    Boolean.TRUE.equals(args.boolOr("overwrite")));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", !r.copied().isEmpty());
            out.put("entities_copied", r.copied());
            out.put("entities_skipped", skipped(r));
            out.put("relations_copied", r.relationsCopied());
            if (!r.relationsSkipped().isEmpty()) out.put("relations_skipped", r.relationsSkipped());
            if (r.copied().isEmpty()) throw new BrainFailure(out);
            return out;
        });
    }

    ToolHandler moveEntities() {
        var def = tool("move_entities", "Move entities", "Move entities between zones (copy + delete from source).",
                openSchema(props("names", strings("Entity names to move", List.of("iaptic-server")),
                        "source_zone", string("Source zone", "default"), "target_zone", string("Target zone", "billing"),
                        "move_relations", bool("Move related relationships (default: true)", true),
                        "overwrite", bool("Overwrite if entity exists (default: false)", false)), "names", "source_zone", "target_zone"),
                ToolHints.destructive(false));
        return new BrainTool(def, args -> {
            List<String> names = names(args);
            String source = c.zones().require("source_zone", zoneName(args, "source_zone"));
            String target = c.zones().require("target_zone", zoneName(args, "target_zone"));
            CopyResult r = c.zones().move(names, source, target, !Boolean.FALSE.equals(args.boolOr("move_relations")),
                    Boolean.TRUE.equals(args.boolOr("overwrite")));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", !r.copied().isEmpty());
            out.put("entities_moved", r.copied());
            out.put("entities_skipped", skipped(r));
            out.put("relations_moved", r.relationsCopied());
            if (!r.relationsSkipped().isEmpty()) out.put("relations_skipped", r.relationsSkipped());
            if (r.copied().isEmpty()) throw new BrainFailure(out);
            return out;
        });
    }

    ToolHandler mergeZones() {
        var def = tool("merge_zones", "Merge zones", "Merge multiple zones with conflict resolution options.",
                openSchema(props("source_zones", strings("Source zones to merge from", List.of("old-billing")),
                        "target_zone", string("Target zone to merge into", "billing"),
                        "delete_source_zones", bool("Delete source zones after merging (default: false). A source zone "
                                + "still holding what the merge did not bring over (entities skipped on a name conflict) is "
                                + "kept and listed in kept_zones with the reason; the default zone is never deleted.", false),
                        "overwrite_conflicts", choice("How to handle name conflicts (default: skip)", List.of("skip", "overwrite", "rename"),
                                "skip")),
                        "source_zones", "target_zone"),
                ToolHints.destructive(false));
        return new BrainTool(def, args -> {
            List<String> sources = args.list("source_zones");
            if (sources == null) args.text("source_zones");
            if (sources.isEmpty()) throw new InvalidArgumentException("source_zones", "is empty; send at least one zone name");
            String target = c.zones().require("target_zone", zoneName(args, "target_zone"));
            ConflictPolicy policy = args.choice("overwrite_conflicts", ConflictPolicy::parse);
            MergeResult r = c.zones().merge(sources.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList(), target,
                    Boolean.TRUE.equals(args.boolOr("delete_source_zones")), policy == null ? ConflictPolicy.SKIP : policy);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", !r.mergedZones().isEmpty());
            out.put("merged_zones", r.mergedZones());
            out.put("failed_zones", r.failedZones().stream().map(f -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("zone", f.zone());
                m.put("reason", f.reason());
                return m;
            }).toList());
            out.put("entities_copied", r.entitiesCopied());
            out.put("entities_skipped", r.entitiesSkipped());
            out.put("relations_copied", r.relationsCopied());
            if (r.relationsSkipped() > 0) out.put("relations_skipped", r.relationsSkipped());
            if (Boolean.TRUE.equals(args.boolOr("delete_source_zones"))) {
                out.put("deleted_zones", r.deletedZones());
                out.put("kept_zones", r.keptZones().stream().map(k -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("zone", k.zone());
                    m.put("memories_left", k.memoriesLeft());
                    m.put("reason", k.reason());
                    return m;
                }).toList());
            }
            if (r.mergedZones().isEmpty()) throw new BrainFailure(out);
            return out;
        });
    }

    ToolHandler zoneStats() {
        var def = tool("zone_stats", "Zone stats", "Get statistics for entities and relationships in a zone. Observations "
                        + "count as entities of type \"observation\"; observation_count says how many there are.",
                openSchema(props("zone", string("Zone name (\"default\" for the default zone)", "default")), "zone"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            ZoneStats s = c.zones().stats(c.zones().require("zone", zoneName(args, "zone")));
            // brain-tools stores each observation as an entity of type "observation" and counts it as one
            Map<String, Integer> types = new TreeMap<>(s.entityTypes());
            if (s.observationCount() > 0) types.merge(EntityGraph.OBSERVATION_TYPE, s.observationCount(), Integer::sum);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("zone", s.zone());
            out.put("entity_count", s.entityCount() + s.observationCount());
            out.put("relation_count", s.relationCount());
            out.put("entity_types", types);
            out.put("relation_types", new TreeMap<>(s.relationTypes()));
            out.put("observation_count", s.observationCount());
            return out;
        });
    }

    ToolHandler timeUtc() {
        var def = tool("get_time_utc", "UTC time", "Get the current UTC time in YYYY-MM-DD hh:mm:ss format",
                schema(props()), ToolHints.readOnly());
        return new BrainTool(def, args -> Map.of("utc_time", UTC.format(c.now())));
    }
}
