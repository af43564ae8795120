package dev.engram.mcp.json;

import dev.engram.engine.ExportRecord;
import dev.engram.error.InvalidArgumentException;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryVersion;
import dev.engram.memory.Origin;
import dev.engram.memory.ZoneInfo;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.mcp.profile.nativeprofile.StructuredRenderer;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The export line format: one JSON object per memory with every field (as {@link
 * StructuredRenderer#memory}), its outgoing {@code edges} and its {@code versions}, and when it has any its
 * {@code notes} (name → text) and {@code tag_words} (hashed tag → the word it stands for). Zone lines
 * ({@code {"record":"zone","name":…,"short_description":…,"description":…,"created_at":…,"updated_at":…}}, the
 * descriptions only when set) come before the memory lines and carry what a zone says about itself, so an empty
 * zone and a zone's descriptions survive a round trip. The format grows only by additions: a field a later
 * Engram added is optional when read (older lines lack it), and a line without {@code record} is a memory, so
 * every older export still reads. Reading is the exact inverse of writing, so export → import → export
 * reproduces the same lines.
 */
public final class ExportCodec {
    private final StructuredRenderer structured;
    private final JsonText json;

    public ExportCodec(StructuredRenderer structured, JsonText json) {
        this.structured = structured;
        this.json = json;
    }

    /** What a line holds: a memory's record or a zone's. */
    public sealed interface Line permits OfMemory, OfZone {
    }

    public record OfMemory(ExportRecord record) implements Line {
    }

    public record OfZone(ZoneInfo zone) implements Line {
    }

    /** The {@code record} value of a zone line (memory lines have no {@code record} field). */
    static final String ZONE_RECORD = "zone";

    public String write(ZoneInfo zone) {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("record", ZONE_RECORD);
        line.put("name", zone.name());
        if (zone.shortDescription() != null) line.put("short_description", zone.shortDescription());
        if (zone.description() != null) line.put("description", zone.description());
        line.put("created_at", zone.createdAt().toString());
        line.put("updated_at", zone.updatedAt().toString());
        return json.write(line);
    }

    public String write(ExportRecord record) {
        Map<String, Object> line = new LinkedHashMap<>(structured.memory(record.memory()));
        line.put("edges", record.edges().stream().map(e -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("to_id", e.toId());
            m.put("type", e.type().wireName());
            if (e.label() != null) m.put("label", e.label());
            m.put("created_at", e.createdAt().toString());
            return m;
        }).toList());
        line.put("versions", record.versions().stream().map(structured::version).toList());
        // only when there are some: lines of memories without them stay as they were
        if (!record.notes().isEmpty()) line.put("notes", record.notes());
        if (!record.tagWords().isEmpty()) line.put("tag_words", record.tagWords());
        return json.write(line);
    }

    /** Parses a memory line; a zone line or a malformed line throws InvalidArgumentException naming the field. */
    public ExportRecord read(String line) {
        if (readLine(line) instanceof OfMemory m) return m.record();
        throw new InvalidArgumentException("record", "is a zone line; only memory lines are read here");
    }

    /** Parses a memory or a zone line; a malformed line throws InvalidArgumentException naming the field. */
    public Line readLine(String line) {
        Map<String, Object> m;
        try {
            m = json.readObject(line);
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("line", e.getMessage());
        }
        String kind = optText(m, "record");
        if (kind == null) return new OfMemory(memory(m));
        if (kind.equals(ZONE_RECORD)) {
            String name = text(m, "name");
            if (name.isBlank()) throw new InvalidArgumentException("name", "is blank; a zone line names its zone");
            return new OfZone(new ZoneInfo(MemoryRules.zone("name", name), optText(m, "short_description"),
                    optText(m, "description"), instant(m, "created_at"), instant(m, "updated_at")));
        }
        throw new InvalidArgumentException("record", MemoryRules.shown(kind) + " is not a line this Engram reads"
                + " (zone lines say \"zone\", memory lines have no record field); a newer Engram wrote it?");
    }

    private ExportRecord memory(Map<String, Object> m) {
        Memory memory = Memory.builder()
                .id(text(m, "id")).key(text(m, "key")).name(optText(m, "name")).zone(text(m, "zone"))
                .type(TypeAliases.TOON_MEMORY.parse("type", text(m, "type"))).entityType(optText(m, "entity_type"))
                .content(nonBlank(text(m, "content")))
                .tags(strings(m, "tags")).file(optText(m, "file")).pathScope(optText(m, "path_scope"))
                .importance(optText(m, "importance") == null ? null : Importance.parse("importance", optText(m, "importance")))
                .quality(number(m, "quality")).confidence(number(m, "confidence"))
                .status(MemoryStatus.parse("status", text(m, "status")))
                .createdAt(instant(m, "created_at")).updatedAt(instant(m, "updated_at"))
                .lastAccessedAt(optInstant(m, "last_accessed_at")).accessCount((long) number(m, "access_count"))
                .expiresAt(optInstant(m, "expires_at")).occurredAt(optInstant(m, "occurred_at")).reviewIntervalDays((int) number(m, "review_interval_days"))
                .lastVerifiedAt(optInstant(m, "last_verified_at"))
                // lines written before the widened model have no verify_count or relevance, and a "tier"
                // that is now computed on read: it is ignored
                .verifyCount((int) numberOr(m, "verify_count", 0)).relevance(numberOr(m, "relevance", 1.0))
                .origin(Origin.parse("origin", text(m, "origin"))).session(optText(m, "session"))
                .branch(optText(m, "branch")).pinPriority((int) number(m, "pin_priority"))
                .supersededAt(optInstant(m, "superseded_at")).supersededBy(optText(m, "superseded_by"))
                // when maintenance last wrote the decay back: kept, so an imported memory does not fade those days again
                .lastDecayAt(optInstant(m, "last_decay_at"))
                .build();
        List<Edge> edges = new ArrayList<>();
        for (Map<String, Object> e : objects(m, "edges")) {
            edges.add(new Edge(memory.id(), text(e, "to_id"), EdgeType.parse("edges.type", text(e, "type")),
                    optText(e, "label"), instant(e, "created_at")));
        }
        List<MemoryVersion> versions = new ArrayList<>();
        for (Map<String, Object> v : objects(m, "versions")) {
            String importance = optText(v, "importance");
            versions.add(new MemoryVersion(text(v, "memory_id"), (int) number(v, "version"), text(v, "content"),
                    strings(v, "tags"), importance == null ? null : Importance.parse("versions.importance", importance),
                    instant(v, "replaced_at")));
        }
        return new ExportRecord(memory, edges, versions, textMap(m, "notes"), textMap(m, "tag_words"));
    }

    /**
     * No Engram write leaves a memory without text (toon's importer puts the key in an empty entry's place). A
     * text longer than remember takes is kept: imports of toon files bring such entries, and a restore takes them back.
     */
    private static String nonBlank(String content) {
        if (content.isBlank()) throw new InvalidArgumentException("content", "is empty; every memory holds some text");
        return content;
    }

    private static String text(Map<String, Object> m, String field) {
        String v = optText(m, field);
        if (v == null) throw new InvalidArgumentException(field, "is missing");
        return v;
    }

    private static String optText(Map<String, Object> m, String field) {
        Object v = m.get(field);
        if (v == null) return null;
        if (v instanceof String s) return s;
        throw new InvalidArgumentException(field, "must be a string, got " + v);
    }

    private static double number(Map<String, Object> m, String field) {
        if (m.get(field) instanceof Number n) return n.doubleValue();
        throw new InvalidArgumentException(field, "must be a number, got " + m.get(field));
    }

    private static double numberOr(Map<String, Object> m, String field, double absent) {
        return m.get(field) == null ? absent : number(m, field);
    }

    private static Instant instant(Map<String, Object> m, String field) {
        Instant t = optInstant(m, field);
        if (t == null) throw new InvalidArgumentException(field, "is missing");
        return t;
    }

    private static Instant optInstant(Map<String, Object> m, String field) {
        String v = optText(m, field);
        try {
            return v == null ? null : Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new InvalidArgumentException(field, MemoryRules.shown(v) + " is not an ISO-8601 instant");
        }
    }

    private static List<String> strings(Map<String, Object> m, String field) {
        Object v = m.get(field);
        if (v == null) return List.of();
        if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String)) {
            return l.stream().map(String.class::cast).toList();
        }
        throw new InvalidArgumentException(field, "must be an array of strings");
    }

    /** An object of strings by name (notes, tag_words), in the line's order; absent is empty. */
    private static Map<String, String> textMap(Map<String, Object> m, String field) {
        Object v = m.get(field);
        if (v == null) return Map.of();
        if (v instanceof Map<?, ?> map && map.values().stream().allMatch(x -> x instanceof String)) {
            Map<String, String> out = new LinkedHashMap<>();
            map.forEach((k, x) -> out.put(String.valueOf(k), (String) x));
            return out;
        }
        throw new InvalidArgumentException(field, "must be an object of strings by name");
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objects(Map<String, Object> m, String field) {
        Object v = m.get(field);
        if (v == null) return List.of();
        if (v instanceof List<?> l && l.stream().allMatch(x -> x instanceof Map)) {
            return (List<Map<String, Object>>) v;
        }
        throw new InvalidArgumentException(field, "must be an array of objects");
    }
}
