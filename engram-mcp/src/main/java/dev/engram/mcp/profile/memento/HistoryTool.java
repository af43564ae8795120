package dev.engram.mcp.profile.memento;

import static dev.engram.mcp.profile.memento.MementoTool.integer;
import static dev.engram.mcp.profile.memento.MementoTool.map;

import dev.engram.engine.ExportRecord;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.mcp.tool.ToolHints;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * reconstruct_history: the story of a case (fragments remembered with its {@code caseId}) or of an entity (a topic
 * or keyword), in time order, with the causal chains its caused_by / resolved_by links form, the branches still
 * open, and the fragments that support the story without being in a chain. Memento also merges its case-event
 * DAG into this answer; Engram keeps no case events, so the story is told from the fragments and their links.
 */
final class HistoryTool {
    static final int DEFAULT_LIMIT = 100, MAX_LIMIT = 500;
    private static final Set<EdgeType> CAUSAL = Set.of(EdgeType.CAUSED_BY, EdgeType.RESOLVED_BY);
    private final MementoContext c;

    HistoryTool(MementoContext c) {
        this.c = c;
    }

    MementoTool tool() {
        Tool def = Tool.builder("reconstruct_history", JsonSchema.input()
                        .string("caseId", "The case to tell (fragments remembered with this caseId)", "redis-outage-12")
                        .string("entity", "Or an entity: fragments whose topic contains it or whose keywords hold it", "redis")
                        .property("timeRange", MementoTool.object("Only fragments written in this range: {from, to}, dates, "
                                + "instants or ages such as 7d", map("from", map("type", "string"), "to", map("type", "string"))))
                        .string("query", "Only fragments whose content contains this text (case-insensitive)", "NOAUTH")
                        .property("limit", integer("At most this many fragments; default 100", 1, MAX_LIMIT))
                        .string("workspace", "Workspace (an Engram zone)", "my-project").build())
                .title("Reconstruct history")
                .description("A case's or an entity's fragments in time order, with its causal chains (caused_by / resolved_by), "
                        + "unresolved branches, supporting fragments and a summary.")
                .annotations(ToolHints.readOnly()).build();
        return new MementoTool(def, this::reconstruct);
    }

    private Map<String, Object> reconstruct(ToolArgs a) {
        String zone = c.zone(a);
        String caseId = blankToNull(a.textOr("caseId")), entity = blankToNull(a.textOr("entity"));
        if (caseId == null && entity == null) {
            throw new InvalidArgumentException("caseId", "or entity is required: the caseId fragments were remembered with, "
                    + "or an entity such as \"redis\" (a topic or keyword)");
        }
        if (caseId != null) MemoryRules.requireWellFormed("caseId", caseId);
        if (entity != null) MemoryRules.requireWellFormed("entity", entity);
        String query = blankToNull(a.textOr("query"));
        int limit = a.intOr("limit", DEFAULT_LIMIT, 1, MAX_LIMIT);
        Instant now = c.now();
        Instant from = null, to = null;
        Map<String, Object> range = a.object("timeRange");
        if (range != null) {
            for (String k : range.keySet()) {
                if (!k.equals("from") && !k.equals("to")) throw new InvalidArgumentException("timeRange." + k, "is not a field; send {from, to}");
            }
            from = instant(range, "from", now);
            to = instant(range, "to", now);
        }

        String caseTag = caseId == null ? null : Fragments.tagFor(Fragments.CASE, caseId);
        String needle = query == null ? null : query.toLowerCase(Locale.ROOT);
        String who = entity == null ? null : entity.strip().toLowerCase(Locale.ROOT);
        List<ExportRecord> records = new ArrayList<>();
        for (ExportRecord r : c.fragments.records(zone)) {
            Memory m = r.memory();
            if (!Fragments.live(m, now)) continue;
            if (caseTag != null ? !m.tags().contains(caseTag) : !about(m, who)) continue;
            if (from != null && m.createdAt().isBefore(from) || to != null && m.createdAt().isAfter(to)) continue;
            if (needle != null && !m.content().toLowerCase(Locale.ROOT).contains(needle)) continue;
            records.add(r);
        }
        records.sort(Comparator.comparing((ExportRecord r) -> r.memory().createdAt()).thenComparing(r -> r.memory().id()));
        List<ExportRecord> kept = records.size() > limit ? records.subList(0, limit) : records;

        Map<String, Memory> byId = new LinkedHashMap<>();
        for (ExportRecord r : kept) byId.put(r.memory().id(), r.memory());
        // causal edges among the timeline's fragments, each once (both ends' records carry it)
        Map<String, List<String>> next = new LinkedHashMap<>();
        Set<String> pointedTo = new HashSet<>();
        Set<String> seen = new HashSet<>();
        Set<String> hasResolution = new HashSet<>(); // a resolved_by link out of a fragment resolves its chain
        for (ExportRecord r : kept) {
            for (Edge e : r.edges()) {
                if (!CAUSAL.contains(e.type()) || !byId.containsKey(e.fromId()) || !byId.containsKey(e.toId())) continue;
                if (!seen.add(e.fromId() + ">" + e.toId())) continue;
                next.computeIfAbsent(e.fromId(), k -> new ArrayList<>()).add(e.toId());
                pointedTo.add(e.toId());
                if (e.type() == EdgeType.RESOLVED_BY) hasResolution.add(e.fromId());
            }
        }
        List<Map<String, Object>> chains = new ArrayList<>();
        Set<String> chained = new HashSet<>(), resolvedChained = new HashSet<>();
        for (String root : next.keySet()) {
            if (pointedTo.contains(root)) continue;
            List<String> chain = new ArrayList<>();
            ArrayDeque<String> queue = new ArrayDeque<>(List.of(root));
            Set<String> visited = new LinkedHashSet<>();
            while (!queue.isEmpty()) {
                String id = queue.poll();
                if (!visited.add(id)) continue;
                chain.add(id);
                queue.addAll(next.getOrDefault(id, List.of()));
            }
            boolean resolved = chain.stream().anyMatch(id -> "resolved".equals(status(byId.get(id))) || hasResolution.contains(id));
            List<Map<String, Object>> nodes = new ArrayList<>();
            for (int i = 0; i < chain.size(); i++) {
                Map<String, Object> n = fragment(byId.get(chain.get(i)));
                n.put("_chain_position", i);
                nodes.add(n);
            }
            chained.addAll(chain);
            if (resolved) resolvedChained.addAll(chain);
            chains.add(map("root_id", root, "chain", nodes, "length", chain.size(), "is_resolved", resolved));
        }
        List<Map<String, Object>> timeline = new ArrayList<>(), unresolved = new ArrayList<>(), supporting = new ArrayList<>();
        for (Memory m : byId.values()) {
            Map<String, Object> f = fragment(m);
            timeline.add(f);
            if ("open".equals(status(m)) && !resolvedChained.contains(m.id())) unresolved.add(f);
            if (!chained.contains(m.id())) supporting.add(f);
        }
        long resolvedChains = chains.stream().filter(ch -> Boolean.TRUE.equals(ch.get("is_resolved"))).count();
        StringBuilder summary = new StringBuilder();
        if (timeline.isEmpty()) {
            summary.append("No fragments found for ").append(caseId != null ? "case '" + caseId + "'" : "entity '" + entity + "'")
                    .append(" in workspace '").append(zone).append("'.");
        } else {
            summary.append(timeline.size()).append(" fragments (").append(timeline.get(0).get("created_at")).append(" to ")
                    .append(timeline.get(timeline.size() - 1).get("created_at")).append(")\n")
                    .append("causal chains: ").append(chains.size()).append(" (resolved ").append(resolvedChains)
                    .append(", unresolved ").append(chains.size() - resolvedChains).append(")\n")
                    .append("unresolved branches: ").append(unresolved.size());
            if (!unresolved.isEmpty()) {
                summary.append("\nunresolved: ").append(String.join(" | ", unresolved.stream().limit(3)
                        .map(f -> shorten((String) f.get("content"))).toList()));
            }
        }
        return map("success", true, "ordered_timeline", timeline, "causal_chains", chains, "unresolved_branches", unresolved,
                "supporting_fragments", supporting, "summary", summary.toString());
    }

    private boolean about(Memory m, String entity) {
        String topic = c.fragments.topicOf(m);
        if (topic != null && topic.toLowerCase(Locale.ROOT).contains(entity)) return true;
        return c.fragments.keywordsOf(m).stream().anyMatch(k -> k.toLowerCase(Locale.ROOT).equals(entity));
    }

    /** remember's resolutionStatus, else what reflect wrote: "[resolved] …" for errors_resolved, "[open] …" for open questions. */
    static String status(Memory m) {
        for (String t : m.tags()) if (t.startsWith(Fragments.RESOLUTION)) return t.substring(Fragments.RESOLUTION.length());
        if (m.content().startsWith("[resolved]")) return "resolved";
        if (m.content().startsWith("[open]")) return "open";
        return null;
    }

    private Map<String, Object> fragment(Memory m) {
        Map<String, Object> f = c.fragments.render(m, c.clock);
        String caseTag = m.tags().stream().filter(t -> t.startsWith(Fragments.CASE)).findFirst().orElse(null);
        f.put("case_id", caseTag == null ? null : c.fragments.word(caseTag, Fragments.CASE));
        f.put("resolution_status", status(m));
        return f;
    }

    private static Instant instant(Map<String, Object> range, String end, Instant now) {
        Object v = range.get(end);
        if (v == null) return null;
        if (!(v instanceof String s)) throw new InvalidArgumentException("timeRange." + end, "must be a date, an instant or an age such as 7d");
        return MemoryRules.pointInTime("timeRange." + end, s, now);
    }

    private static String shorten(String s) {
        return s.length() <= 60 ? s : s.substring(0, 60) + "…";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
