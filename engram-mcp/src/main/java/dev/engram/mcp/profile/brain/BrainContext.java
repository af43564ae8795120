package dev.engram.mcp.profile.brain;

import dev.engram.engine.graph.Entity;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.Observation;
import dev.engram.engine.graph.Relation;
import dev.engram.engine.zone.ZoneOperation;
import dev.engram.error.InvalidArgumentException;
import dev.engram.llm.ChatModel;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Memory;
import dev.engram.rank.Freshness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the brain tools share: the engine's entity graph and zones, the optional chat model, the clock,
 * and brain-tools' views of an entity (name, type, confidence, needsReview only when true,
 * daysSinceLastWrite, observations with their own confidence).
 */
final class BrainContext {
    static final String ZONE_ARGUMENT = "memory_zone";
    /** brain-tools names an observation "<entity>: <text>" (EntityGraph does the same). */
    static final String OBSERVATION_SEPARATOR = ": ";
    static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    final ProfileContext profile;
    final Optional<ChatModel> model;
    final Clock clock;
    final JsonText json;

    BrainContext(ProfileContext profile, Optional<ChatModel> model, Clock clock, JsonText json) {
        this.profile = profile;
        this.model = model;
        this.clock = clock;
        this.json = json;
    }

    EntityGraph graph() {
        return profile.engine().entities();
    }

    /** The graph writing as this call's caller: its MCP session and the project's branch are recorded on writes. */
    EntityGraph graph(ToolArgs args) {
        return graph().by(args.caller().session(), args.caller().branch());
    }

    ZoneOperation zones() {
        return profile.engine().zoneAdmin();
    }

    Instant now() {
        return clock.instant();
    }

    /**
     * The zone a call names in {@code field} (required; brain-tools zone names are case-insensitive, as
     * its index names were lower-cased), checked to exist.
     */
    String zone(ToolArgs args, String field, boolean required) {
        String raw = required ? args.text(field) : args.textOr(field);
        if (raw == null || raw.isBlank()) return profile.defaultZone();
        return zones().require(field, raw.strip().toLowerCase(Locale.ROOT));
    }

    String zone(ToolArgs args) {
        return zone(args, ZONE_ARGUMENT, true);
    }

    /** A required non-blank name; a blank one is refused saying so (brain-tools' empty-name rule). */
    static String name(ToolArgs args, String field) {
        Object raw = args.textOr(field);
        if (raw == null) args.text(field); // the standard "is required" message
        String s = (String) raw;
        if (s.isBlank()) throw new InvalidArgumentException(field, "cannot be empty; send the entity's exact name");
        return s;
    }

    /** An entity as search_nodes, open_nodes and get_recent show it. */
    Map<String, Object> view(Entity e, boolean withObservations) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", e.name());
        out.put("entityType", e.entityType());
        staleness(out, e.memory());
        if (withObservations && !e.observations().isEmpty()) {
            List<Map<String, Object>> obs = new ArrayList<>();
            for (Memory o : e.observations()) {
                Map<String, Object> v = new LinkedHashMap<>();
                v.put("name", e.name() + EntityGraph.OBSERVATION_NAME_SEPARATOR + o.content());
                Freshness f = Freshness.of(o, now());
                v.put("confidence", f.label().word());
                if (f.needsReview()) v.put("needsReview", true);
                obs.add(v);
            }
            out.put("observations", obs);
        }
        return out;
    }

    /**
     * An observation opened by its own name, as brain-tools showed its observation entities: no
     * observations of its own, its own freshness.
     */
    Map<String, Object> view(Observation o) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", o.name());
        out.put("entityType", EntityGraph.OBSERVATION_TYPE);
        staleness(out, o.memory());
        return out;
    }

    /** brain-tools' lastRead: the last read, or the creation when there was none (it set lastRead on creation). */
    static Instant lastRead(Memory m) {
        return m.lastAccessedAt() != null ? m.lastAccessedAt() : m.createdAt();
    }

    /** confidence, needsReview (only when true), daysSinceLastWrite. */
    void staleness(Map<String, Object> out, Memory m) {
        Freshness f = Freshness.of(m, now());
        out.put("confidence", f.label().word());
        if (f.needsReview()) out.put("needsReview", true);
        out.put("daysSinceLastWrite", Math.max(0, Duration.between(m.updatedAt(), now()).toDays()));
    }

    /** The stored fields of an entity, as brain-tools' ESEntity documents carried them. */
    Map<String, Object> document(Entity e) {
        return document(e.name(), e.entityType(), e.observationTexts(), e.memory());
    }

    /** The stored fields of an observation, as brain-tools' observation entity documents carried them. */
    Map<String, Object> document(Observation o) {
        return document(o.name(), EntityGraph.OBSERVATION_TYPE, List.of(), o.memory());
    }

    private Map<String, Object> document(String name, String type, List<String> observations, Memory m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("entityType", type);
        out.put("observations", observations);
        out.put("zone", m.zone());
        out.put("relevanceScore", m.relevance());
        out.put("readCount", m.accessCount());
        out.put("lastRead", ISO.format(lastRead(m)));
        out.put("lastWrite", ISO.format(m.updatedAt()));
        out.put("verifiedAt", ISO.format(Freshness.verifiedAt(m)));
        out.put("verifyCount", m.verifyCount());
        out.put("reviewInterval", m.reviewIntervalDays());
        out.put("nextReviewAt", ISO.format(Freshness.of(m, now()).nextReviewAt()));
        staleness(out, m);
        return out;
    }

    static Map<String, Object> relation(Relation r) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("from", r.from());
        out.put("to", r.to());
        out.put("type", r.type());
        out.put("fromZone", r.fromZone());
        out.put("toZone", r.toZone());
        return out;
    }

    static String inZone(String zone) {
        return " in zone \"" + zone + "\"";
    }
}
