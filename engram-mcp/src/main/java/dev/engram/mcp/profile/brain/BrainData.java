package dev.engram.mcp.profile.brain;

import dev.engram.engine.Engine;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.EntityGraph;
import dev.engram.engine.graph.RelationDraft;
import dev.engram.engine.graph.Restored;
import dev.engram.engine.zone.ZoneOperation;
import dev.engram.engine.zone.ZoneRecords;
import dev.engram.error.EngramUserException;
import dev.engram.error.StoreException;
import dev.engram.mcp.json.JsonLines;
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
     * What a file holds, by zone. {@code skipped}: why each line (or, in a backup, item) the import leaves out was left
     * out, each starting with where it is ({@code "line 3: not JSON (…)"}, {@code "entities[2]: …"}), in file order.
     * {@code renamedZones}: each zone name of the file Engram cannot hold, as the file spells it, with the zone it becomes.
     */
    public record Parsed(Map<String, List<EntityDraft>> entities, List<RelationDraft> relations,
                         Map<String, ZoneItem> zones, Map<String, List<Restored>> stamps, List<String> skipped,
                         boolean backup, Map<String, String> renamedZones) {
        public Parsed {
            skipped = List.copyOf(skipped);
            renamedZones = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(renamedZones));
        }
    }

    /** A zone's metadata as brain-tools kept it; dates null when the file has none. */
    public record ZoneItem(String shortDescription, String description, Instant createdAt, Instant lastModified) {
    }

    /** What {@link #importInto} did; {@code skipped} and {@code skippedUnit} ("line(s)", "item(s)") as parsed. */
    public record Summary(int zonesCreated, int entitiesCreated, int entitiesExisting, int observationsAdded,
                          int relationsCreated, int placeholders, int placeholdersFilled, Map<String, String> renamedZones,
                          List<String> skipped, String skippedUnit) {
        public Summary {
            skipped = List.copyOf(skipped);
        }

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
                    + renamed + (renamed.length() > 0 ? " (Engram's zone names are 1-40 of a-z 0-9 - _ .)" : "")
                    + (skipped.isEmpty() ? "" : "; " + JsonLines.skippedNote(skipped, skippedUnit + " skipped"));
        }
    }

    /** What stands in for the slug of a zone name without ASCII letters ({@code 개인} becomes {@code zone-…}). */
    private static final String ZONE_FALLBACK = "zone";

    private BrainData() {
    }

    /**
     * Parses a JSONL export or a backup JSON. A line (or backup item) that cannot be used is skipped and named in
     * {@link Parsed#skipped}, as brain-tools' json-to-es skipped a line it could not parse: not JSON, not an object,
     * a {@code type} other than entity or relation, a missing name, a relation from an entity to itself. A backup
     * whose {@code entities}, {@code relations} or {@code zones} is not an array is refused.
     */
    public static Parsed parse(String text, String defaultZone, JsonText json) {
        Reader reader = new Reader(defaultZone);
        Map<String, Object> backup = backup(text, json);
        if (backup != null) {
            reader.each(backup.get("entities"), "entities", reader::entity);
            reader.each(backup.get("relations"), "relations", reader::relation);
            reader.each(backup.get("zones"), "zones", reader::zone);
        } else {
            reader.skipped.addAll(JsonLines.read(text, json, (item, line) -> {
                if (JsonLines.kind(item, line).equals("entity")) reader.entity(item, "line " + line);
                else reader.relation(item, "line " + line);
            }));
        }
        return reader.parsed(backup != null);
    }

    /** The file as the admin CLI's backup ({@code {"entities":[…],"relations":[…],"zones":[…]}}), or null for JSONL. */
    private static Map<String, Object> backup(String text, JsonText json) {
        String t = text.strip();
        if (!t.startsWith("{")) return null;
        Map<String, Object> whole;
        try {
            whole = json.readObject(t);
        } catch (IllegalArgumentException e) {
            return null; // several lines: JSONL
        }
        return whole.containsKey("entities") || whole.containsKey("relations") || whole.containsKey("zones") ? whole : null;
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

    private record Key(String zone, String name) {
    }

    /**
     * Reads the file's items in file order, each checked as it comes (an item it cannot use throws an
     * {@link EngramUserException} that starts with where the item is), then turns them into drafts by zone.
     */
    private static final class Reader {
        final Zones zoneNames;
        final List<String> skipped = new ArrayList<>();
        final List<Map<String, Object>> entities = new ArrayList<>();
        final List<RelationDraft> relations = new ArrayList<>();
        final Map<Key, String> observationOf = new LinkedHashMap<>();
        final List<Map<String, Object>> zoneItems = new ArrayList<>();

        Reader(String defaultZone) {
            this.zoneNames = new Zones(defaultZone);
        }

        /** Each object of a backup's array, named {@code field[i]}; one that cannot be used is skipped. */
        void each(Object v, String field, java.util.function.BiConsumer<Map<String, Object>, String> read) {
            if (v == null) return;
            if (!(v instanceof List<?> l)) throw new EngramUserException("\"" + field + "\" must be an array");
            for (int i = 0; i < l.size(); i++) {
                String where = field + "[" + i + "]";
                try {
                    if (!(l.get(i) instanceof Map<?, ?> m)) throw new EngramUserException(where + ": not a JSON object");
                    @SuppressWarnings("unchecked") Map<String, Object> item = (Map<String, Object>) m;
                    read.accept(item, where);
                } catch (EngramUserException e) {
                    skipped.add(e.getMessage());
                }
            }
        }

        void entity(Map<String, Object> item, String where) {
            text(item, "name", where);
            entities.add(item);
        }

        void relation(Map<String, Object> r, String where) {
            String from = text(r, "from", where), to = text(r, "to", where), type = text(r, "relationType", where);
            String fromZone = zoneNames.of(r.get("fromZone")), toZone = zoneNames.of(r.get("toZone"));
            if (type.equals("is_observation_of")) observationOf.put(new Key(fromZone, from), to);
            else if (from.equals(to) && fromZone.equals(toZone)) {
                // Engram's edges join two different memories; one odd line must not stop the import
                throw new EngramUserException(where + ": " + MemoryRules.shown(from) + " -" + type + "-> itself; Engram keeps"
                        + " relations between two different entities (record it as an observation instead)");
            } else relations.add(new RelationDraft(fromZone, from, toZone, to, type));
        }

        void zone(Map<String, Object> z, String where) {
            text(z, "name", where);
            zoneItems.add(z);
        }

        Parsed parsed(boolean backup) {
            // parents first, in file order; observation entities attach to them afterwards, in file order
            Map<Key, EntityDraft> drafts = new LinkedHashMap<>();
            Map<Key, List<String>> observations = new LinkedHashMap<>();
            Map<Key, Restored> entityStamps = new LinkedHashMap<>();
            Map<Key, List<Restored>> observationStamps = new LinkedHashMap<>();
            List<Map<String, Object>> observationItems = new ArrayList<>();
            for (Map<String, Object> e : entities) {
                String name = (String) e.get("name");
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
                zones.put(zoneNames.of(z.get("name")), new ZoneItem(z.get("shortDescription") instanceof String s ? s : null,
                        z.get("description") instanceof String d ? d : null, instant(z.get("createdAt")), instant(z.get("lastModified"))));
            }
            return new Parsed(byZone, relations, zones, stamps, skipped, backup, zoneNames.renamed);
        }
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
     * Writes a parsed file in one write ({@link dev.engram.engine.zone.ZoneOperation#importGraph}): zones first (a zone
     * the store describes already keeps its descriptions, {@link ZoneRecords}), then each zone's entities with their
     * carried-over stamps, then the relations (so an end in a zone of the same file is found, not created as a
     * placeholder; a placeholder an earlier import created is filled by the entity of that name,
     * {@link EntityGraph#importGraph}). An item the graph refuses, or a store failure part-way, leaves nothing
     * written; a dry run writes nothing and counts what the real run would. Stamps (relevance, verification, reads,
     * last write) are set only on the entities this import creates or fills: an entity the store held already keeps
     * its own.
     */
    public static Summary importInto(Engine engine, Parsed data, boolean dryRun) {
        List<EntityGraph.ZonePart> parts = new ArrayList<>();
        data.entities().forEach((zone, drafts) -> parts.add(new EntityGraph.ZonePart(zone, drafts,
                data.stamps().getOrDefault(zone, List.of()))));
        ZoneOperation.GraphImport done;
        try {
            done = engine.zoneAdmin().importGraph(zoneRecords(engine, data), parts, data.relations(), dryRun);
        } catch (EngramUserException e) {
            throw new EngramUserException(e.getMessage() + "; nothing was imported");
        } catch (StoreException e) {
            throw new StoreException(e.getMessage() + "; nothing was imported (importing the same file again is safe)", e);
        }
        EntityGraph.ImportSummary s = done.graph();
        int zones = (int) done.zones().created().stream().filter(z -> !z.equals(MemoryRules.DEFAULT_ZONE)).count();
        return new Summary(zones, s.entitiesCreated(), s.entitiesExisting(), s.observationsAdded(), s.relationsCreated(),
                s.placeholders(), s.placeholdersFilled(), data.renamedZones(), data.skipped(), data.backup() ? "item(s)" : "line(s)");
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
}
