package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.integer;
import static dev.engram.mcp.profile.brain.BrainTool.number;
import static dev.engram.mcp.profile.brain.BrainTool.objects;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.strings;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.ExistingEntity;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.rank.Freshness;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Entity writes and reads by name: create, update, delete, add_observations, mark_important, verify, open, recent. */
final class EntityTools {
    private static final String ZONE_DOC = "Memory zone (\"default\" when you have no other).";
    private final BrainContext c;

    EntityTools(BrainContext c) {
        this.c = c;
    }

    List<ToolHandler> tools() {
        return List.of(createEntities(), updateEntities(), deleteEntities(), addObservations(), markImportant(),
                getRecent(), openNodes(), verifyEntity());
    }

    private static Map<String, Object> zoneProp() {
        return string(ZONE_DOC, "default");
    }

    ToolHandler createEntities() {
        var def = tool("create_entities", "Create entities",
                "Create entities in knowledge graph (memory). Do NOT store information derivable from source code, git "
                        + "history, or documentation — memory is for context, decisions, and knowledge not in the codebase. "
                        + "Set reviewInterval based on content volatility: stable facts (180-365 days), project state (14-30), "
                        + "volatile state (1-7).",
                schema(props("entities", objects("List of entities to create", props(
                                "name", string("Entity name", "iaptic-server"),
                                "entityType", string("Entity type", "Project"),
                                "observations", strings("Observations about this entity", List.of("uses TypeScript")),
                                "reviewInterval", integer("Review interval in days. Short for volatile info (1-7), long for "
                                        + "stable facts (180-365). Default: 7.", 7),
                                "relevanceScore", number("Relevance, 0.01 to 25 (default 1; mark_important multiplies it by 10).", 1)),
                                List.of("name", "entityType"),
                                List.of(example())),
                        "memory_zone", zoneProp()), "entities", "memory_zone"),
                ToolHints.writes(false));
        return new BrainTool(def, args -> {
            List<EntityDraft> drafts = drafts(args, "entities", true);
            String zone = c.zone(args);
            List<String> conflicts = new ArrayList<>();
            List<Map<String, Object>> existing = new ArrayList<>();
            for (EntityDraft d : drafts) {
                Optional<Entity> e = c.graph(args).find(zone, d.name());
                if (e.isPresent() && !conflicts.contains(d.name())) {
                    conflicts.add(d.name());
                    existing.add(c.document(e.get()));
                }
            }
            if (!conflicts.isEmpty()) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("success", false);
                body.put("error", "Entity creation failed" + BrainContext.inZone(zone) + ", no entities were created.");
                body.put("conflicts", conflicts);
                body.put("existingEntities", existing);
                body.put("message", "Feel free to extend existing entities with more information if needed, or create "
                        + "entities with different names. Use update_entities to modify existing entities.");
                throw new BrainFailure(body);
            }
            c.graph(args).create(zone, drafts, ExistingEntity.MERGE);
            // one entry per item sent, as brain-tools saved each in turn: a name sent twice is listed twice
            // (the later item's type and observations are merged into the one entity)
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("entities", drafts.stream().map(d -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", d.name());
                m.put("entityType", d.entityType());
                return m;
            }).toList());
            return out;
        });
    }

    /** The entities argument as drafts; every item checked first, so a bad one writes nothing. */
    private static List<EntityDraft> drafts(ToolArgs args, String field, boolean typeRequired) {
        List<Map<String, Object>> items = args.objects(field);
        if (items == null) args.text(field);
        if (items.isEmpty()) throw new InvalidArgumentException(field, "is empty; send at least one entity, e.g. "
                + "[{\"name\": \"iaptic-server\", \"entityType\": \"Project\"}]");
        List<EntityDraft> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Map<String, Object> item = items.get(i);
            Items.onlyKnown(item, field, i, List.of("name", "entityType", "observations", "reviewInterval", "relevanceScore"));
            String name = Items.text(item, field, i, "name", true, "iaptic-server");
            String type = Items.text(item, field, i, "entityType", typeRequired, "Project");
            out.add(new EntityDraft(name, type, Items.strings(item, field, i, "observations"),
                    Items.interval(item, field, i, "reviewInterval"), Items.number(item, field, i, "relevanceScore", "1")));
        }
        return out;
    }

    private static Map<String, Object> nameAndType(Entity e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", e.name());
        m.put("entityType", e.entityType());
        return m;
    }

    ToolHandler updateEntities() {
        var def = tool("update_entities", "Update entities", "Update entities in knowledge graph (memory)",
                schema(props("entities", objects("List of entities to update", props(
                                "name", string("Entity name", "iaptic-server"),
                                "entityType", string("New entity type (kept when absent)", "Project"),
                                "observations", strings("Observations to add", List.of("moved to GKE")),
                                "isImportant", bool("true: relevance x10; false: relevance /10"),
                                "relevanceScore", number("New relevance, 0.01 to 25 (kept when absent).", 5)),
                                List.of("name"), List.of(Map.of("name", "iaptic-server", "observations", List.of("moved to GKE")))),
                        "memory_zone", zoneProp()), "entities", "memory_zone"),
                ToolHints.writes(false));
        return new BrainTool(def, args -> {
            List<Map<String, Object>> items = args.objects("entities");
            if (items == null) args.text("entities");
            if (items.isEmpty()) throw new InvalidArgumentException("entities", "is empty; send at least one {\"name\": …}");
            String zone = c.zone(args);
            List<EntityDraft> drafts = new ArrayList<>();
            List<Boolean> important = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                Map<String, Object> item = items.get(i);
                Items.onlyKnown(item, "entities", i, List.of("name", "entityType", "observations", "isImportant", "relevanceScore"));
                String name = Items.text(item, "entities", i, "name", true, "iaptic-server");
                Entity e = c.graph(args).find(zone, name).orElseThrow(() -> BrainFailure.of("Entity \"" + MemoryRules.clipped(name) + "\" not found"
                        + BrainContext.inZone(zone), "Create it with create_entities first, or check the name with search_nodes."));
                String type = Items.text(item, "entities", i, "entityType", false, "Project");
                drafts.add(new EntityDraft(name, type == null || type.isBlank() ? e.entityType() : type,
                        Items.strings(item, "entities", i, "observations"), null,
                        Items.number(item, "entities", i, "relevanceScore", "5")));
                important.add(Items.bool(item, "entities", i, "isImportant"));
            }
            List<Entity> updated = new ArrayList<>(c.graph(args).create(zone, drafts, ExistingEntity.MERGE));
            for (int i = 0; i < drafts.size(); i++) {
                if (important.get(i) != null) c.graph(args).markImportant(zone, drafts.get(i).name(), important.get(i));
            }
            return Map.of("entities", updated.stream().map(EntityTools::nameAndType).toList());
        });
    }

    ToolHandler deleteEntities() {
        var def = tool("delete_entities", "Delete entities", "Delete entities from knowledge graph (memory)",
                schema(props("names", strings("Names of entities to delete", List.of("iaptic-server")),
                        "memory_zone", zoneProp(),
                        "cascade_relations", bool("Whether to delete relations involving these entities (default: true)", true)),
                        "names", "memory_zone"),
                ToolHints.destructive(true));
        return new BrainTool(def, args -> {
            List<String> names = rawNames(args, "names");
            String zone = c.zone(args);
            if (names.stream().anyMatch(String::isBlank)) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("success", false);
                body.put("error", "Entity deletion failed for some entities");
                body.put("invalidNames", names.stream().filter(String::isBlank).map(n -> "[empty]").toList());
                body.put("message", "Entity names cannot be empty");
                throw new BrainFailure(body);
            }
            boolean cascade = !Boolean.FALSE.equals(optionalBool(args, "cascade_relations"));
            List<Map<String, Object>> results = new ArrayList<>();
            for (String name : new LinkedHashSet<>(names)) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("name", name);
                try {
                    // an entity by its name, else one observation by the name brain-tools gave it ("<entity>: <text>")
                    r.put("deleted", !c.graph(args).delete(zone, List.of(name), cascade).isEmpty()
                            || c.graph(args).deleteObservation(zone, name));
                } catch (EngramUserException e) {
                    r.put("deleted", false);
                    r.put("error", e.getMessage());
                }
                results.add(r);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("results", results);
            return out;
        });
    }

    /** A required array of strings with blanks kept (so an empty name can be reported as such). */
    static List<String> rawNames(ToolArgs args, String field) {
        List<String> kept = args.listWithBlanks(field);
        if (kept == null) args.text(field);
        if (kept.isEmpty()) throw new InvalidArgumentException(field, "is empty; send at least one entity name, e.g. [\"iaptic-server\"]");
        return kept;
    }

    static Boolean optionalBool(ToolArgs args, String field) {
        return args.boolOr(field);
    }

    /** brain-tools' {@code params.limit || default}: absent or 0 means the default; a negative one is refused. */
    static int limit(ToolArgs args, int byDefault) {
        Integer limit = args.intOr("limit", 0, 1000);
        return limit == null || limit == 0 ? byDefault : limit;
    }

    ToolHandler addObservations() {
        var def = tool("add_observations", "Add observations",
                "Add observations to an existing entity. Each observation becomes a separate entity with its own freshness "
                        + "lifecycle, linked via is_observation_of relation. Do NOT store information derivable from source "
                        + "code, git history, or documentation. Set reviewInterval based on volatility.",
                schema(props("name", string("Name of entity to add observations to", "iaptic-server"),
                        "observations", strings("Observations to add to the entity", List.of("uses TypeScript")),
                        "reviewInterval", integer("Review interval in days for observation entities (1-365). Default: 7.", 7),
                        "memory_zone", zoneProp()), "memory_zone", "name", "observations"),
                ToolHints.writes(true));
        return new BrainTool(def, args -> {
            String name = BrainContext.name(args, "name");
            List<String> sent = args.listWithBlanks("observations");
            if (sent == null) args.text("observations");
            if (sent.isEmpty()) throw new InvalidArgumentException("observations", "is empty; send at least one observation text");
            // blank texts are left out, as create_entities leaves them out; a call of blanks only has nothing to add
            List<String> texts = args.list("observations");
            if (texts.isEmpty()) {
                throw new InvalidArgumentException("observations", "holds only blank texts; send at least one observation "
                        + "with visible text, e.g. [\"uses TypeScript\"]");
            }
            Integer interval = args.intOr("reviewInterval", 1, Freshness.MAX_REVIEW_INTERVAL_DAYS);
            String zone = c.zone(args);
            if (c.graph(args).find(zone, name).isEmpty()) {
                throw BrainFailure.of("Entity \"" + MemoryRules.clipped(name) + "\" not found" + BrainContext.inZone(zone),
                        "Please create the entity before adding observations.");
            }
            // a text the entity holds already is saved again (last write now, the interval sent), as brain-tools
            // saved its observation entity again; so every text sent is listed, as brain-tools lists them
            c.graph(args).addObservations(zone, name, texts, interval);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("parent", name);
            out.put("observations_created", texts.stream().map(t -> name + BrainContext.OBSERVATION_SEPARATOR + t).toList());
            return out;
        });
    }

    ToolHandler markImportant() {
        var def = tool("mark_important", "Mark important",
                "Mark entity as important in knowledge graph (memory) by boosting its relevance score",
                schema(props("name", string("Entity name", "iaptic-server"),
                        "important", bool("Set as important (true - multiply relevance by 10) or not (false - divide relevance by 10)"),
                        "memory_zone", zoneProp(),
                        "auto_create", bool("Whether to automatically create the entity if it doesn't exist (default: false)", false)),
                        "memory_zone", "name", "important"),
                ToolHints.writes(false));
        return new BrainTool(def, args -> {
            String name = BrainContext.name(args, "name");
            Boolean important = optionalBool(args, "important");
            if (important == null) throw new InvalidArgumentException("important", "is required: true to boost (x10), false to lower (/10)");
            boolean autoCreate = Boolean.TRUE.equals(optionalBool(args, "auto_create"));
            String zone = c.zone(args);
            boolean created = false;
            if (c.graph(args).find(zone, name).isEmpty() && c.graph(args).findObservation(zone, name).isPresent()) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("success", true);
                out.put("entity", c.document(c.graph(args).markObservationImportant(zone, name, important)));
                out.put("auto_created", false);
                return out;
            }
            if (c.graph(args).find(zone, name).isEmpty()) {
                if (!autoCreate) {
                    throw BrainFailure.of("Entity \"" + MemoryRules.clipped(name) + "\" not found" + BrainContext.inZone(zone),
                            "Please create the entity before marking it as important, or set auto_create to true.");
                }
                c.graph(args).create(zone, List.of(new EntityDraft(name, EntityGraph.UNKNOWN_TYPE, List.of())), ExistingEntity.SKIP);
                created = true;
            }
            Entity e = c.graph(args).markImportant(zone, name, important);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("entity", c.document(e));
            out.put("auto_created", created);
            return out;
        });
    }

    ToolHandler getRecent() {
        var def = tool("get_recent", "Recent entities",
                "Get recently accessed entities from knowledge graph (memory) and their relations",
                schema(props("limit", integer("Max results (default: 20 if includeObservations is false, 5 if true)", 20),
                        "includeObservations", bool("Whether to include full entity observations in results (default: false)", false),
                        "memory_zone", zoneProp()), "memory_zone"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            boolean withObs = Boolean.TRUE.equals(optionalBool(args, "includeObservations"));
            int limit = limit(args, withObs ? 5 : 20);
            String zone = c.zone(args);
            List<Entity> recent = c.graph(args).recent(zone, limit);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("entities", recent.stream().map(e -> c.view(e, withObs)).toList());
            out.put("total", recent.size());
            return out;
        });
    }

    ToolHandler openNodes() {
        var def = tool("open_nodes", "Open entities",
                "Get details about specific entities in knowledge graph (memory) and their relations",
                schema(props("names", strings("Names of entities to retrieve", List.of("iaptic-server")),
                        "memory_zone", zoneProp()), "names", "memory_zone"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            List<String> names = args.list("names");
            if (names == null) args.text("names");
            if (names.isEmpty()) throw new InvalidArgumentException("names", "is empty; send at least one entity name, e.g. [\"iaptic-server\"]");
            String zone = c.zone(args);
            List<Entity> found = new ArrayList<>();
            List<Map<String, Object>> shown = new ArrayList<>();
            for (String name : new LinkedHashSet<>(names)) {
                // an entity by its name, else one observation by the name brain-tools gave it ("<entity>: <text>")
                List<Entity> opened = c.graph(args).open(zone, List.of(name));
                if (!opened.isEmpty()) {
                    found.add(opened.get(0));
                    shown.add(c.view(opened.get(0), true));
                } else {
                    c.graph(args).openObservation(zone, name).ifPresent(o -> shown.add(c.view(o)));
                }
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("entities", shown);
            out.put("relations", c.graph(args).relationsTouching(found).stream().map(BrainContext::relation).toList());
            return out;
        });
    }

    ToolHandler verifyEntity() {
        var def = tool("verify_entity", "Verify entity",
                "Explicitly verify that an entity's information is still accurate. This refreshes the review clock via "
                        + "spaced repetition — the review interval doubles (capped at 365 days). Call this after confirming a "
                        + "needsReview entity is still valid (e.g., via git log, reading code, asking the user). Set "
                        + "reviewInterval based on content volatility: stable facts (names, architecture) → 180-365 days; "
                        + "project state → 14-30 days; volatile state (build status, active bugs) → 1-7 days. If the "
                        + "information is WRONG, use update_entities or delete_entities instead.",
                schema(props("name", string("Entity name to verify", "iaptic-server"),
                        "memory_zone", zoneProp(),
                        "reviewInterval", integer("Optional override for review interval in days (1-365). If not provided, "
                                + "the current interval is doubled (capped at 365).", 30)), "name", "memory_zone"),
                ToolHints.writes(false));
        return new BrainTool(def, args -> {
            String name = BrainContext.name(args, "name");
            Integer interval = args.intOr("reviewInterval", 1, Freshness.MAX_REVIEW_INTERVAL_DAYS);
            String zone = c.zone(args);
            Memory verified;
            if (c.graph(args).find(zone, name).isPresent()) {
                verified = c.graph(args).verify(zone, name, interval).memory();
            } else if (c.graph(args).findObservation(zone, name).isPresent()) {
                // one observation by the name brain-tools gave it ("<entity>: <text>"): its own review clock
                verified = c.graph(args).verifyObservation(zone, name, interval).memory();
            } else {
                throw BrainFailure.of("Entity \"" + MemoryRules.clipped(name) + "\" not found" + BrainContext.inZone(zone),
                        "Check the name with search_nodes (an observation is named \"<entity>: <text>\"); verify_entity "
                                + "only refreshes entities and observations that exist.");
            }
            Freshness f = Freshness.of(verified, c.now());
            Map<String, Object> entity = new LinkedHashMap<>();
            entity.put("name", name);
            entity.put("confidence", f.label().word());
            entity.put("reviewInterval", verified.reviewIntervalDays());
            entity.put("verifyCount", verified.verifyCount());
            entity.put("nextReviewAt", BrainContext.ISO.format(f.nextReviewAt()));
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("entity", entity);
            return out;
        });
    }

    /** An entity as brain-tools writes one, its fields in that order ({@code Map.of}'s order changes from run to run). */
    private static Map<String, Object> example() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("name", "iaptic-server");
        m.put("entityType", "Project");
        m.put("observations", List.of("uses TypeScript"));
        return m;
    }
}
