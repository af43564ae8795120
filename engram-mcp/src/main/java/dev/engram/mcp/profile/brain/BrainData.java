package dev.engram.mcp.profile.brain;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.engine.graph.Restored;
import dev.engram.error.ConflictException;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.MemoryRules;
import dev.engram.rank.Freshness;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * brain-tools' data files: the JSONL its admin CLI exports (one {@code {"type":"entity",…}} or
 * {@code {"type":"relation",…}} per line) and the backup JSON ({@code {"entities":[…], "relations":[…],
 * "zones":[…]}}). Observation entities (entityType observation, any case, named {@code "<parent>: <text>"}
 * with an {@code is_observation_of} relation) become the parent's observations; an entity's deprecated
 * {@code observations} array is read too. Zone names are lower-cased, as brain-tools' index names were.
 * Kept: names, types, observation order, review intervals, relations (across zones), zone descriptions,
 * and each entity's relevance, read count and time, verification count and time (so a stale entity stays
 * stale). Observations start their own clocks at the import.
 */
public final class BrainData {
    /** What a file holds, by zone. */
    public record Parsed(Map<String, List<EntityDraft>> entities, List<RelationDraft> relations,
                         Map<String, String[]> zones, Map<String, List<Restored>> stamps) {
    }

    /** What {@link #importInto} did. */
    public record Summary(int zonesCreated, int entitiesCreated, int entitiesExisting, int observationsAdded,
                          int relationsCreated, int placeholders) {
        public String describe(boolean dryRun) {
            return (dryRun ? "would import: " : "imported: ") + entitiesCreated + " new entities, " + entitiesExisting
                    + " existing, " + observationsAdded + " observations, " + relationsCreated + " relations"
                    + (placeholders > 0 ? " (" + placeholders + " missing ends created as 'unknown')" : "")
                    + (zonesCreated > 0 ? ", " + zonesCreated + " zones created" : "");
        }
    }

    private BrainData() {
    }

    /** Parses a JSONL export or a backup JSON; a malformed line or item is refused naming it. */
    public static Parsed parse(String text, String defaultZone, JsonText json) {
        String t = text.strip();
        List<Map<String, Object>> entities = new ArrayList<>();
        List<Map<String, Object>> relations = new ArrayList<>();
        List<Map<String, Object>> zones = new ArrayList<>();
        Map<String, Object> whole = null;
        if (t.startsWith("{")) {
            try {
                whole = json.readObject(t);
            } catch (IllegalArgumentException e) {
                whole = null; // several lines: JSONL
            }
        }
        if (whole != null && (whole.containsKey("entities") || whole.containsKey("relations") || whole.containsKey("zones"))) {
            entities.addAll(objects(whole.get("entities"), "entities"));
            relations.addAll(objects(whole.get("relations"), "relations"));
            zones.addAll(objects(whole.get("zones"), "zones"));
        } else {
            String[] lines = text.split("\r?\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) continue;
                Map<String, Object> item;
                try {
                    item = json.readObject(lines[i].strip());
                } catch (IllegalArgumentException e) {
                    throw new EngramUserException("line " + (i + 1) + ": " + e.getMessage());
                }
                Object type = item.get("type");
                if ("entity".equals(type)) entities.add(item);
                else if ("relation".equals(type)) relations.add(item);
                else throw new EngramUserException("line " + (i + 1) + ": \"type\" must be \"entity\" or \"relation\", got " + type);
            }
        }
        return build(entities, relations, zones, defaultZone);
    }

    private static List<Map<String, Object>> objects(Object v, String field) {
        if (v == null) return List.of();
        if (!(v instanceof List<?> l)) throw new EngramUserException("\"" + field + "\" must be an array");
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            if (!(l.get(i) instanceof Map<?, ?> m)) throw new EngramUserException(field + "[" + i + "] must be an object");
            @SuppressWarnings("unchecked") Map<String, Object> item = (Map<String, Object>) m;
            out.add(item);
        }
        return out;
    }

    private static String zoneOf(Object z, String fallback) {
        return z instanceof String s && !s.isBlank() ? MemoryRules.zone("zone", s.strip().toLowerCase(Locale.ROOT)) : fallback;
    }

    private static String text(Map<String, Object> item, String field, String where) {
        if (!(item.get(field) instanceof String s) || s.isBlank()) {
            throw new EngramUserException(where + ": \"" + field + "\" must be a non-empty string");
        }
        return s;
    }

    private static Parsed build(List<Map<String, Object>> entities, List<Map<String, Object>> relations,
                                List<Map<String, Object>> zoneItems, String defaultZone) {
        record Key(String zone, String name) {
        }
        Map<Key, String> observationOf = new LinkedHashMap<>();
        List<RelationDraft> kept = new ArrayList<>();
        for (int i = 0; i < relations.size(); i++) {
            Map<String, Object> r = relations.get(i);
            String where = "relation " + (i + 1);
            String from = text(r, "from", where), to = text(r, "to", where), type = text(r, "relationType", where);
            String fromZone = zoneOf(r.get("fromZone"), defaultZone), toZone = zoneOf(r.get("toZone"), defaultZone);
            if (type.equals("is_observation_of")) observationOf.put(new Key(fromZone, from), to);
            else kept.add(new RelationDraft(fromZone, from, toZone, to, type));
        }
        // parents first, in file order; observation entities attach to them afterwards, in file order
        Map<Key, EntityDraft> drafts = new LinkedHashMap<>();
        Map<Key, List<String>> observations = new LinkedHashMap<>();
        Map<String, List<Restored>> stamps = new LinkedHashMap<>();
        List<Map<String, Object>> observationItems = new ArrayList<>();
        for (int i = 0; i < entities.size(); i++) {
            Map<String, Object> e = entities.get(i);
            String where = "entity " + (i + 1);
            String name = text(e, "name", where);
            String zone = zoneOf(e.get("zone"), defaultZone);
            String type = e.get("entityType") instanceof String s && !s.isBlank() ? s : EntityGraph.UNKNOWN_TYPE;
            Key key = new Key(zone, name);
            if (type.equalsIgnoreCase(EntityGraph.OBSERVATION_TYPE) && (observationOf.containsKey(key) || name.contains(": "))) {
                observationItems.add(e);
                continue;
            }
            Integer interval = e.get("reviewInterval") instanceof Number n
                    ? (int) Math.max(1, Math.min(Freshness.MAX_REVIEW_INTERVAL_DAYS, n.longValue())) : null;
            List<String> obs = observations.computeIfAbsent(key, k -> new ArrayList<>());
            if (e.get("observations") instanceof List<?> l) for (Object o : l) if (o instanceof String s && !s.isBlank()) obs.add(s);
            drafts.putIfAbsent(key, new EntityDraft(name, type, List.of(), interval));
            Restored r = new Restored(name, number(e.get("relevanceScore")), integer(e.get("verifyCount")),
                    instant(e.get("verifiedAt")), e.get("readCount") instanceof Number c ? c.longValue() : null,
                    instant(e.get("lastRead")));
            if (r.relevance() != null || r.verifyCount() != null || r.lastVerifiedAt() != null || r.readCount() != null
                    || r.lastReadAt() != null) {
                stamps.computeIfAbsent(zone, z -> new ArrayList<>()).add(r);
            }
        }
        for (Map<String, Object> e : observationItems) {
            String name = (String) e.get("name");
            String zone = zoneOf(e.get("zone"), defaultZone);
            String parent = observationOf.get(new Key(zone, name));
            if (parent == null) parent = name.substring(0, name.indexOf(": "));
            String prefix = parent + ": ";
            String textPart = name.startsWith(prefix) ? name.substring(prefix.length()) : name;
            Key pk = new Key(zone, parent);
            drafts.putIfAbsent(pk, new EntityDraft(parent, EntityGraph.UNKNOWN_TYPE, List.of(), null));
            observations.computeIfAbsent(pk, k -> new ArrayList<>()).add(textPart);
        }
        Map<String, List<EntityDraft>> byZone = new LinkedHashMap<>();
        drafts.forEach((k, d) -> {
            Set<String> seen = new HashSet<>();
            List<String> obs = observations.getOrDefault(k, List.of()).stream().filter(seen::add).toList();
            byZone.computeIfAbsent(k.zone(), z -> new ArrayList<>())
                    .add(new EntityDraft(d.name(), d.entityType(), obs, d.reviewIntervalDays()));
        });
        Map<String, String[]> zones = new LinkedHashMap<>();
        for (Map<String, Object> z : zoneItems) {
            if (!(z.get("name") instanceof String n) || n.isBlank()) continue;
            String name = zoneOf(n, defaultZone);
            zones.put(name, new String[] {z.get("shortDescription") instanceof String s ? s : null,
                    z.get("description") instanceof String d ? d : null});
        }
        return new Parsed(byZone, kept, zones, stamps);
    }

    private static Double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : null;
    }

    private static Integer integer(Object v) {
        return v instanceof Number n ? (int) Math.max(0, Math.min(Integer.MAX_VALUE, n.longValue())) : null;
    }

    /** An ISO-8601 time as brain-tools wrote them (Date.toISOString), or null when absent or unreadable. */
    private static Instant instant(Object v) {
        if (!(v instanceof String s) || s.isBlank()) return null;
        try {
            return Instant.parse(s.strip());
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Writes a parsed file: zones first (a zone the store describes already keeps its descriptions),
     * then each zone's entities in one write, then the relations (so an end in a zone imported later is
     * found, not created as a placeholder). Each zone is all or nothing; a dry run writes nothing.
     */
    public static Summary importInto(Engine engine, Parsed data, boolean dryRun) {
        int zonesCreated = 0;
        Set<String> described = new HashSet<>();
        engine.zoneAdmin().list().stream().filter(z -> z.createdAt() != null).forEach(z -> described.add(z.name()));
        Set<String> wanted = new java.util.LinkedHashSet<>(data.zones().keySet());
        wanted.addAll(data.entities().keySet());
        for (String z : wanted) {
            if (z.equals(MemoryRules.DEFAULT_ZONE) || described.contains(z)) continue;
            String[] d = data.zones().getOrDefault(z, new String[2]);
            if (!dryRun) {
                try {
                    engine.zoneAdmin().create(z, d[0], d[1]);
                } catch (ConflictException e) {
                    continue; // described meanwhile by another writer: its descriptions stay
                }
            }
            zonesCreated++;
        }
        int created = 0, existing = 0, observations = 0, relations = 0, placeholders = 0;
        for (Map.Entry<String, List<EntityDraft>> e : data.entities().entrySet()) {
            EntityGraph.ImportSummary s = engine.entities().importGraph(e.getKey(), e.getValue(), List.of(), dryRun);
            created += s.entitiesCreated();
            existing += s.entitiesExisting();
            observations += s.observationsAdded();
        }
        if (!dryRun) data.stamps().forEach((zone, items) -> engine.entities().restore(zone, items));
        Map<String, List<RelationDraft>> byZone = new LinkedHashMap<>();
        for (RelationDraft r : data.relations()) byZone.computeIfAbsent(r.fromZone(), z -> new ArrayList<>()).add(r);
        for (Map.Entry<String, List<RelationDraft>> e : byZone.entrySet()) {
            EntityGraph.ImportSummary s = engine.entities().importGraph(e.getKey(), List.of(), e.getValue(), dryRun);
            relations += s.relationsCreated();
            placeholders += s.placeholders();
        }
        return new Summary(zonesCreated, created, existing, observations, relations, placeholders);
    }
}
