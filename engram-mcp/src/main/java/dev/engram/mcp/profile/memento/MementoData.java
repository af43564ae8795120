package dev.engram.mcp.profile.memento;

import dev.engram.crypto.Sha256;
import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportPolicy;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.Origin;
import dev.engram.rank.NumericImportance;
import io.modelcontextprotocol.json.TypeRef;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Memento's data as Engram memories, laid out exactly as this profile's {@code remember} writes them
 * ({@link Fragments}: topic and keyword tags, numeric importance, anchors pinned), so a user's fragments answer
 * the profile's recall, context and graph tools after the move. Two sources feed the same rows: the JSONL (or
 * JSON array) that {@code memento-mcp export} writes, and the {@code agent_memory} tables of a Memento
 * PostgreSQL database (read by the CLI). A row is a column-name → value map either way.
 * <p>Ids: a fragment keeps its Memento id as its key (see {@link #key}), so every tool still finds it by that id;
 * its Engram id is derived from it, so importing the same data twice finds the same memories. Nothing but the
 * vectors is dropped: Engram embeds the content with its own model.
 */
public final class MementoData {
    public static final String FORMAT = "memento";
    private static final TypeRef<List<Map<String, Object>>> ROWS = new TypeRef<>() {
    };
    private static final char[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
    private static final int ANCHOR_PRIORITY = 3;

    /**
     * What a source gave: memories with their edges, versions, notes (goal, outcome, context_summary) and the spellings
     * of their hashed tags (Korean topics, keywords, case ids, phases), and every problem noted on the way.
     */
    public record Loaded(List<ExportRecord> records, List<String> problems) {
        public Loaded {
            records = List.copyOf(records);
            problems = List.copyOf(problems);
        }
    }

    /** Memento's case columns, by the name remember takes them under ({@link CaseFields#NAMES}). */
    private static final Map<String, String> CASE_COLUMNS = caseColumns();

    private static Map<String, String> caseColumns() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("caseId", "case_id");
        m.put("resolutionStatus", "resolution_status");
        m.put("phase", "phase");
        m.put("assertionStatus", "assertion_status");
        m.put("affect", "affect");
        m.put("goal", "goal");
        m.put("outcome", "outcome");
        m.put("contextSummary", "context_summary");
        return java.util.Collections.unmodifiableMap(m);
    }

    /** The case columns a Memento database may have (v3 migrations 017, 025 and 034); the CLI selects those present. */
    public static List<String> caseColumnNames() {
        return List.copyOf(CASE_COLUMNS.values());
    }

    /** Rows as Memento's tables hold them: fragments, fragment_links and fragment_versions. */
    public record Rows(List<Map<String, Object>> fragments, List<Map<String, Object>> links, List<Map<String, Object>> versions) {
        public Rows {
            fragments = List.copyOf(fragments);
            links = List.copyOf(links);
            versions = List.copyOf(versions);
        }
    }

    private MementoData() {
    }

    /**
     * The fragments of a {@code memento-mcp export} file: one JSON object per line, or one JSON array (its
     * {@code --json} form). A line that is not an object refuses the whole file, naming the line.
     */
    public static Rows parseExport(String text, JsonText json) {
        String body = text.strip();
        if (body.startsWith("[")) {
            try {
                return new Rows(json.mapper().readValue(body, ROWS), List.of(), List.of());
            } catch (java.io.IOException | RuntimeException e) {
                throw new EngramUserException("is not a JSON array of fragments: " + firstLine(e.getMessage()));
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            try {
                rows.add(json.readObject(lines[i]));
            } catch (IllegalArgumentException e) {
                throw new EngramUserException("line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return new Rows(rows, List.of(), List.of());
    }

    /**
     * The rows as Engram records for {@code zone} (used where a fragment names no valid workspace). A case field
     * outside Memento's own values (a hand-edited export) refuses the whole source, naming the fragment and the column.
     */
    public static Loaded toRecords(Rows rows, String zone, Instant now) {
        List<String> problems = new ArrayList<>();
        Map<String, Map<String, String>> words = new HashMap<>();
        Map<String, Map<String, String>> notes = new HashMap<>();
        Map<String, Memory> byMementoId = new LinkedHashMap<>();
        Map<String, List<String>> linkedTo = new HashMap<>();
        Map<String, String> supersededBy = new HashMap<>();
        Set<String> hashes = new java.util.HashSet<>();
        int n = 0;
        for (Map<String, Object> row : rows.fragments()) {
            n++;
            String mementoId = text(row.get("id"));
            if (mementoId == null) mementoId = "row-" + n;
            String where = "fragment " + mementoId;
            if (byMementoId.containsKey(mementoId)) {
                problems.add(where + " appears twice; the first is kept");
                continue;
            }
            String content = text(row.get("content"));
            if (content == null) {
                problems.add(where + " has no content; skipped");
                continue;
            }
            String type = text(row.get("type"));
            type = type == null ? "fact" : type.toLowerCase(Locale.ROOT);
            if (!Fragments.TYPES.contains(type)) {
                problems.add(where + " has type '" + type + "', not one of Memento's; imported as fact");
                type = "fact";
            }
            String topic = text(row.get("topic"));
            if (topic == null) {
                problems.add(where + " has no topic; imported under topic 'general'");
                topic = "general";
            }
            if (!hashes.add(content.strip() + "\u0000" + topic)) {
                problems.add(where + " repeats another fragment's content and topic word for word; imported all the same");
            }
            Map<String, String> spelled = new LinkedHashMap<>();
            CaseFields cf = caseFields(row, mementoId);
            Memory m = memory(row, mementoId, content, type, topic, cf, zone, now, spelled, problems);
            byMementoId.put(mementoId, m);
            words.put(mementoId, spelled);
            notes.put(mementoId, cf.notes());
            List<String> linked = strings(row.get("linked_to"));
            if (!linked.isEmpty()) linkedTo.put(mementoId, linked);
            String by = text(row.get("superseded_by"));
            if (by != null) supersededBy.put(mementoId, by);
        }

        Map<String, LinkedHashMap<String, Edge>> edges = new LinkedHashMap<>();
        for (Map<String, Object> link : rows.links()) {
            addEdge(edges, byMementoId, text(link.get("from_id")), text(link.get("to_id")),
                    text(link.get("relation_type")), instant(link.get("created_at")), problems);
        }
        linkedTo.forEach((from, targets) -> targets.forEach(to ->
                addEdge(edges, byMementoId, from, to, "related", null, problems)));
        supersededBy.forEach((old, newer) -> addEdge(edges, byMementoId, old, newer, "superseded_by", null, problems));

        Map<String, List<MemoryVersion>> versions = new HashMap<>();
        for (Map<String, Object> v : rows.versions()) {
            String fragmentId = text(v.get("fragment_id"));
            Memory m = fragmentId == null ? null : byMementoId.get(fragmentId);
            String content = text(v.get("content"));
            if (m == null || content == null) {
                problems.add("a version of fragment " + fragmentId + " names no imported fragment or has no content; skipped");
                continue;
            }
            List<MemoryVersion> list = versions.computeIfAbsent(m.id(), k -> new ArrayList<>());
            Instant at = instant(v.get("amended_at"));
            list.add(new MemoryVersion(m.id(), list.size() + 1, content, m.tags(),
                    m.importance(), at == null ? m.createdAt() : at));
        }

        Map<String, String> memoryIdOf = new HashMap<>();
        byMementoId.forEach((mid, m) -> memoryIdOf.put(mid, m.id()));
        List<ExportRecord> out = new ArrayList<>();
        for (var e : byMementoId.entrySet()) {
            Memory m = e.getValue();
            String by = supersededBy.get(e.getKey());
            if (m.status() == MemoryStatus.SUPERSEDED && by != null && memoryIdOf.containsKey(by)) {
                m = m.toBuilder().supersededBy(memoryIdOf.get(by)).build();
            }
            Collection<Edge> own = edges.getOrDefault(m.id(), new LinkedHashMap<>()).values();
            out.add(new ExportRecord(m, List.copyOf(own), versions.getOrDefault(m.id(), List.of()), notes.get(e.getKey()),
                    words.get(e.getKey())));
        }
        return new Loaded(out, problems);
    }

    /** A fragment's case columns, checked as remember checks its arguments (Memento's limits for length). */
    private static CaseFields caseFields(Map<String, Object> row, String mementoId) {
        Map<String, String> raw = new LinkedHashMap<>();
        CASE_COLUMNS.forEach((name, column) -> raw.put(name, text(row.get(column))));
        return CaseFields.check(raw, CaseFields.Limits.IMPORT, name -> "fragment " + mementoId + ": " + CASE_COLUMNS.get(name));
    }

    private static Memory memory(Map<String, Object> row, String mementoId, String content, String type, String topic,
                                 CaseFields cf, String defaultZone, Instant now, Map<String, String> words,
                                 List<String> problems) {
        String where = "fragment " + mementoId;
        String zone = defaultZone;
        String workspace = text(row.get("workspace"));
        if (workspace != null) {
            if (workspace.isBlank()) {
                problems.add(where + ": workspace is blank; imported into '" + defaultZone + "'");
            } else {
                zone = Workspaces.zoneOf(workspace);
                String note = "workspace '" + workspace.strip() + "' is zone '" + zone + "' (a zone name is lowercase ASCII)";
                if (!zone.equals(workspace.strip()) && !problems.contains(note)) problems.add(note);
            }
        }
        List<String> tags = new ArrayList<>();
        tags.add(tag(Fragments.TOPIC, topic, words));
        if (type.equals(Fragments.EPISODE)) tags.add(Fragments.EPISODE);
        String tier = text(row.get("ttl_tier"));
        boolean session = "short".equals(tier);
        if (session) tags.add(Fragments.SESSION_SCOPE);
        // the case fields before the keywords: past the tag limit a keyword is dropped (and noted), never a case field
        tags.addAll(cf.tags((prefix, word) -> tag(prefix, word, words)));
        for (String k : strings(row.get("keywords"))) {
            if (tags.size() >= MemoryRules.MAX_TAGS) {
                problems.add(where + " has more than " + MemoryRules.MAX_TAGS + " topic and keyword tags; the rest were dropped");
                break;
            }
            String t = tag(Fragments.KEYWORD, k, words);
            if (!tags.contains(t)) tags.add(t);
        }
        Double given = number(row.get("importance"));
        double importance = given == null ? Fragments.defaultImportance(type) : Math.max(0, Math.min(1, given));
        Instant created = orElse(instant(row.get("created_at")), now);
        Instant accessed = instant(row.get("accessed_at"));
        Double count = number(row.get("access_count"));
        Instant validTo = instant(row.get("valid_to"));
        MemoryStatus status = validTo == null ? MemoryStatus.ACTIVE
                : text(row.get("superseded_by")) != null ? MemoryStatus.SUPERSEDED : MemoryStatus.ARCHIVED;
        String idempotency = text(row.get("idempotency_key"));
        String key = idempotency != null ? WriteTools.idempotencyKey(idempotency) : key(mementoId);
        return Memory.builder().id(id(mementoId)).key(key).zone(zone).type(Fragments.engineType(type)).content(content.strip())
                .tags(tags).importance(NumericImportance.level(importance)).relevance(NumericImportance.toRelevance(importance))
                .quality(0.5).confidence(1.0).status(status).createdAt(created).updatedAt(orElse(validTo, created))
                .lastAccessedAt(accessed).accessCount(count == null ? 0 : Math.max(0, count.longValue()))
                // the importance is already faded up to Memento's last decay pass: fading goes on from there, not from creation
                .lastDecayAt(instant(row.get("last_decay_at")))
                .expiresAt(session ? created.plusSeconds(86_400) : null)
                .pinPriority(Boolean.TRUE.equals(bool(row.get("is_anchor"))) ? ANCHOR_PRIORITY : 0)
                .origin(Origin.AGENT).supersededAt(status == MemoryStatus.SUPERSEDED ? validTo : null)
                .build();
    }

    private static void addEdge(Map<String, LinkedHashMap<String, Edge>> edges, Map<String, Memory> byMementoId, String from,
                                String to, String relation, Instant at, List<String> problems) {
        Memory a = from == null ? null : byMementoId.get(from), b = to == null ? null : byMementoId.get(to);
        String rel = relation == null ? "related" : relation.strip().toLowerCase(Locale.ROOT);
        if (a == null || b == null || a == b) {
            problems.add("link " + from + " → " + to + " (" + rel + ") names a fragment that was not imported; dropped");
            return;
        }
        Edge edge = switch (rel) {
            // A superseded_by B: B replaces A, Engram's edge runs from the newer memory
            case "superseded_by" -> new Edge(b.id(), a.id(), EdgeType.SUPERSEDES, null, orElse(at, b.createdAt()));
            case "co_retrieved" -> new Edge(a.id(), b.id(), EdgeType.RELATED, "co_retrieved", orElse(at, a.createdAt()));
            case "related", "caused_by", "resolved_by", "part_of", "contradicts" ->
                    new Edge(a.id(), b.id(), WriteTools.edge(rel), null, orElse(at, a.createdAt()));
            default -> {
                problems.add("link " + from + " → " + to + " has relation '" + rel + "'; kept as related labelled so");
                yield new Edge(a.id(), b.id(), EdgeType.RELATED, rel.length() > 40 ? rel.substring(0, 40) : rel, orElse(at, a.createdAt()));
            }
        };
        String identity = edge.toId() + "|" + edge.type() + "|" + edge.label();
        edges.computeIfAbsent(edge.fromId(), k -> new LinkedHashMap<>()).putIfAbsent(identity, edge);
    }

    /**
     * Imports the records (newer stored memories win, the other state becomes a version) with their notes and words,
     * in one store write.
     */
    public static ImportResult importInto(Engine engine, Loaded loaded, boolean dryRun) {
        return engine.importAll(new ImportCommand(loaded.records(), ImportPolicy.KEEP_NEWER, dryRun));
    }

    // --- mapping helpers ----------------------------------------------------------------------------------

    /** The tag the profile gives {@code word}; a hashed tag's spelling is collected for the record's tag words. */
    private static String tag(String prefix, String word, Map<String, String> words) {
        String tag = Fragments.tagFor(prefix, word);
        if (tag.equals(prefix + word.strip().toLowerCase(Locale.ROOT))) return tag; // the word is its own tag
        words.putIfAbsent(tag, word.strip());
        return tag;
    }

    /** The Engram id a Memento id always maps to: {@code m_} and 10 base32 characters of its SHA-256. */
    static String id(String mementoId) {
        byte[] d = Sha256.of(mementoId);
        StringBuilder b = new StringBuilder("m_");
        long bits = 0;
        for (int i = 0; i < 8; i++) bits = bits << 8 | (d[i] & 0xff);
        for (int i = 0; i < 10; i++) b.append(BASE32[(int) (bits >>> (64 - 5 * (i + 1)) & 31)]);
        return b.toString();
    }

    /**
     * The key that keeps a fragment findable by its Memento id: the id itself when it is a valid key (Memento's
     * {@code frag_…} and UUIDs are), else {@code memento-} and a slug of it.
     */
    static String key(String mementoId) {
        if (MemoryRules.isKey(mementoId) && !MemoryRules.isId(mementoId)) return mementoId;
        String k = "memento-" + mementoId.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-");
        if (k.length() > 80 || !MemoryRules.isKey(k)) {
            k = "memento-" + Sha256.hex(mementoId, 16);
        }
        return k;
    }

    private static String text(Object v) {
        if (v == null) return null;
        String s = v.toString();
        return s.isBlank() ? null : s;
    }

    private static Double number(Object v) {
        if (v instanceof Number n) return Double.isNaN(n.doubleValue()) ? null : n.doubleValue();
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static Boolean bool(Object v) {
        if (v instanceof Boolean b) return b;
        if (v instanceof String s) return Boolean.parseBoolean(s.strip()) || s.strip().equals("t");
        return null;
    }

    /** A text[] column, a JSON array, or PostgreSQL's {a,b} literal. */
    private static List<String> strings(Object v) {
        if (v == null) return List.of();
        List<?> items;
        if (v instanceof List<?> l) items = l;
        else if (v instanceof Object[] a) items = List.of(a);
        else {
            String s = v.toString().strip();
            if (s.startsWith("{") && s.endsWith("}")) s = s.substring(1, s.length() - 1);
            items = s.isEmpty() ? List.of() : List.of(s.split(","));
        }
        LinkedHashSet<String> out = new LinkedHashSet<>();
        for (Object o : items) {
            if (o == null) continue;
            String s = o.toString().strip();
            if (s.startsWith("\"") && s.endsWith("\"") && s.length() >= 2) s = s.substring(1, s.length() - 1);
            if (!s.isEmpty()) out.add(s);
        }
        return List.copyOf(out);
    }

    static Instant instant(Object v) {
        if (v == null) return null;
        if (v instanceof Instant i) return i;
        if (v instanceof java.sql.Timestamp t) return t.toInstant();
        if (v instanceof OffsetDateTime o) return o.toInstant();
        if (v instanceof java.util.Date d) return d.toInstant();
        String s = v.toString().strip();
        if (s.isEmpty()) return null;
        try {
            if (s.length() == 10) return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
            return OffsetDateTime.parse(s.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            try {
                return Instant.parse(s);
            } catch (DateTimeParseException e2) {
                return null;
            }
        }
    }

    private static <T> T orElse(T v, T fallback) {
        return v != null ? v : fallback;
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Counts for the summary line: memories by zone and status, edges, versions. */
    public static String describe(Loaded loaded) {
        Map<String, Integer> zones = new java.util.TreeMap<>();
        int edges = 0, versions = 0, anchors = 0;
        for (ExportRecord r : loaded.records()) {
            zones.merge(r.memory().zone(), 1, Integer::sum);
            edges += r.edges().size();
            versions += r.versions().size();
            if (r.memory().pinned()) anchors++;
        }
        List<String> parts = new ArrayList<>();
        zones.forEach((z, c) -> parts.add(c + " in '" + z + "'"));
        return loaded.records().size() + " fragments (" + String.join(", ", parts) + "), " + edges + " links, " + versions
                + " versions, " + anchors + " anchors";
    }
}
