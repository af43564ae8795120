package dev.engram.mcp.profile.brain;

import static dev.engram.mcp.profile.brain.BrainTool.bool;
import static dev.engram.mcp.profile.brain.BrainTool.choice;
import static dev.engram.mcp.profile.brain.BrainTool.integer;
import static dev.engram.mcp.profile.brain.BrainTool.props;
import static dev.engram.mcp.profile.brain.BrainTool.schema;
import static dev.engram.mcp.profile.brain.BrainTool.string;
import static dev.engram.mcp.profile.brain.BrainTool.strings;
import static dev.engram.mcp.profile.brain.BrainTool.tool;

import dev.engram.analysis.QueryString;
import dev.engram.engine.graph.Entity;
import dev.engram.error.InvalidArgumentException;
import dev.engram.llm.ChatModels;
import dev.engram.llm.ChatPrompt;
import dev.engram.llm.LlmException;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.MemoryRules;
import dev.engram.rank.Freshness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * search_nodes and inspect_knowledge_graph: Engram's ranked recall over entities, brain-tools' query
 * syntax as a filter ({@link QueryString}), progressive freshness widening, and the model's choice when
 * one is configured (never required: without a model the ranked answer is the answer).
 */
final class SearchTools {
    private static final Logger log = LoggerFactory.getLogger(SearchTools.class);
    /** How many ranked candidates a filtered search looks through. */
    static final int CANDIDATES = 100;
    /**
     * The sorts: brain-tools' schema offers relevance, recency and importance, while its code sorts by
     * last read only for 'recent' (what its admin CLI sends); both mean the last read here.
     */
    private static final List<String> SORTS = List.of("relevance", "recency", "recent", "importance");
    private final BrainContext c;

    SearchTools(BrainContext c) {
        this.c = c;
    }

    List<ToolHandler> tools() {
        return List.of(searchNodes(), inspectKnowledgeGraph());
    }

    ToolHandler searchNodes() {
        var def = tool("search_nodes", "Search entities",
                "Search entities using ElasticSearch query syntax. Supports boolean operators (AND, OR, NOT), fuzzy matching "
                        + "(~), phrases (\"term\"), proximity (\"terms\"~N), wildcards (*, ?), and boosting (^N). Results include "
                        + "freshness metadata: check the 'confidence' and 'needsReview' fields. For 'aging' or 'stale' results, "
                        + "verify before acting (e.g., git log --since). If confirmed valid, call verify_entity to refresh the "
                        + "review clock. If wrong, update or delete the entity.",
                schema(props("query", string("ElasticSearch query string.", "iaptic AND (deploy OR release)"),
                        "informationNeeded", string("Important. Describe what information you are looking for, to give a "
                                + "precise context to the search engine AI agent. What questions are you trying to answer? "
                                + "Helps get more useful results.", "how iaptic-server is deployed"),
                        "reason", string("Explain why this information is needed to help the AI agent give better results.",
                                "about to change the deploy script"),
                        "entityTypes", strings("Filter to specific entity types (OR condition if multiple).", List.of("Project")),
                        "limit", integer("Max results (default: 20, or 5 with observations).", 20),
                        "sortBy", choice("Sort by match quality, access time, or importance.", List.of("relevance", "recency", "importance")),
                        "includeObservations", bool("Include full entity observations (default: false).", false),
                        "memory_zone", string("Limit search to specific zone (\"default\" when you have no other).", "default")),
                        "query", "memory_zone", "informationNeeded", "reason"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            String query = args.textOr("query");
            if (query == null) args.text("query"); // the standard "is required" message
            String needed = args.text("informationNeeded");
            String reason = args.text("reason");
            boolean withObs = Boolean.TRUE.equals(args.boolOr("includeObservations"));
            int limit = EntityTools.limit(args, withObs ? 5 : 20);
            String sortBy = args.textOr("sortBy");
            if (sortBy != null && !SORTS.contains(sortBy)) {
                throw new InvalidArgumentException("sortBy", MemoryRules.shown(sortBy) + " is not a sort; send relevance, recency "
                        + "or importance ('recent', what brain-tools' code reads, is recency too)");
            }
            List<String> types = args.list("entityTypes");
            String zone = c.zone(args);
            // a blank query has no token to match: brain-tools' search answered it with nothing
            List<Entity> found = query.isBlank() ? List.of() : search(zone, query, types, Math.max(limit * 4, limit));
            found = Freshness.widen(found, e -> Freshness.of(e.memory(), c.now()).value());
            if (c.model.isPresent()) found = modelFilter(found, query, needed, reason);
            found = sorted(found, sortBy);
            if (found.size() > limit) found = found.subList(0, limit);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("entities", found.stream().map(e -> searchView(e, withObs)).toList());
            out.put("relations", c.graph().relationsAmong(found).stream().map(BrainContext::relation).toList());
            return out;
        });
    }

    /**
     * An entity as search_nodes shows it: with observations, also brain-tools' lastWrite and lastRead
     * (what its userSearch adds then); the observations themselves are Engram's addition.
     */
    private Map<String, Object> searchView(Entity e, boolean withObservations) {
        Map<String, Object> out = c.view(e, withObservations);
        if (withObservations) {
            out.put("lastWrite", BrainContext.ISO.format(e.memory().updatedAt()));
            out.put("lastRead", BrainContext.ISO.format(BrainContext.lastRead(e.memory())));
        }
        return out;
    }

    /**
     * Ranked entities for a query string: the ranking words go to Engram's recall, the boolean part
     * filters the hits, and wildcard or fuzzy terms (which ranking cannot see) also scan the zone's
     * entities. A query with no word to rank by ({@code *}, {@code NOT x}) lists the zone by last read.
     */
    List<Entity> search(String zone, String query, List<String> types, int want) {
        QueryString q = QueryString.parse(query);
        // only operators or punctuation ("%", "AND", "(((", "*:*"): no token, so no match, as in brain-tools;
        // a bare * is its match-all
        if (q.isEmpty() && !query.strip().equals("*")) return List.of();
        Set<String> typeSet = types == null ? Set.of() : types.stream().map(t -> t.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        String ranking = q.rankingText();
        Map<String, Entity> out = new LinkedHashMap<>();
        if (!ranking.isBlank()) {
            // a peek: brain-tools' searches never touched lastRead, only opening an entity does
            for (Entity e : c.graph().search(zone, ranking, q.filters() ? Math.max(CANDIDATES, want) : want, true)) {
                out.put(e.id(), e);
            }
        }
        if (ranking.isBlank() || q.hasPatterns()) {
            for (Entity e : c.graph().recent(zone, 10_000)) out.putIfAbsent(e.id(), e);
        }
        List<Entity> kept = new ArrayList<>();
        for (Entity e : out.values()) {
            // brain-tools' entity-type tests: case does not matter, and part of a type ("pers") matches it
            if (!typeSet.isEmpty() && (e.entityType() == null
                    || typeSet.stream().noneMatch(t -> e.entityType().toLowerCase(Locale.ROOT).contains(t)))) continue;
            if (q.filters() && !q.matches(text(e))) continue;
            kept.add(e);
        }
        return kept;
    }

    private static String text(Entity e) {
        return e.name() + " " + e.entityType() + " " + String.join(" ", e.observationTexts());
    }

    private static List<Entity> sorted(List<Entity> found, String sortBy) {
        if (sortBy == null || sortBy.equals("relevance")) return found;
        List<Entity> copy = new ArrayList<>(found);
        if (sortBy.equals("recency") || sortBy.equals("recent")) {
            copy.sort(Comparator.comparing((Entity e) -> BrainContext.lastRead(e.memory())).reversed());
        } else {
            copy.sort(Comparator.comparingDouble((Entity e) -> e.memory().relevance()).reversed());
        }
        return copy;
    }

    /**
     * brain-tools' usefulness filter without its side effects: the model scores each candidate 0-100;
     * those scoring 50 or more are kept, best first (unscored count 40). Stored relevance is not changed
     * by a read. Any failure returns the candidates as they were.
     */
    private List<Entity> modelFilter(List<Entity> candidates, String query, String needed, String reason) {
        if (candidates.isEmpty()) return candidates;
        String list = candidates.stream().limit(50).map(e -> "- " + e.name() + " (" + e.entityType() + "): "
                + String.join("; ", e.observationTexts().stream().limit(3).toList())).collect(Collectors.joining("\n"));
        try {
            String answer = c.model.get().complete(new ChatPrompt("You score how useful each knowledge-graph entity is for "
                    + "the information needed, 0 to 100 (below 50 not useful, 90 and above extremely useful). Answer with one "
                    + "JSON object mapping each entity name to its score, nothing else.", "Query: " + query
                    + "\nInformation needed: " + needed + "\nReason: " + reason + "\n\nEntities:\n" + list, 0.1, 800,
                    Duration.ofSeconds(15)));
            Map<String, Object> scores = ChatModels.jsonObject(answer, c.json);
            Map<String, Double> score = new HashMap<>();
            for (Entity e : candidates) {
                score.put(e.id(), scores.get(e.name()) instanceof Number n ? n.doubleValue() : 40.0);
            }
            return candidates.stream().filter(e -> score.get(e.id()) >= 50)
                    .sorted(Comparator.comparingDouble((Entity e) -> score.get(e.id())).reversed()).toList();
        } catch (LlmException e) {
            log.warn("search_nodes: model filter skipped: {}", e.getMessage());
            return candidates;
        }
    }

    ToolHandler inspectKnowledgeGraph() {
        var def = tool("inspect_knowledge_graph", "Inspect knowledge graph",
                "Agent driven knowledge graph inspection that uses AI to retrieve relevant entities and relations. Results "
                        + "include freshness metadata (confidence, needsReview). Treat memory as 'what was believed true at a "
                        + "point in time.' Trust current observations (code, logs, git) over recalled memory when they "
                        + "conflict. Without a configured model (ENGRAM_LLM_URL) the answer is the entities ranked for the keywords.",
                schema(props("information_needed", string("Full description of what information is needed from the knowledge "
                                + "graph, including its context. Be specific.", "which services does iaptic-server call"),
                        "reason", string("Explain why this information is needed.", "planning an outage"),
                        "include_entities", bool("Whether to include the full entity details in the response (default: false)"),
                        "include_relations", bool("Whether to include the entity relations in the response (default: false)"),
                        "keywords", strings("Array of specific keywords related to the information needed. REQUIRED and cannot "
                                + "be null or empty - include variations, synonyms, and related terms.", List.of("iaptic", "service")),
                        "memory_zone", string("Memory zone to search in. If not provided, uses the default zone.", "default"),
                        "entity_types", strings("Optional filter to specific entity types", List.of("Project"))),
                        "information_needed", "keywords"),
                ToolHints.readOnly());
        return new BrainTool(def, args -> {
            String needed = args.text("information_needed");
            String reason = args.textOr("reason");
            List<String> keywords = keywords(args);
            String zone = c.zone(args, BrainContext.ZONE_ARGUMENT, false);
            // every argument is read before the search: a refused call does no work
            boolean full = Boolean.TRUE.equals(args.boolOr("include_entities"));
            boolean withRelations = Boolean.TRUE.equals(args.boolOr("include_relations"));
            List<String> types = args.list("entity_types");
            String query = keywords.stream().map(k -> k.contains(" ") ? "\"" + k.replace("\"", "") + "\"" : k)
                    .collect(Collectors.joining(" OR "));
            List<Entity> candidates = search(zone, query, types, 50);
            if (candidates.size() > 50) candidates = candidates.subList(0, 50);
            String answer;
            List<Entity> chosen;
            if (c.model.isPresent()) {
                Inspection i = inspect(candidates, needed, reason);
                answer = i.answer();
                chosen = i.entities();
            } else {
                chosen = candidates.size() > 10 ? candidates.subList(0, 10) : candidates;
                answer = chosen.isEmpty() ? "No entity matches the keywords " + keywords + "."
                        : "No model is configured, so this is not a written answer: the entities ranked first for the keywords "
                        + keywords + " are " + chosen.stream().map(Entity::name).collect(Collectors.joining(", "))
                        + ". Open them with open_nodes for their observations.";
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("success", true);
            out.put("tentativeAnswer", answer);
            out.put("entities", chosen.stream().map(e -> full ? c.view(e, true) : nameAndType(e)).toList());
            out.put("relations", withRelations
                    ? c.graph().relationsAmong(chosen).stream().map(BrainContext::relation).toList() : List.of());
            return out;
        });
    }

    static List<String> keywords(ToolArgs args) {
        List<String> keywords = args.list("keywords");
        if (keywords == null || keywords.isEmpty()) {
            throw new InvalidArgumentException("keywords", "is required and cannot be empty: send an array of keywords, with "
                    + "variations and synonyms, e.g. [\"deploy\", \"release\", \"kubernetes\"]");
        }
        return keywords;
    }

    private static Map<String, Object> nameAndType(Entity e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", e.name());
        m.put("entityType", e.entityType());
        return m;
    }

    private record Inspection(String answer, List<Entity> entities) {
    }

    private Inspection inspect(List<Entity> candidates, String needed, String reason) {
        String list = candidates.stream().map(e -> "- " + e.name() + " (" + e.entityType() + "): "
                + String.join("; ", e.observationTexts())).collect(Collectors.joining("\n"));
        try {
            String answer = c.model.get().complete(new ChatPrompt("You read entities of a knowledge graph and answer from "
                    + "them only. Answer with one JSON object: {\"relevant\": [entity names that bear on the need], "
                    + "\"tentativeAnswer\": \"a short answer from those entities, or say they do not answer it\"}.",
                    "Information needed: " + needed + (reason == null ? "" : "\nReason: " + reason) + "\n\nEntities:\n" + list,
                    0.1, 800, Duration.ofSeconds(20)));
            Map<String, Object> parsed = ChatModels.jsonObject(answer, c.json);
            Set<String> names = new LinkedHashSet<>();
            if (parsed.get("relevant") instanceof List<?> l) l.forEach(n -> names.add(String.valueOf(n)));
            List<Entity> chosen = candidates.stream().filter(e -> names.contains(e.name())).toList();
            Object text = parsed.get("tentativeAnswer");
            return new Inspection(text instanceof String s ? s : "", chosen);
        } catch (LlmException e) {
            log.warn("inspect_knowledge_graph: the model did not answer: {}", e.getMessage());
            List<Entity> top = candidates.size() > 10 ? candidates.subList(0, 10) : candidates;
            return new Inspection("The model did not answer (" + e.getMessage() + "); the entities ranked first for the "
                    + "keywords are listed.", top);
        }
    }

}
