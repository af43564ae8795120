package dev.engram.mcp.profile.brain;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.engine.graph.Restored;
import dev.engram.engine.zone.ZoneRecords;
import dev.engram.error.EngramUserException;
import dev.engram.error.StoreException;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.ZoneInfo;
import dev.engram.memory.ZoneNames;
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
 * {@code observations} array is read too. Zone names are lower-cased, as brain-tools' index names were; one
 * Engram cannot hold (Korean, reserved) becomes a slug and six hex digits of it ({@link ZoneNames}, reported,
 * the original kept as the zone's short description). Kept: names, types, observation order, relations
 * (across zones), zones with their descriptions and dates (the default zone's too, empty zones too), and for
 * each entity and each observation its review interval, relevance (the old format's {@code isImportant}
 * as 10, as brain-tools' json-to-es read it), read count and time, verification count and time and last
 * write (so a stale entity stays stale).
 */
public final class BrainData {
    /**
     * What a file holds, by zone. {@code renamedZones}: each zone name of the file Engram cannot hold, as the file
     * spells it, with the zone it becomes.
     */
    public record Parsed(Map<String, List<EntityDraft>> entities, List<RelationDraft> relations,
                         Map<String, ZoneItem> zones, Map<String, List<Restored>> stamps, List<String> warnings,
                         Map<String, String> renamedZones) {
        public Parsed {
            warnings = List.copyOf(warnings);
            renamedZones = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(renamedZones));
        }
    }

    /** A zone's metadata as brain-tools kept it; dates null when the file has none. */
    public record ZoneItem(String shortDescription, String description, Instant createdAt, Instant lastModified) {
    }

    /** What {@link #importInto} did. */
    public record Summary(int zonesCreated, int entitiesCreated, int entitiesExisting, int observationsAdded,
                          int relationsCreated, int placeholders, int placeholdersFilled, Map<String, String> renamedZones) {
        public String describe(boolean dryRun) {
            StringBuilder renamed = new StringBuilder();
            renamedZones.forEach((from, to) -> renamed.append(renamed.length() == 0 ? "; " : ", ")
                    .append("zone '").append(from).append("' became '").append(to).append("'"));
            return (dryRun ? "would import: " : "imported: ") + entitiesCreated + " new entities, " + entitiesExisting
                    + " existing, " + observationsAdded + " observations, " + relationsCreated + " relations"
                    + (placeholders > 0 ? " (" + placeholders + " missing ends created as 'unknown')" : "")
                    + (placeholdersFilled > 0 ? ", " + placeholdersFilled + " placeholders filled (entities an earlier"
                    + " import created as 'unknown' for a relation end)" : "")
                    + (zonesCreated > 0 ? ", " + zonesCreated + " zones created" : "")
                    + renamed + (renamed.length() > 0 ? " (Engram's zone names are 1-40 of a-z 0-9 - _ .)" : "");
        }
    }

    /** What stands in for the slug of a zone name without ASCII letters ({@code 개인} becomes {@code zone-…}). */
    private static final String ZONE_FALLBACK = "zone";

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

    /** The file's zone names as Engram zones, remembering the ones that had to be renamed. */
    private static final class Zones {
        final String fallback;
        final Map<String, String> renamed = new LinkedHashMap<>();

        Zones(String fallback) {
            this.fallback = fallback;
        }

        /** Lower-cased, as brain-tools' index names were; a name still not a zone name becomes {@link ZoneNames#of}. */
        String of(Object z) {
            if (!(z instanceof String s) || s.isBlank()) return fallback;
            String lower = s.strip().toLowerCase(Locale.ROOT);
            String zone = lower.equals(MemoryRules.DEFAULT_ZONE) ? lower : ZoneNames.of(lower, ZONE_FALLBACK);
            if (!zone.equals(lower) && renamed.values().stream().noneMatch(zone::equals)) renamed.put(s.strip(), zone);
            return zone;
        }
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
        Zones zoneNames = new Zones(defaultZone);
        Map<Key, String> observationOf = new LinkedHashMap<>();
        List<RelationDraft> kept = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < relations.size(); i++) {
            Map<String, Object> r = relations.get(i);
            String where = "relation " + (i + 1);
            String from = text(r, "from", where), to = text(r, "to", where), type = text(r, "relationType", where);
            String fromZone = zoneNames.of(r.get("fromZone")), toZone = zoneNames.of(r.get("toZone"));
            if (type.equals("is_observation_of")) observationOf.put(new Key(fromZone, from), to);
            else if (from.equals(to) && fromZone.equals(toZone)) {
                // Engram's edges join two different memories; one odd line must not stop the import
                warnings.add(where + " skipped: " + MemoryRules.shown(from) + " -" + type + "-> itself; Engram keeps relations"
                        + " between two different entities (record it as an observation instead)");
            } else kept.add(new RelationDraft(fromZone, from, toZone, to, type));
        }
        // parents first, in file order; observation entities attach to them afterwards, in file order
        Map<Key, EntityDraft> drafts = new LinkedHashMap<>();
        Map<Key, List<String>> observations = new LinkedHashMap<>();
        Map<Key, Restored> entityStamps = new LinkedHashMap<>();
        Map<Key, List<Restored>> observationStamps = new LinkedHashMap<>();
        List<Map<String, Object>> observationItems = new ArrayList<>();
        for (int i = 0; i < entities.size(); i++) {
            Map<String, Object> e = entities.get(i);
            String where = "entity " + (i + 1);
            String name = text(e, "name", where);
            String zone = zoneNames.of(e.get("zone"));
            String type = e.get("entityType") instanceof String s && !s.isBlank() ? s : EntityGraph.UNKNOWN_TYPE;
            Key key = new Key(zone, name);
            if (type.equalsIgnoreCase(EntityGraph.OBSERVATION_TYPE) && (observationOf.containsKey(key) || name.contains(": "))) {
                observationItems.add(e);
                continue;
            }
            List<String> obs = observations.computeIfAbsent(key, k -> new ArrayList<>());
            if (e.get("observations") instanceof List<?> l) for (Object o : l) if (o instanceof String s && !s.isBlank()) obs.add(s);
            drafts.putIfAbsent(key, new EntityDraft(name, type, List.of(), interval(e)));
            entityStamps.putIfAbsent(key, stamps(name, e, null));
        }
        for (Map<String, Object> e : observationItems) {
            String name = (String) e.get("name");
            String zone = zoneNames.of(e.get("zone"));
            String parent = observationOf.get(new Key(zone, name));
            if (parent == null) parent = name.substring(0, name.indexOf(": "));
            String prefix = parent + ": ";
            String textPart = name.startsWith(prefix) ? name.substring(prefix.length()) : name;
            Key pk = new Key(zone, parent);
            drafts.putIfAbsent(pk, new EntityDraft(parent, EntityGraph.UNKNOWN_TYPE, List.of(), null));
            observations.computeIfAbsent(pk, k -> new ArrayList<>()).add(textPart);
            // each observation keeps its own freshness (brain-tools stores it as an entity of its own)
            observationStamps.computeIfAbsent(pk, k -> new ArrayList<>()).add(stamps(textPart, e, interval(e)));
        }
        Map<String, List<EntityDraft>> byZone = new LinkedHashMap<>();
        Map<String, List<Restored>> stamps = new LinkedHashMap<>();
        drafts.forEach((k, d) -> {
            Set<String> seen = new HashSet<>();
            List<String> obs = observations.getOrDefault(k, List.of()).stream().filter(seen::add).toList();
            byZone.computeIfAbsent(k.zone(), z -> new ArrayList<>())
                    .add(new EntityDraft(d.name(), d.entityType(), obs, d.reviewIntervalDays()));
            Restored own = entityStamps.getOrDefault(k, new Restored(d.name(), null, null, null, null, null));
            Restored r = new Restored(own.name(), own.relevance(), own.verifyCount(), own.lastVerifiedAt(), own.readCount(),
                    own.lastReadAt(), own.lastWriteAt(), null, observationStamps.getOrDefault(k, List.of()));
            if (!r.isEmpty()) stamps.computeIfAbsent(k.zone(), z -> new ArrayList<>()).add(r);
        });
        Map<String, ZoneItem> zones = new LinkedHashMap<>();
        for (Map<String, Object> z : zoneItems) {
            if (!(z.get("name") instanceof String n) || n.isBlank()) continue;
            zones.put(zoneNames.of(n), new ZoneItem(z.get("shortDescription") instanceof String s ? s : null,
                    z.get("description") instanceof String d ? d : null, instant(z.get("createdAt")), instant(z.get("lastModified"))));
        }
        return new Parsed(byZone, kept, zones, stamps, warnings, zoneNames.renamed);
    }

    /** A review interval in the file, brought into Engram's 1..365 days; null when absent. */
    private static Integer interval(Map<String, Object> e) {
        return e.get("reviewInterval") instanceof Number n
                ? (int) Math.max(1, Math.min(Freshness.MAX_REVIEW_INTERVAL_DAYS, n.longValue())) : null;
    }

    /**
     * What brain-tools kept of an entity (or observation entity) beyond its draft. A relevance score wins over the
     * old format's {@code isImportant}, which json-to-es read as 10 (else the default 1).
     */
    private static Restored stamps(String name, Map<String, Object> e, Integer interval) {
        Double relevance = number(e.get("relevanceScore"));
        if (relevance == null && Boolean.TRUE.equals(e.get("isImportant"))) relevance = 10.0;
        return new Restored(name, relevance, integer(e.get("verifyCount")), instant(e.get("verifiedAt")),
                e.get("readCount") instanceof Number c ? c.longValue() : null, instant(e.get("lastRead")),
                instant(e.get("lastWrite")), interval, List.of());
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
     * Writes a parsed file: zones first (one write; a zone the store describes already keeps its descriptions,
     * {@link ZoneRecords}), then each zone's entities with their carried-over stamps in one write, then the
     * relations (so an end in a zone imported later is found, not created as a placeholder; a placeholder an
     * earlier import created is filled by the entity of that name, {@link EntityGraph#importGraph}). The whole
     * file is checked (as a dry run) before the first write; each zone is all or nothing; a dry run writes
     * nothing and counts what the real run would. Stamps (relevance, verification, reads, last write) are set
     * only on the entities this import creates or fills: an entity the store held already keeps its own. The
     * steps are several writes, so a failure part-way says what was imported before it.
     */
    public static Summary importInto(Engine engine, Parsed data, boolean dryRun) {
        if (!dryRun) {
            // the whole file checked first, so an item the graph refuses stops the import before any write
            try {
                importInto(engine, data, true);
            } catch (EngramUserException e) {
                throw new EngramUserException(e.getMessage() + "; nothing was imported");
            }
        }
        EntityGraph graph = engine.entities();
        Progress done = new Progress();
        int placeholders = dryRun ? placeholders(graph, data) : 0;
        int filled = 0;
        try {
            ZoneRecords.Outcome zones = engine.zoneAdmin().importZones(zoneRecords(engine, data), dryRun);
            done.zones = (int) zones.created().stream().filter(z -> !z.equals(MemoryRules.DEFAULT_ZONE)).count();
            for (Map.Entry<String, List<EntityDraft>> e : data.entities().entrySet()) {
                EntityGraph.ImportSummary s = graph.importGraph(e.getKey(), e.getValue(), List.of(),
                        data.stamps().getOrDefault(e.getKey(), List.of()), dryRun);
                done.created += s.entitiesCreated();
                done.existing += s.entitiesExisting();
                done.observations += s.observationsAdded();
                filled += s.placeholdersFilled();
                if (!dryRun) done.entityZones.add(e.getKey());
            }
            Map<String, List<RelationDraft>> byZone = new LinkedHashMap<>();
            for (RelationDraft r : data.relations()) byZone.computeIfAbsent(r.fromZone(), z -> new ArrayList<>()).add(r);
            for (Map.Entry<String, List<RelationDraft>> e : byZone.entrySet()) {
                EntityGraph.ImportSummary s = graph.importGraph(e.getKey(), List.of(), e.getValue(), dryRun);
                done.relations += s.relationsCreated();
                if (!dryRun) placeholders += s.placeholders();
            }
        } catch (RuntimeException e) {
            if (dryRun || done.nothingWritten()) throw e;
            String message = "import stopped part-way: " + e.getMessage() + ". Already written: " + done.describe()
                    + "; importing the same file again adds only what is missing";
            if (e instanceof EngramUserException) throw new EngramUserException(message);
            throw new StoreException(message, e);
        }
        return new Summary(done.zones, done.created, done.existing, done.observations, done.relations, placeholders, filled,
                data.renamedZones());
    }

    /**
     * A record for every zone the file names: its metadata when the file has some (the default zone's only then),
     * else none but the zone's existence. A renamed zone keeps the file's name before its short description.
     */
    private static List<ZoneInfo> zoneRecords(Engine engine, Parsed data) {
        Map<String, String> original = new LinkedHashMap<>();
        data.renamedZones().forEach((from, to) -> original.putIfAbsent(to, from));
        Set<String> wanted = new java.util.LinkedHashSet<>(data.zones().keySet());
        wanted.addAll(data.entities().keySet());
        List<ZoneInfo> out = new ArrayList<>();
        for (String z : wanted) {
            ZoneItem item = data.zones().get(z);
            if (item == null && z.equals(MemoryRules.DEFAULT_ZONE)) continue;
            if (item == null) item = new ZoneItem(null, null, null, null);
            String shortDescription = item.shortDescription();
            String from = original.get(z);
            if (from != null) shortDescription = shortDescription == null || shortDescription.isBlank() ? from : from + " — " + shortDescription;
            out.add(engine.zoneAdmin().record(z, shortDescription, item.description(), item.createdAt(), item.lastModified()));
        }
        return out;
    }

    /** What an import wrote so far, for the message of one that fails part-way. */
    private static final class Progress {
        int zones, created, existing, observations, relations;
        final List<String> entityZones = new ArrayList<>();

        boolean nothingWritten() {
            return zones == 0 && entityZones.isEmpty();
        }

        String describe() {
            return zones + " zones created, " + created + " new entities and " + observations + " observations"
                    + (entityZones.isEmpty() ? "" : " in zones " + String.join(", ", entityZones)) + ", " + relations + " relations";
        }
    }

    /**
     * The missing ends the real run would create as placeholders: ends named neither in the file nor in
     * the store, each once (a dry run writes no entity, so its relation step cannot see the file's own).
     */
    private static int placeholders(EntityGraph graph, Parsed data) {
        Set<List<String>> inFile = new HashSet<>();
        data.entities().forEach((zone, drafts) -> drafts.forEach(d -> inFile.add(List.of(zone, d.name()))));
        Set<List<String>> missing = new java.util.LinkedHashSet<>();
        for (RelationDraft r : data.relations()) {
            for (List<String> end : List.of(List.of(r.fromZone(), r.from()), List.of(r.toZone(), r.to()))) {
                if (!inFile.contains(end) && !missing.contains(end) && graph.find(end.get(0), end.get(1)).isEmpty()) missing.add(end);
            }
        }
        return missing.size();
    }
}
