package dev.engram.mcp.profile.memento;

import static dev.engram.mcp.profile.memento.MementoTool.integer;
import static dev.engram.mcp.profile.memento.MementoTool.map;
import static dev.engram.mcp.profile.memento.MementoTool.number;

import dev.engram.engine.ExploreQuery;
import dev.engram.engine.ExploreResult;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RecalledMemory;
import dev.engram.engine.ResultCost;
import dev.engram.engine.lifecycle.FeedbackLog;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import dev.engram.memory.MemoryVersion;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** recall, context, graph_explore, fragment_history, memory_stats, search_traces. */
final class ReadTools {
    static final int DEFAULT_RECALL_BUDGET = 1000, DEFAULT_CONTEXT_BUDGET = 2000, MAX_LINKED = 10;
    /** Memento's context type slots (seed-systems §2.6). */
    static final Map<String, Integer> SLOTS = Map.of("preference", 5, "error", 5, "procedure", 5, "decision", 3, "fact", 3,
            "relation", 3, "episode", 3);
    /** context's core types when none are given: Memento's ContextBuilder loads decisions too (its seed listed three). */
    static final List<String> DEFAULT_CONTEXT_TYPES = List.of("preference", "error", "procedure", "decision");
    /** Memento's floor for context's core memory and the previous session's reflection. */
    static final double CONTEXT_MIN_IMPORTANCE = 0.3;
    /** The topic reflect writes under when none is given: the hand-over context shows next. */
    static final String SESSION_REFLECT = "session_reflect";
    private static final Pattern LAYER = Pattern.compile("^(L1 exact|L2 bm25|L3 semantic|graph): (\\d+)");
    private static final ResultCost COST = new ResultCost() {
        @Override
        public int recalled(RecalledMemory result, RecallMode mode, int rank) {
            return Fragments.tokens(result.memory().content());
        }

        @Override
        public int briefingLine(Memory memory) {
            return Fragments.tokens(memory.content());
        }
    };
    private final MementoContext c;

    ReadTools(MementoContext c) {
        this.c = c;
    }

    // --- recall -------------------------------------------------------------------------------------------

    /** recall's depth: Memento's Planner and Executor views; applied when no type is sent. */
    static final Map<String, List<String>> DEPTHS = Map.of("high-level", List.of("decision", "episode"),
            "tool-level", List.of("procedure", "error", "fact"));
    static final List<String> DEPTH_NAMES = List.of("high-level", "detail", "tool-level");
    /** The relations includeLinks follows without linkRelationType (Memento's default). */
    static final List<String> DEFAULT_LINK_RELATIONS = List.of("caused_by", "resolved_by", "related");
    /**
     * What recall's {@code fields} can name: every field a recalled fragment can carry, and Memento's sparse-field
     * names Engram keeps no data for ({@code confidence}, {@code explanations}, {@code valid_to},
     * {@code ema_activation}: accepted, never present, as Memento leaves out a field a fragment does not have).
     */
    static final List<String> FIELDS = List.of("id", "content", "topic", "type", "keywords", "importance", "ttl_tier", "is_anchor",
            "access_count", "created_at", "similarity", "linked", "workspace", "case_id", "goal", "outcome", "phase",
            "resolution_status", "assertion_status", "context_summary", "affect", "superseded_by", "nearby_context",
            "confidence", "explanations", "valid_to", "ema_activation");
    static final int NEARBY_MINUTES = 30, MAX_NEARBY = 3, MAX_CASES = 10, MAX_CASE_EVENTS = 20, EVENT_SUMMARY_CHARS = 120;

    MementoTool recall() {
        Tool def = Tool.builder("recall", JsonSchema.input()
                        .strings("keywords", "Keywords (the keyword layers)", List.of("redis", "noauth"))
                        .string("text", "A sentence to search by meaning (the semantic layer)", "how did we fix the Redis auth error")
                        .string("topic", "Only this topic", "redis")
                        .choice("type", "Only this type", Fragments.TYPES)
                        .choice("depth", "high-level: only decisions and episodes; tool-level: only procedures, errors and facts; "
                                + "detail (default): all. Ignored when type is sent", DEPTH_NAMES)
                        .property("tokenBudget", integer("Cut the answer at about this many tokens; default 1000", 20, 100_000))
                        .bool("includeLinks", "Add up to 10 fragments linked 1 hop to the top hits (default true)")
                        .choice("linkRelationType", "includeLinks adds only links of this relation; default caused_by, resolved_by "
                                + "and related", WriteTools.RELATIONS)
                        .property("threshold", number("Minimum similarity 0..1", 0, 1, 0.3))
                        .bool("includeSuperseded", "true: also fragments a newer one superseded (supersedes; they carry superseded_by). Default false")
                        .string("asOf", "Answer as of this date or instant", "2026-11-01")
                        .property("timeRange", MementoTool.object("Only fragments written in this range: {from, to}, dates, instants or ages such as 7d",
                                map("from", map("type", "string"), "to", map("type", "string"))))
                        .bool("excludeSeen", "true (default): leave out the fragments this session's last context call returned; false: return every match")
                        .property("pageSize", integer("At most this many fragments; default 20", 1, 50))
                        .string("cursor", "The nextCursor of the previous answer, sent with the same arguments: the next page, "
                                + "without repeats", "AWq3...")
                        .strings("fields", "Only these fields of each fragment: " + String.join(", ", FIELDS), List.of("id", "content"))
                        .bool("includeKeywords", "true: add each fragment's keywords (default false)")
                        .bool("includeContext", "true: add to each fragment up to 3 fragments its session wrote within 30 minutes "
                                + "(nearby_context)")
                        .string("contextText", "What you are working on, 1-2 sentences: the fragments it names and their linked "
                                + "neighbours are primed (recorded as read: hot again, their fading restarts) for the searches that follow; "
                                + "each once per session per 10 minutes", "Adding a --remote flag to the CLI")
                        .property("minImportance", number("Only fragments at least this important (after decay)", 0, 1, 0.5))
                        .bool("isAnchor", "true: only anchors; false: no anchors")
                        .string("caseId", "Only fragments of this case (remember's caseId)", "redis-outage-12")
                        .choice("resolutionStatus", "Only fragments with this resolution status", Fragments.RESOLUTIONS)
                        .string("phase", "Only fragments of this phase, e.g. debugging", "debugging")
                        .strings("affect", "Only fragments with one of these affects (neutral: none given)", List.of("frustration"))
                        .bool("caseMode", "true: answer the cases of this page's matches (goal, outcome, resolution_status, "
                                + "events) instead of the fragments")
                        .property("maxCases", integer("caseMode: at most this many cases; default 5", 1, MAX_CASES))
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default").build())
                .title("Recall fragments")
                .description("Search memory: keywords first, text for meaning, topic/type/depth filters. Returns {fragments, count, "
                        + "totalTokens, searchPath, hasMore, nextCursor}; ranked by 0.3·match + match × (0.4·importance (decayed "
                        + "by type) + 0.3·recency). Send nextCursor back as cursor for the next page.")
                .annotations(ToolHints.writes(true)).build();
        return new MementoTool(def, this::recall);
    }

    private Map<String, Object> recall(ToolArgs a) {
        // every argument is checked before the engine is asked: a refusal records no read
        String zone = c.zone(a);
        List<String> keywords = a.list("keywords");
        String text = a.textOr("text"), topic = a.textOr("topic");
        String type = a.textOr("type") == null ? null : Fragments.parseType(a.textOr("type"));
        String depth = WriteTools.choice(a, "depth", DEPTH_NAMES, "a depth");
        List<String> depthTypes = type == null && depth != null ? DEPTHS.get(depth) : null;
        int budget = a.intOr("tokenBudget", DEFAULT_RECALL_BUDGET, 20, 100_000);
        int pageSize = a.intOr("pageSize", 20, 1, 50);
        Boolean links = a.boolOr("includeLinks");
        String linkRelation = WriteTools.choice(a, "linkRelationType", WriteTools.RELATIONS, "a relation");
        Double threshold = a.numberOr("threshold", 0, 1), minImportance = a.numberOr("minImportance", 0, 1);
        Boolean anchor = a.boolOr("isAnchor");
        boolean superseded = a.bool("includeSuperseded");
        Boolean excludeSeen = a.boolOr("excludeSeen");
        List<String> fields = fields(a);
        boolean withKeywords = a.bool("includeKeywords") || fields != null && fields.contains("keywords");
        boolean withContext = a.bool("includeContext");
        dev.engram.engine.ContextPriming priming = priming(a);
        boolean caseMode = a.bool("caseMode");
        int maxCases = a.intOr("maxCases", 5, 1, MAX_CASES);
        // Memento's default is true: what this session's last context call gave is not repeated
        boolean dropSeen = excludeSeen == null || excludeSeen;
        Set<String> seen = dropSeen ? c.seen.seen(a.caller().session()) : Set.of();
        List<String> filterTags = new ArrayList<>();
        if (topic != null) filterTags.add(Fragments.tagFor(Fragments.TOPIC, topic));
        String caseId = a.textOr("caseId"), phase = a.textOr("phase");
        if (caseId != null && !caseId.isBlank()) filterTags.add(Fragments.tagFor(Fragments.CASE, caseId));
        String resolution = WriteTools.choice(a, "resolutionStatus", Fragments.RESOLUTIONS, "a status");
        if (resolution != null) filterTags.add(Fragments.RESOLUTION + resolution);
        if (phase != null && !phase.isBlank()) filterTags.add(Fragments.tagFor(Fragments.PHASE, phase));
        Set<String> affects = affects(a);
        Map<String, Object> range = a.object("timeRange");
        String from = rangeEnd(range, "from"), to = rangeEnd(range, "to");
        String asOf = a.textOr("asOf");
        String query = String.join(" ", keywords == null ? List.of() : keywords) + (text == null ? "" : " " + text);
        query = query.strip();
        boolean listing = query.isEmpty();
        if (listing && filterTags.isEmpty() && type == null && affects == null && depthTypes == null) {
            throw new InvalidArgumentException("keywords", "or text is required: keywords such as [\"redis\", \"auth\"], a text "
                    + "sentence, or at least a topic, type, depth, caseId, resolutionStatus, phase or affect to list");
        }
        long search = RecallCursor.fingerprint(zone, query, type, depthTypes, filterTags, affects == null ? null : new java.util.TreeSet<>(affects),
                threshold, minImportance, anchor, superseded, dropSeen, asOf, from, to);
        String cursorText = a.textOr("cursor");
        RecallCursor cursor = cursorText == null || cursorText.isBlank() ? null : RecallCursor.decode(cursorText, search);
        Instant now = c.now();
        // every page ranks at the first page's instant, so recency and decay do not reorder the pages
        Instant rankedAt = cursor == null ? now : cursor.rankedAt();
        Instant asOfInstant = asOf == null ? null : MemoryRules.pointInTime("asOf", asOf, now);
        Instant anchorTime = asOfInstant == null ? rankedAt : asOfInstant;
        int shownBefore = cursor == null ? 0 : cursor.shown().size();
        int window = Math.min(RecallQuery.MAX_LIMIT, (shownBefore + pageSize) * 2 + seen.size());
        RecallQuery.Builder q = RecallQuery.builder(query).zone(zone).limit(window)
                .mode(listing ? RecallMode.INDEX : RecallMode.RANKED).asOf(asOf).from(from).to(to)
                .includeSuperseded(superseded).tags(filterTags).priming(priming);
        if (type != null) q.types(Set.of(Fragments.engineType(type)));
        else if (depthTypes != null) q.types(depthTypes.stream().map(Fragments::engineType).collect(java.util.stream.Collectors.toSet()));
        RecallResult r = c.engine().recall(q.build(), COST);
        // a fragment stored without a workspace is global (Memento reads `workspace = W OR workspace IS NULL`): a
        // workspace's recall takes the server's own zone in too, where the caller may read it
        List<RecalledMemory> hits = new ArrayList<>(r.results());
        String global = c.profile.defaultZone();
        if (!zone.equals(global)) hits.addAll(MementoContext.readable(() -> c.engine().recall(q.zone(global).build(), COST).results()));
        double best = hits.stream().mapToDouble(RecalledMemory::score).max().orElse(1);
        record Ranked(Memory m, double similarity, double rank) {
        }
        List<Ranked> ranked = new ArrayList<>();
        for (RecalledMemory hit : hits) {
            Memory m = hit.memory();
            if (type != null && !Fragments.typeOf(m).equals(type)) continue;
            if (depthTypes != null && !depthTypes.contains(Fragments.typeOf(m))) continue;
            if (m.supersededBy() != null && !superseded && (asOfInstant == null || !m.supersededAt().isAfter(asOfInstant))) continue;
            if (!MementoContext.visible(m, a)) continue;
            if (seen.contains(m.id()) || !affected(m, affects)) continue;
            if (anchor != null && anchor != m.pinned()) continue;
            if (cursor != null && cursor.wasShown(m.id())) continue;
            // Engram puts pinned memories into every recall; a Memento anchor comes only when it matches
            if (!listing && m.pinned() && hit.relevance() == 0 && hit.contributions().stream().noneMatch(x -> x.name().equals("graph"))) continue;
            double similarity = round(listing ? 1.0 : hit.relevance() > 0 ? hit.relevance() : best > 0 ? Math.max(0, hit.score() / best) : 0);
            if (threshold != null && !listing && similarity < threshold) continue;
            double importance = Fragments.importance(m, rankedAt);
            if (minImportance != null && importance < minImportance) continue;
            double days = Math.abs(Duration.between(m.createdAt(), anchorTime).toMillis()) / 86_400_000.0;
            // Memento's 0.4·importance + 0.3·recency + 0.3·match, its lifecycle part gated by the match (CompositeRank)
            double rank = dev.engram.rank.CompositeRank.MEMENTO.score(importance, days, similarity);
            ranked.add(new Ranked(m, similarity, rank));
        }
        if (!listing) ranked.sort(Comparator.comparingDouble(Ranked::rank).reversed().thenComparing(x -> x.m().id()));
        List<Map<String, Object>> fragments = new ArrayList<>();
        List<Memory> memories = new ArrayList<>();
        Set<String> shown = new HashSet<>();
        int tokens = 0;
        for (Ranked x : ranked) {
            if (fragments.size() == pageSize) break;
            int cost = Fragments.tokens(x.m.content());
            if (tokens + cost > budget && !fragments.isEmpty()) break;
            Map<String, Object> f = c.fragments.render(x.m, c.clock);
            f.put("similarity", x.similarity);
            fragments.add(f);
            memories.add(x.m);
            shown.add(x.m.id());
            tokens += cost;
        }
        List<String> path = searchPath(r.layers(), listing);
        if (links == null || links) {
            int linked = 0;
            List<Map<String, Object>> extra = new ArrayList<>();
            List<Memory> extraMemories = new ArrayList<>();
            for (Map<String, Object> f : fragments.subList(0, Math.min(5, fragments.size()))) {
                ExploreResult e = c.engine().explore(new ExploreQuery((String) f.get("id"), zone, 1));
                List<ExploreResult.Neighbour> ns = new ArrayList<>(e.neighbours());
                ns.sort(Comparator.comparingInt(n -> linkOrder(n.via())));
                for (ExploreResult.Neighbour n : ns) {
                    if (linked == MAX_LINKED) break;
                    Memory m = n.memory();
                    String relation = WriteTools.relation(n.via());
                    if (linkRelation != null ? !linkRelation.equals(relation) : !DEFAULT_LINK_RELATIONS.contains(relation)) continue;
                    boolean current = Fragments.live(m, now) && m.supersededBy() == null;
                    boolean replaced = superseded && m.status() == dev.engram.memory.MemoryStatus.SUPERSEDED && !m.expiredAt(now);
                    if (!(current || replaced) || (type != null && !Fragments.typeOf(m).equals(type))
                            || (depthTypes != null && !depthTypes.contains(Fragments.typeOf(m)))
                            || !m.tags().containsAll(filterTags) || !affected(m, affects) || seen.contains(m.id())
                            || !MementoContext.visible(m, a)
                            || (cursor != null && cursor.wasShown(m.id())) || !shown.add(m.id())) continue;
                    int cost = Fragments.tokens(m.content());
                    if (tokens + cost > budget) continue;
                    Map<String, Object> lf = c.fragments.render(m, c.clock);
                    lf.put("linked", map("from", f.get("id"), "relation", relation));
                    extra.add(lf);
                    extraMemories.add(m);
                    tokens += cost;
                    linked++;
                }
            }
            fragments.addAll(extra);
            memories.addAll(extraMemories);
            if (linked > 0) path.add("Graph:" + linked);
        }
        // the next page: what this ranking still holds, or a wider window of the engine's when this one was full
        boolean hasMore = ranked.stream().anyMatch(x -> !shown.contains(x.m().id()))
                || r.results().size() >= window && window < RecallQuery.MAX_LIMIT;
        String next = null;
        if (hasMore) {
            Set<Long> all = new java.util.LinkedHashSet<>(cursor == null ? Set.of() : cursor.shown());
            for (String id : shown) all.add(RecallCursor.idHash(id));
            next = new RecallCursor(search, rankedAt, all).encode();
        }
        if (withContext) nearby(zone, fragments, memories, a);
        if (!withKeywords) fragments.forEach(f -> f.remove("keywords"));
        if (caseMode) {
            List<Map<String, Object>> cases = cases(zone, fragments, maxCases);
            return map("success", true, "caseMode", true, "cases", cases, "caseCount", cases.size(), "searchPath", path,
                    "hasMore", hasMore, "nextCursor", next);
        }
        List<Map<String, Object>> out = fields == null ? fragments : fragments.stream().map(f -> project(f, fields, zone)).toList();
        return map("success", true, "fragments", out, "count", out.size(), "totalTokens", tokens, "searchPath", path,
                "hasMore", hasMore, "nextCursor", next);
    }

    /**
     * contextText as the engine's priming (Memento's spreading activation), for this MCP session; null when not sent.
     * Checked here so a refusal names Memento's argument.
     */
    private static dev.engram.engine.ContextPriming priming(ToolArgs a) {
        String text = a.textOr("contextText");
        if (text == null || text.isBlank()) return null;
        int max = dev.engram.engine.ContextPriming.MAX_CHARS;
        if (text.strip().length() > max) {
            throw new InvalidArgumentException("contextText", "is " + text.strip().length() + " characters; send at most " + max
                    + ", a sentence or two about the work at hand");
        }
        return new dev.engram.engine.ContextPriming(text, a.caller().session());
    }

    /** recall's fields: null when not sent (every field); an unknown name is refused with the list. */
    private static List<String> fields(ToolArgs a) {
        List<String> fields = a.list("fields");
        if (fields == null || fields.isEmpty()) return null;
        List<String> out = new ArrayList<>();
        for (String f : fields) {
            if (!FIELDS.contains(f)) {
                throw new InvalidArgumentException("fields", MemoryRules.shown(f) + " is not a fragment field; send some of "
                        + String.join(", ", FIELDS));
            }
            if (!out.contains(f)) out.add(f);
        }
        return out;
    }

    /** A fragment cut to {@code fields}, in their order; a field the fragment does not have stays out. */
    private static Map<String, Object> project(Map<String, Object> f, List<String> fields, String zone) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : fields) {
            if (name.equals("workspace")) out.put(name, zone);
            else if (f.containsKey(name)) out.put(name, f.get(name));
        }
        return out;
    }

    /** includeContext: up to 3 fragments each fragment's session wrote within 30 minutes of it, nearest first. */
    private void nearby(String zone, List<Map<String, Object>> fragments, List<Memory> memories, ToolArgs a) {
        List<Memory> live = null;
        for (int i = 0; i < fragments.size(); i++) {
            Memory m = memories.get(i);
            if (m.session() == null) continue;
            if (live == null) live = c.live(zone, a);
            List<Map<String, Object>> near = live.stream()
                    .filter(o -> !o.id().equals(m.id()) && m.session().equals(o.session()))
                    .filter(o -> Math.abs(Duration.between(o.createdAt(), m.createdAt()).toMinutes()) < NEARBY_MINUTES)
                    .sorted(Comparator.comparingLong((Memory o) -> Math.abs(Duration.between(o.createdAt(), m.createdAt()).toMillis()))
                            .thenComparing(Memory::id))
                    .limit(MAX_NEARBY)
                    .map(o -> map("id", o.id(), "content", o.content(), "type", Fragments.typeOf(o), "created_at", o.createdAt().toString()))
                    .toList();
            if (!near.isEmpty()) fragments.get(i).put("nearby_context", near);
        }
    }

    /**
     * caseMode: the cases of this page's fragments, most frequent first, then resolved before the rest (Memento's order):
     * goal, outcome and resolution status from the case's most important fragment that has them, and as events the
     * case's fragments in the order they were written (Engram keeps no case events).
     */
    private List<Map<String, Object>> cases(String zone, List<Map<String, Object>> fragments, int max) {
        Map<String, Integer> hits = new LinkedHashMap<>();
        for (Map<String, Object> f : fragments) {
            if (f.get("case_id") instanceof String id) hits.merge(id, 1, Integer::sum);
        }
        if (hits.isEmpty()) return new ArrayList<>();
        List<String> top = hits.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(max).map(Map.Entry::getKey).toList();
        Instant now = c.now();
        List<Memory> live = c.live(zone);
        List<Map<String, Object>> cases = new ArrayList<>();
        for (String id : top) {
            String tag = Fragments.tagFor(Fragments.CASE, id);
            List<Memory> members = live.stream().filter(m -> m.tags().contains(tag)).toList();
            String goal = null, outcome = null, status = null;
            for (Memory m : members.stream().sorted(Comparator.comparingDouble((Memory m) -> Fragments.importance(m, now)).reversed()).toList()) {
                Map<String, Object> cf = new LinkedHashMap<>();
                c.fragments.caseFields(m, cf);
                if (goal == null) goal = (String) cf.get("goal");
                if (outcome == null) outcome = (String) cf.get("outcome");
                if (status == null) status = (String) cf.get("resolution_status");
            }
            List<Map<String, Object>> events = members.stream().sorted(Comparator.comparing(Memory::createdAt).thenComparing(Memory::id))
                    .limit(MAX_CASE_EVENTS)
                    .map(m -> map("fragment_id", m.id(), "type", Fragments.typeOf(m), "summary", m.content().length() > EVENT_SUMMARY_CHARS
                            ? m.content().substring(0, EVENT_SUMMARY_CHARS) : m.content(), "created_at", m.createdAt().toString()))
                    .toList();
            cases.add(map("case_id", id, "goal", goal, "outcome", outcome, "resolution_status", status == null ? "open" : status,
                    "events", events, "fragment_count", members.size(), "relevance_score", hits.get(id)));
        }
        cases.sort(Comparator.comparing((Map<String, Object> x) -> !"resolved".equals(x.get("resolution_status")))
                .thenComparing(x -> -((Integer) x.get("relevance_score"))));
        return cases;
    }

    /** recall's affect filter: a string or a list of Memento's affects; null when not sent. */
    private static Set<String> affects(ToolArgs a) {
        List<String> values = a.list("affect");
        if (values == null || values.isEmpty()) return null;
        Set<String> out = new java.util.LinkedHashSet<>();
        for (String v : values) {
            String s = v.strip().toLowerCase(Locale.ROOT);
            if (!Fragments.AFFECTS.contains(s)) {
                throw new InvalidArgumentException("affect", MemoryRules.shown(v) + " is not an affect; send one or more of "
                        + String.join(", ", Fragments.AFFECTS));
            }
            out.add(s);
        }
        return out;
    }

    /** Whether {@code m}'s affect (neutral when it has none) is one of {@code affects}; true without the filter. */
    private static boolean affected(Memory m, Set<String> affects) {
        if (affects == null) return true;
        String affect = m.tags().stream().filter(t -> t.startsWith(Fragments.AFFECT)).map(t -> t.substring(Fragments.AFFECT.length()))
                .findFirst().orElse("neutral");
        return affects.contains(affect);
    }

    private static int linkOrder(EdgeType e) {
        return switch (e) {
            case CAUSED_BY, RESOLVED_BY -> 0;
            case RELATED -> 1;
            default -> 2;
        };
    }

    private static String rangeEnd(Map<String, Object> range, String end) {
        if (range == null) return null;
        for (String k : range.keySet()) {
            if (!k.equals("from") && !k.equals("to")) throw new InvalidArgumentException("timeRange." + k, "is not a field; send {from, to}");
        }
        Object v = range.get(end);
        if (v == null) return null;
        if (v instanceof String s) return s;
        throw new InvalidArgumentException("timeRange." + end, "must be a date, an instant or an age such as 7d");
    }

    /** Memento's searchPath ("L1:3", "L2:2", "L3:5") from the layers Engram's cascade reports. */
    static List<String> searchPath(List<String> layers, boolean listing) {
        List<String> out = new ArrayList<>();
        if (listing) {
            out.add("Index");
            return out;
        }
        for (String l : layers) {
            Matcher m = LAYER.matcher(l);
            if (m.find()) {
                String name = switch (m.group(1)) {
                    case "L1 exact" -> "L1";
                    case "L2 bm25" -> "L2";
                    case "L3 semantic" -> "L3";
                    default -> "L2.5";
                };
                out.add(name + ":" + m.group(2));
            } else if (l.startsWith("L1 exact: '")) {
                out.add("L1:1");
            }
        }
        return out;
    }

    // --- context ------------------------------------------------------------------------------------------

    MementoTool context() {
        Tool def = Tool.builder("context", JsonSchema.input()
                        .property("tokenBudget", integer("Cut at about this many tokens; default 2000", 20, 100_000))
                        .strings("types", "Types of the core memory; default preference, error, procedure, decision", List.of("preference", "error", "procedure"))
                        .bool("structured", "true: grouped by type; false (default): one flat list")
                        .string("sessionId", "Session id (accepted; the MCP session is used)", "s1")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default").build())
                .title("Session context")
                .description("Call at the start of a session: anchors, the most important preferences, errors, procedures and decisions "
                        + "(per-type slots), the previous session's reflection and this session's working memory.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::context);
    }

    private Map<String, Object> context(ToolArgs a) {
        String zone = c.zone(a);
        int budget = a.intOr("tokenBudget", DEFAULT_CONTEXT_BUDGET, 20, 100_000);
        List<String> types = a.list("types");
        types = types == null || types.isEmpty() ? DEFAULT_CONTEXT_TYPES : types.stream().map(Fragments::parseType).distinct().toList();
        Instant now = c.now();
        List<Memory> live = new ArrayList<>(c.live(zone, a));
        // the global fragments (no workspace: the server's zone) come with a workspace's, as in Memento
        if (!zone.equals(c.profile.defaultZone())) live.addAll(MementoContext.readable(() -> c.live(c.profile.defaultZone(), a)));
        Comparator<Memory> byImportance = Comparator.comparingDouble((Memory m) -> Fragments.importance(m, now)).reversed()
                .thenComparing(Memory::createdAt, Comparator.reverseOrder());
        List<Memory> anchors = live.stream().filter(Memory::pinned).sorted(byImportance).toList();
        List<Memory> working = live.stream().filter(m -> m.tags().contains(Fragments.SESSION_SCOPE) && !m.pinned())
                .sorted(Comparator.comparing(Memory::createdAt).reversed()).limit(10).toList();
        Map<String, List<Memory>> core = new LinkedHashMap<>();
        java.util.function.Predicate<Memory> coreCandidate = m -> !m.pinned() && !m.tags().contains(Fragments.SESSION_SCOPE)
                && Fragments.importance(m, now) >= CONTEXT_MIN_IMPORTANCE;
        for (String t : types) {
            core.put(t, live.stream().filter(coreCandidate).filter(m -> Fragments.typeOf(m).equals(t))
                    .sorted(byImportance).limit(SLOTS.getOrDefault(t, 3)).toList());
        }
        // the previous session's reflection, newest first, as Memento's ContextBuilder adds it: the hand-over between sessions
        String reflectTag = c.fragments.tag(Fragments.TOPIC, SESSION_REFLECT);
        List<Memory> reflected = live.stream().filter(coreCandidate).filter(m -> m.tags().contains(reflectTag))
                .filter(m -> core.values().stream().noneMatch(g -> g.contains(m)))
                .sorted(Comparator.comparing(Memory::createdAt).reversed()).limit(3).toList();
        if (!reflected.isEmpty()) core.put(SESSION_REFLECT, reflected);
        int[] tokens = {0};
        List<Map<String, Object>> flat = new ArrayList<>();
        Map<String, Object> tree = new LinkedHashMap<>();
        java.util.function.BiConsumer<String, List<Memory>> add = (group, ms) -> {
            List<Map<String, Object>> g = new ArrayList<>();
            for (Memory m : ms) {
                if (flat.size() >= 15 + 10 + anchors.size()) break;
                int cost = Fragments.tokens(m.content());
                if (tokens[0] + cost > budget) continue;
                tokens[0] += cost;
                Map<String, Object> f = c.fragments.render(m, c.clock);
                flat.add(f);
                g.add(f);
            }
            tree.put(group, g);
        };
        add.accept("anchors", anchors);
        // each group's best first, as Memento guarantees one per type, then the rest in group order: at most 15 in all
        List<Memory> coreAll = java.util.stream.Stream.concat(core.values().stream().filter(g -> !g.isEmpty()).map(g -> g.get(0)),
                core.values().stream().flatMap(g -> g.stream().skip(1))).limit(15).toList();
        if (a.bool("structured")) {
            Map<String, Object> coreTree = new LinkedHashMap<>();
            for (var e : core.entrySet()) {
                add.accept(e.getKey(), e.getValue().stream().filter(coreAll::contains).toList());
                coreTree.put(e.getKey(), tree.remove(e.getKey()));
            }
            tree.put("core", coreTree);
        } else {
            add.accept("core", coreAll);
        }
        add.accept("working", working);
        // Memento's seen ids: recall leaves these out for this session (excludeSeen), until the next context call
        c.seen.replace(a.caller().session(), flat.stream().map(f -> (String) f.get("id")).toList());
        Map<String, Object> out = map("success", true);
        if (a.bool("structured")) out.put("context", tree);
        else out.put("fragments", flat);
        out.put("totalTokens", tokens[0]);
        out.put("counts", map("anchors", ((List<?>) tree.get("anchors")).size(), "core", flat.size()
                - ((List<?>) tree.get("anchors")).size() - ((List<?>) tree.get("working")).size(), "working", ((List<?>) tree.get("working")).size()));
        return out;
    }

    // --- graph_explore, fragment_history -------------------------------------------------------------------

    MementoTool graphExplore() {
        Tool def = Tool.builder("graph_explore", JsonSchema.input()
                        .string("startId", "Fragment id to start at, usually an error", "m_abcdefghij")
                        .string("workspace", "Workspace (an Engram zone)", "my-project")
                        .string("agentId", "Agent id (accepted, not used)", "default")
                        .required("startId").build())
                .title("Explore causes and fixes")
                .description("Root-cause view: the caused_by and resolved_by links of a fragment, one hop each way, as a list and a tree.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::graphExplore);
    }

    private Map<String, Object> graphExplore(ToolArgs a) {
        String zone = c.zone(a);
        ExportRecord start = c.require("startId", zone, a.text("startId"));
        Memory root = start.memory();
        Instant now = c.now();
        List<Map<String, Object>> edges = new ArrayList<>();
        StringBuilder tree = new StringBuilder("[" + Fragments.typeOf(root) + "] " + root.content());
        List<Edge> sorted = new ArrayList<>(start.edges());
        sorted.sort(Comparator.comparingInt(e -> linkOrder(e.type())));
        for (Edge e : sorted) {
            if (e.type() != EdgeType.CAUSED_BY && e.type() != EdgeType.RESOLVED_BY && e.type() != EdgeType.RELATED) continue;
            boolean out = e.fromId().equals(root.id());
            String other = out ? e.toId() : e.fromId();
            var m = c.record(zone, other).map(ExportRecord::memory).filter(x -> Fragments.live(x, now));
            if (m.isEmpty()) continue;
            String rel = WriteTools.relation(e.type());
            edges.add(map("relation", rel, "direction", out ? "out" : "in", "fragment", c.fragments.render(m.get(), c.clock)));
            tree.append("\n└─ ").append(out ? rel + " → " : "← " + rel + " ").append("[").append(Fragments.typeOf(m.get()))
                    .append("] ").append(m.get().content());
        }
        return map("success", true, "root", c.fragments.render(root, c.clock), "edges", edges, "tree", tree.toString());
    }

    MementoTool fragmentHistory() {
        Tool def = Tool.builder("fragment_history", JsonSchema.input()
                        .string("id", "Fragment id", "m_abcdefghij")
                        .string("workspace", "Workspace (an Engram zone)", "my-project").required("id").build())
                .title("Fragment history")
                .description("Earlier versions of a fragment (from amend) and the fragments it superseded or was superseded by.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::fragmentHistory);
    }

    private Map<String, Object> fragmentHistory(ToolArgs a) {
        String zone = c.zone(a);
        String id = a.text("id").strip();
        ExportRecord r = c.record(zone, id).orElseThrow(() -> new dev.engram.error.NotFoundException("no fragment with id '"
                + MemoryRules.shown(id).replace("'", "") + "' in workspace '" + zone + "'"));
        List<Map<String, Object>> versions = new ArrayList<>();
        for (MemoryVersion v : r.versions()) {
            versions.add(map("version", v.version(), "content", v.content(), "replaced_at", v.replacedAt().toString()));
        }
        List<String> supersedes = r.edges().stream().filter(e -> e.type() == EdgeType.SUPERSEDES && e.fromId().equals(r.memory().id()))
                .map(Edge::toId).toList();
        return map("success", true, "fragment", c.fragments.render(r.memory(), c.clock), "versions", versions,
                "superseded_by", r.memory().supersededBy(), "supersedes", supersedes);
    }

    // --- memory_stats, search_traces ----------------------------------------------------------------------

    MementoTool memoryStats() {
        Tool def = Tool.builder("memory_stats", JsonSchema.input()
                        .string("workspace", "Workspace (an Engram zone)", "my-project").build())
                .title("Memory statistics")
                .description("Counts: total, by type, by tier, anchors, topics, and the average importance after decay.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::memoryStats);
    }

    private Map<String, Object> memoryStats(ToolArgs a) {
        return stats(c.zone(a));
    }

    /** What memory_stats and the memory://stats resource answer for a zone. */
    Map<String, Object> stats(String zone) {
        Instant now = c.now();
        List<Memory> live = c.live(zone);
        Map<String, Long> byType = new TreeMap<>(), byTier = new TreeMap<>(), topics = new TreeMap<>();
        double sum = 0;
        long anchors = 0;
        for (Memory m : live) {
            byType.merge(Fragments.typeOf(m), 1L, Long::sum);
            byTier.merge(Fragments.tier(m, now), 1L, Long::sum);
            String t = c.fragments.topicOf(m);
            if (t != null) topics.merge(t, 1L, Long::sum);
            sum += Fragments.importance(m, now);
            if (m.pinned()) anchors++;
        }
        // Memento wraps its numbers: {success, stats: {total, by_type, by_tier, …}}
        FeedbackLog.Summary fb = c.engine().maintenance().feedbackSummary(zone);
        return map("success", true, "stats", map("total", (long) live.size(), "by_type", byType, "by_tier", byTier,
                "anchors", anchors, "topics", topics, "avg_importance", live.isEmpty() ? 0.0 : round(sum / live.size()),
                "evaluation", map("rolling_precision_at_5", fb.evaluation().precisionAt5(),
                        "sufficient_rate", fb.evaluation().sufficientRate(), "sample_sessions", fb.evaluation().sampleSessions()),
                "feedback", feedback(fb)));
    }

    /** tool_feedback's log as memory_stats shows it: counts over the newest ratings kept, by tool, and the latest suggestions. */
    static Map<String, Object> feedback(FeedbackLog.Summary fb) {
        Map<String, Object> byTool = new LinkedHashMap<>();
        fb.byTool().forEach((tool, t) -> byTool.put(tool, map("total", t.total(), "relevant", t.relevant(),
                "sufficient", t.sufficient(), "sampled", t.sampled(), "voluntary", t.voluntary())));
        List<Map<String, Object>> suggestions = new ArrayList<>();
        for (var t : fb.recentSuggestions()) {
            suggestions.add(map("tool_name", t.tool(), "suggestion", t.suggestion(), "created_at", t.at().toString()));
        }
        return map("total", fb.total(), "kept", fb.kept(), "relevant_rate", fb.relevantRate(),
                "sufficient_rate", fb.sufficientRate(), "by_tool", byTool, "recent_suggestions", suggestions);
    }

    MementoTool searchTraces() {
        Tool def = Tool.builder("search_traces", JsonSchema.input()
                        .string("keyword", "Exact text to find (case-insensitive)", "NOAUTH")
                        .string("session_id", "Only fragments this session wrote", "s1")
                        .property("limit", integer("Default 20", 1, 100))
                        .string("workspace", "Workspace (an Engram zone)", "my-project").required("keyword").build())
                .title("Search traces")
                .description("Exact, grep-like search of fragment contents, newest first.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::searchTraces);
    }

    private Map<String, Object> searchTraces(ToolArgs a) {
        String zone = c.zone(a);
        String needle = a.text("keyword").strip().toLowerCase(Locale.ROOT);
        String session = a.textOr("session_id");
        int limit = a.intOr("limit", 20, 1, 100);
        List<Map<String, Object>> out = c.live(zone, a).stream()
                .filter(m -> m.content().toLowerCase(Locale.ROOT).contains(needle))
                .filter(m -> session == null || session.equals(m.session()))
                .sorted(Comparator.comparing(Memory::createdAt).reversed()).limit(limit)
                .map(m -> c.fragments.render(m, c.clock)).toList();
        return map("success", true, "count", out.size(), "fragments", out);
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

}
