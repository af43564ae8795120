package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportPolicy;
import dev.engram.engine.ImportResult;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.profile.TypeAliases;
import dev.engram.memory.Edge;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * toon-memory's {@code .toon-memory/memory} folder to Engram's records and back. Kept on import: id,
 * category, key, content, file, tags, date (created), ttl, access count, last access, links (as typed
 * edges; {@code superseded_by:k} as k's supersedes edge), quality, confidence, priority (pin), path
 * scope, origin, status, supersededOn, importance and evidence (kept beside the memories, see
 * {@link ToonEvidence}). Statuses: active and draft as they are;
 * obsolete becomes superseded when toon recorded a supersession, else archived (Engram's soft forget);
 * resolved becomes archived; entries of archive.toon are archived.
 */
public final class ToonData {
    public static final String FOLDER = ".toon-memory";
    private static final Map<String, EdgeType> EDGE_TYPES = Map.of("related", EdgeType.RELATED,
            "supersedes", EdgeType.SUPERSEDES, "implements", EdgeType.IMPLEMENTS, "blocks", EdgeType.BLOCKS,
            "depends_on", EdgeType.DEPENDS_ON, "references", EdgeType.REFERENCES, "applies_to", EdgeType.APPLIES_TO);

    private ToonData() {
    }

    /**
     * What {@link #read} found: the records to import, the file summaries, toon's evidence level by memory id
     * (only the entries that had one), plus what could not be carried over.
     */
    public record Loaded(List<ExportRecord> records, Map<String, String> summaries, List<String> problems,
                         Map<String, String> evidence) {
        public Loaded {
            records = List.copyOf(records);
            summaries = Map.copyOf(summaries);
            problems = List.copyOf(problems);
            evidence = Map.copyOf(evidence);
        }

        public Loaded(List<ExportRecord> records, Map<String, String> summaries, List<String> problems) {
            this(records, summaries, problems, Map.of());
        }
    }

    /** The memory folder of a project ({@code DIR/.toon-memory/memory}), or DIR itself when it holds data.toon. */
    public static Path memoryDir(Path dir) {
        if (Files.isRegularFile(dir.resolve("data.toon"))) return dir;
        if (Files.isRegularFile(dir.resolve("memory").resolve("data.toon"))) return dir.resolve("memory");
        return dir.resolve(FOLDER).resolve("memory");
    }

    /**
     * toon's memory folder for a server started with these candidate project folders: the first whose
     * .toon-memory exists, else the first candidate's (toon keeps it at its working directory). The
     * capture log and the secrets vault live there, as toon keeps them.
     */
    public static Path memoryFolder(List<Path> candidates) {
        for (Path p : candidates) {
            if (Files.isDirectory(p.resolve(FOLDER))) return p.toAbsolutePath().normalize().resolve(FOLDER).resolve("memory");
        }
        return candidates.get(0).toAbsolutePath().normalize().resolve(FOLDER).resolve("memory");
    }

    /** The secrets vault's key: TOON_MEMORY_KEY (toon's name), else ENGRAM_KEY; null when neither is set. */
    public static String vaultKey(Map<String, String> env) {
        return dev.engram.crypto.UserKey.fromEnvironment(env).orElse(null);
    }

    /**
     * Reads data.toon and archive.toon of {@code dir} (a project, its .toon-memory folder or the memory folder);
     * files toon encrypted (memory_encrypt) are opened with the key in this process's TOON_MEMORY_KEY / ENGRAM_KEY.
     */
    public static Loaded read(Path dir, String zone, Instant now) throws IOException {
        return read(dir, zone, now, dev.engram.crypto.UserKey.fromEnvironment(System.getenv()).orElse(null));
    }

    /** As {@link #read(Path, String, Instant)}, with the key ({@code keyHex}, 64 hex characters; null: none). */
    public static Loaded read(Path dir, String zone, Instant now, String keyHex) throws IOException {
        Path memory = memoryDir(dir);
        Path data = memory.resolve("data.toon");
        if (!Files.isRegularFile(data)) {
            throw new EngramUserException("no toon-memory data in " + dir + ": expected " + data);
        }
        String text = opened(data, readUtf8(data), keyHex);
        List<ToonFormat.Entry> entries = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        ToonFormat.Parsed main = ToonFormat.parse(text);
        entries.addAll(main.entries());
        main.malformed().forEach(m -> problems.add("data.toon " + m));
        Path archive = memory.resolve("archive.toon");
        if (Files.isRegularFile(archive)) {
            // data.toon is the live state: an archived entry never replaces a live one of the same key, and
            // archive.toon lists newest first, so within it the first of a key is kept
            Set<String> seen = new java.util.HashSet<>();
            for (ToonFormat.Entry e : main.entries()) seen.add(e.get("key").strip());
            ToonFormat.Parsed archived = ToonFormat.parse(opened(archive, readUtf8(archive), keyHex));
            for (ToonFormat.Entry e : archived.entries()) {
                String key = e.get("key").strip();
                if (!seen.add(key)) {
                    problems.add("archive.toon entry '" + shortKey(key) + "' (" + e.get("id") + ") dropped: "
                            + (main.entries().stream().anyMatch(x -> x.get("key").strip().equals(key)) ? "data.toon has that key"
                            : "a newer archived entry has that key"));
                    continue;
                }
                entries.add(new ToonFormat.Entry(e.fields(), true));
            }
            archived.malformed().forEach(m -> problems.add("archive.toon " + m));
        }
        List<ExportRecord> records = records(entries, zone, now, problems);
        return new Loaded(records, main.summaries(), problems, evidence(entries, records));
    }

    /** The evidence level each record's entry carried (the entry its key was read from: the last of that key). */
    private static Map<String, String> evidence(List<ToonFormat.Entry> entries, List<ExportRecord> records) {
        Map<String, ToonFormat.Entry> byKey = new HashMap<>();
        List<String> keys = engramKeys(entries);
        for (int i = 0; i < entries.size(); i++) byKey.put(keys.get(i), entries.get(i));
        Map<String, String> out = new LinkedHashMap<>();
        for (ExportRecord r : records) {
            ToonFormat.Entry e = byKey.get(r.memory().key());
            String level = e == null ? "" : e.get("evidence").strip().toLowerCase(Locale.ROOT);
            if (ToonEvidence.LEVELS.contains(level)) out.put(r.memory().id(), level);
        }
        return out;
    }

    /** The file as UTF-8 text; any other encoding is the user's to fix, named with the first bad byte. */
    public static String readUtf8(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length + 1);
        java.nio.charset.CoderResult r = decoder.decode(in, out, true);
        if (r.isError()) {
            throw new EngramUserException(file + " is not UTF-8 (byte " + in.position() + "); save it as UTF-8 and try again");
        }
        decoder.flush(out);
        return out.flip().toString();
    }

    /**
     * {@code text} of {@code file} in the clear: as it is, or opened with toon's key when toon encrypted it
     * (toon's {@code iv:tag:ciphertext}). Without the key, or with another one, nothing is read: the message
     * says which variable to set. The key is never shown.
     */
    static String opened(Path file, String text, String keyHex) {
        if (!looksEncrypted(text)) return text;
        if (keyHex == null) {
            throw new EngramUserException(file + " is encrypted (toon's memory_encrypt): set " + dev.engram.crypto.UserKey.ENV_HINT
                    + " to its key (the 64 hex characters toon-memory uses) and try again; nothing was imported");
        }
        byte[] key = dev.engram.crypto.UserKey.parse(keyHex, "the toon-memory key").bytes();
        try {
            return dev.engram.crypto.AesGcm.openToon(text.strip(), key);
        } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
            throw new EngramUserException(file + " is encrypted with another key than the one in "
                    + dev.engram.crypto.UserKey.ENV_HINT + "; set the key toon-memory encrypted it with; nothing was imported");
        }
    }

    static boolean looksEncrypted(String text) {
        String t = text.strip();
        // an empty text sealed has no ciphertext (earlier versions sealed an empty data.toon so): still sealed
        return t.matches("[0-9a-fA-F]+:[0-9a-fA-F]+:[0-9a-fA-F]*");
    }

    /** Entries to records; a later entry with the same key is the newer state of that key, as toon merges. */
    static List<ExportRecord> records(List<ToonFormat.Entry> entries, String zone, Instant now, List<String> problems) {
        Map<String, Memory> byKey = new LinkedHashMap<>();
        Map<String, ToonFormat.Entry> sourceOf = new HashMap<>();
        Set<String> ids = new java.util.HashSet<>();
        List<String> keys = engramKeys(entries);
        for (int i = 0; i < entries.size(); i++) {
            ToonFormat.Entry e = entries.get(i);
            Memory m = memory(e, keys.get(i), zone, now, ids);
            if (!m.key().equals(e.get("key").strip())) {
                problems.add("key '" + shortKey(e.get("key").strip()) + "' is '" + m.key() + "' in Engram (lowercase ASCII letters,"
                        + " digits, '-', '_' and '.'; toon's tools find it by either)");
            }
            Memory previous = byKey.get(m.key());
            if (previous != null) {
                problems.add("key '" + m.key() + "' appears twice; the later entry (" + m.id() + ") is kept and "
                        + previous.id() + " dropped, as toon-memory merges by key");
                ids.remove(previous.id());
            }
            ids.add(m.id());
            byKey.put(m.key(), m);
            sourceOf.put(m.key(), e);
        }
        Map<String, String> idOf = new HashMap<>();
        for (Memory m : byKey.values()) {
            idOf.put(sourceOf.get(m.key()).get("key").strip(), m.id()); // a link names toon's key as written
            idOf.put(m.key(), m.id());
            idOf.put(m.id(), m.id());
        }
        Map<String, List<Edge>> edges = new LinkedHashMap<>();
        Map<String, String> supersededBy = new HashMap<>();
        for (Memory m : byKey.values()) {
            for (String link : splitList(sourceOf.get(m.key()).get("links"), "[;\\s]+")) {
                int colon = link.indexOf(':');
                String type = colon > 0 ? link.substring(0, colon) : "related";
                String target = colon > 0 ? link.substring(colon + 1) : link;
                String targetId = idOf.get(target);
                if (targetId == null) targetId = idOf.get(slug(target));
                if (targetId == null || targetId.equals(m.id())) {
                    problems.add(m.key() + ": link '" + link + "' names no entry of the file; dropped");
                    continue;
                }
                String from = m.id(), to = targetId;
                EdgeType edgeType = EDGE_TYPES.get(type);
                String label = null;
                if (type.equals("superseded_by")) {
                    from = targetId;
                    to = m.id();
                    edgeType = EdgeType.SUPERSEDES;
                    supersededBy.put(m.id(), targetId);
                } else if (edgeType == null) {
                    edgeType = EdgeType.RELATED;
                    label = type; // toon accepts any word as a link type; the word is kept as the edge's label
                }
                Edge edge = new Edge(from, to, edgeType, label, m.createdAt());
                List<Edge> list = edges.computeIfAbsent(from, k -> new ArrayList<>());
                if (list.stream().noneMatch(x -> x.toId().equals(edge.toId()) && x.type() == edge.type())) list.add(edge);
            }
        }
        List<ExportRecord> out = new ArrayList<>();
        for (Memory m : byKey.values()) {
            Memory kept = m;
            if (kept.status() == MemoryStatus.SUPERSEDED && supersededBy.containsKey(kept.id())) {
                kept = kept.toBuilder().supersededBy(supersededBy.get(kept.id())).build();
            }
            out.add(new ExportRecord(kept, edges.getOrDefault(kept.id(), List.of()), List.of()));
        }
        return out;
    }

    /** The entry as a memory under {@code key}, its Engram key ({@link #engramKeys}). */
    static Memory memory(ToonFormat.Entry e, String key, String zone, Instant now, Set<String> taken) {
        String id = e.get("id").strip();
        if (id.isEmpty() || taken.contains(id)) id = newId(taken);
        MemoryType type;
        try {
            type = TypeAliases.TOON_MEMORY.parse("category", e.get("category").strip().toLowerCase(Locale.ROOT));
        } catch (RuntimeException ex) {
            type = MemoryType.FACT;
        }
        Instant created = instant(e.get("date"), now);
        List<String> tags = splitList(e.get("tags"), "[;,]+").stream().map(t -> t.toLowerCase(Locale.ROOT)).distinct().toList();
        Instant supersededOn = instant(e.get("supersededOn"), null);
        String status = e.get("status").strip();
        MemoryStatus st = switch (status) {
            case "draft" -> MemoryStatus.DRAFT;
            case "obsolete" -> supersededOn != null || tags.contains("superseded") ? MemoryStatus.SUPERSEDED : MemoryStatus.ARCHIVED;
            case "resolved" -> MemoryStatus.ARCHIVED;
            default -> MemoryStatus.ACTIVE;
        };
        if (e.archived() && st == MemoryStatus.ACTIVE) st = MemoryStatus.ARCHIVED;
        Importance importance = null;
        try {
            if (!e.get("importance").isBlank()) importance = Importance.parse("importance", e.get("importance").strip());
        } catch (RuntimeException ex) {
            importance = null;
        }
        Origin origin;
        try {
            origin = e.get("origin").isBlank() ? Origin.AGENT : Origin.parse("origin", e.get("origin").strip());
        } catch (RuntimeException ex) {
            origin = Origin.AGENT;
        }
        String content = e.get("content").isBlank() ? e.get("key") : e.get("content");
        return Memory.builder().id(id).key(key).zone(zone).type(type).content(content).tags(tags)
                .file(blankToNull(e.get("file"))).pathScope(blankToNull(e.get("path_scope")))
                .importance(importance).quality(number(e.get("quality"), 0.5)).confidence(number(e.get("confidence"), 1.0))
                .status(st).createdAt(created).updatedAt(created).occurredAt(null)
                .expiresAt(instant(e.get("ttl"), null)).accessCount(Math.max(0, (long) number(e.get("accessed"), 0, Long.MAX_VALUE)))
                .lastAccessedAt(instant(e.get("lastAccessed"), null))
                .pinPriority((int) number(e.get("priority"), 0, 5)).origin(origin)
                .supersededAt(st == MemoryStatus.SUPERSEDED ? (supersededOn != null ? supersededOn : created) : null)
                .build();
    }

    private static String newId(Set<String> taken) {
        String id;
        do {
            id = String.format("%08x", ThreadLocalRandom.current().nextInt());
        } while (taken.contains(id));
        return id;
    }

    /**
     * A toon key as an Engram key: toon asks for kebab-case but never enforced it. Accents go ('über' is 'uber'); a
     * key with no letter or digit of ASCII left (Chinese, Japanese) becomes {@code entry-} and six hex characters of
     * its own text, so two such keys stay two entries.
     */
    static String slug(String key) {
        if (MemoryRules.isKey(key.strip()) && !MemoryRules.isId(key.strip())) return key.strip();
        String plain = dev.engram.analysis.Words.withoutAccents(key.strip());
        String s = plain.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[^a-z0-9]+", "");
        if (s.length() > 80) s = s.substring(0, 80);
        s = s.replaceAll("-+$", ""); // 'Bad Key!' is bad-key
        if (s.isEmpty()) {
            s = key.isBlank() ? "entry" : "entry-" + Snapshot.digest(key.strip()).substring(0, 6);
        }
        if (MemoryRules.isId(s)) s = s.replace('_', '-');
        return s;
    }

    static String shortKey(String key) {
        return key.length() <= 60 ? key : key.substring(0, 60) + "…";
    }

    /** What a toon tool's key or id argument names in Engram: itself when Engram could hold it, else its {@link #slug}. */
    static String engramRef(String ref) {
        String r = ref.strip();
        return MemoryRules.isKey(r) || MemoryRules.isId(r) || r.isEmpty() ? r : slug(r);
    }

    /**
     * Each entry's key in Engram, in order. toon keys are any text, so two may fold to one slug ('Cache' and 'cache');
     * the key Engram could hold as it is keeps the slug, the other gets it with -2, -3…, so no entry is lost. The
     * same key twice is toon's merge (the later line is the newer state of that key) and keeps one key.
     */
    static List<String> engramKeys(List<ToonFormat.Entry> entries) {
        Map<String, String> keyOfRaw = new HashMap<>();
        Set<String> taken = new java.util.HashSet<>();
        for (ToonFormat.Entry e : entries) {
            String raw = e.get("key").strip();
            if (!keyOfRaw.containsKey(raw) && slug(raw).equals(raw)) {
                keyOfRaw.put(raw, raw);
                taken.add(raw);
            }
        }
        List<String> out = new ArrayList<>(entries.size());
        for (ToonFormat.Entry e : entries) {
            String raw = e.get("key").strip();
            String k = keyOfRaw.get(raw);
            if (k == null) {
                String base = slug(raw);
                k = base;
                for (int n = 2; taken.contains(k); n++) {
                    String suffix = "-" + n;
                    k = base.substring(0, Math.min(base.length(), 80 - suffix.length())) + suffix;
                }
                keyOfRaw.put(raw, k);
                taken.add(k);
            }
            out.add(k);
        }
        return out;
    }

    static List<String> splitList(String s, String separators) {
        if (s == null || s.isBlank()) return List.of();
        return Arrays.stream(s.strip().split(separators)).map(String::strip).filter(x -> !x.isEmpty()).toList();
    }

    private static double number(String s, double fallback) {
        return number(s, fallback, 0, 1);
    }

    private static double number(String s, double min, double max) {
        return number(s, min, min, max);
    }

    private static double number(String s, double fallback, double min, double max) {
        try {
            double v = Double.parseDouble(s.strip());
            return Double.isNaN(v) ? fallback : Math.max(min, Math.min(max, v));
        } catch (NumberFormatException ex) {
            return fallback;
        }
    }

    static Instant instant(String s, Instant fallback) {
        if (s == null || s.isBlank()) return fallback;
        String v = s.strip();
        try {
            return v.length() == 10 ? LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant() : Instant.parse(v);
        } catch (DateTimeParseException ex) {
            return fallback;
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /**
     * Imports the folder's records into the engine (the safe policy: newer stored memories are kept), with
     * the evidence levels the imported entries carried.
     */
    public static ImportResult importInto(Engine engine, Loaded loaded, boolean dryRun) {
        ImportResult result = engine.importAll(new ImportCommand(loaded.records(), ImportPolicy.KEEP_NEWER, dryRun));
        if (!dryRun && !loaded.records().isEmpty()) {
            Map<String, String> levels = new LinkedHashMap<>();
            for (ExportRecord r : loaded.records()) {
                String level = loaded.evidence().get(r.memory().id());
                if (level != null) levels.put(r.memory().id(), level);
            }
            if (!levels.isEmpty()) ToonEvidence.put(engine, loaded.records().get(0).memory().zone(), levels);
        }
        return result;
    }

    /**
     * The engine, after importing {@code project}'s .toon-memory folder once when the zone is empty: a
     * toon-memory user switching to {@code engram mcp --profile toon} keeps their memories. Only the followed
     * data.toon is ever written, and only by {@link ToonFollower#mirroring}.
     */
    public static ToonFollower importingOnce(Supplier<Engine> engines, String zone, Path project, PrintStream log) {
        return importingOnce(engines, zone, List.of(project), log);
    }

    /**
     * As above over candidate folders in order (toon keeps .toon-memory at its working directory, so that
     * comes before the git root): the first holding data.toon is imported; every other .toon-memory folder
     * found gets a line saying it was not imported and how to import it.
     */
    public static ToonFollower importingOnce(Supplier<Engine> engines, String zone, List<Path> candidates, PrintStream log) {
        List<Path> dirs = candidates.stream().map(p -> p.toAbsolutePath().normalize()).distinct().toList();
        return new ToonFollower(engines, zone, dirs, log);
    }

    /** Size and modification time of a file, cheap to compare at every call ("" when it is gone). */
    static String stamp(Path file) {
        try {
            var a = Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class);
            return a.size() + "@" + a.lastModifiedTime().toInstant();
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * data.toon at one moment, as much as telling an edit needs: each entry (by key) and file summary as a digest.
     * An entry's digest leaves out what moves on a mere read or is recomputed (toon counts reads in the file, and
     * rewrites a day's date), so only an edit by toon or a person shows as a change. {@code at} is when the file was
     * seen so: a memory the store changed after it was changed by Engram, and keeps its own state.
     */
    record Snapshot(Map<String, String> entries, Map<String, String> summaries, Instant at) {
        private static final Set<String> NOT_AN_EDIT = Set.of("accessed", "lastAccessed", "quality", "date");
        private static final String HEADER = "toon-base 1 ";

        static Snapshot of(Path data, Instant at) {
            try {
                return ofText(readUtf8(data), at);
            } catch (IOException | RuntimeException e) {
                return new Snapshot(Map.of(), Map.of(), at);
            }
        }

        /** As {@link #of(Path, Instant)} for text known to be the file's. */
        static Snapshot ofText(String text, Instant at) {
            try {
                ToonFormat.Parsed p = ToonFormat.parse(text);
                return ofEntries(p.entries(), p.summaries(), at);
            } catch (RuntimeException e) {
                return new Snapshot(Map.of(), Map.of(), at);
            }
        }

        static Snapshot ofEntries(List<ToonFormat.Entry> entries, Map<String, String> summaries, Instant at) {
            Map<String, String> byKey = new HashMap<>();
            List<String> keys = engramKeys(entries);
            for (int i = 0; i < entries.size(); i++) {
                ToonFormat.Entry e = entries.get(i);
                StringBuilder b = new StringBuilder();
                for (String f : ToonFormat.FIELDS) if (!NOT_AN_EDIT.contains(f)) b.append(e.get(f)).append('\u0000');
                byKey.put(keys.get(i), digest(b.toString()));
            }
            Map<String, String> files = new HashMap<>();
            summaries.forEach((f, v) -> files.put(f, digest(v)));
            return new Snapshot(byKey, files, at);
        }

        static String digest(String s) {
            return dev.engram.crypto.Sha256.hex(s, 12);
        }

        /** One line per entry and summary, for a store mark: what Engram last knew of the file survives a restart. */
        String encode() {
            StringBuilder b = new StringBuilder(HEADER).append(at).append('\n');
            entries.forEach((k, d) -> b.append("e ").append(d).append(' ').append(k).append('\n'));
            summaries.forEach((f, d) -> {
                if (f.indexOf('\n') < 0) b.append("s ").append(d).append(' ').append(f).append('\n');
            });
            return b.toString();
        }

        static Optional<Snapshot> decode(String text) {
            if (text == null || !text.startsWith(HEADER)) return Optional.empty();
            try {
                String[] lines = text.split("\n");
                Instant at = Instant.parse(lines[0].substring(HEADER.length()).strip());
                Map<String, String> entries = new HashMap<>();
                Map<String, String> summaries = new HashMap<>();
                for (int i = 1; i < lines.length; i++) {
                    String[] parts = lines[i].split(" ", 3);
                    if (parts.length < 3) continue;
                    (parts[0].equals("e") ? entries : summaries).put(parts[2], parts[1]);
                }
                return Optional.of(new Snapshot(entries, summaries, at));
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }
    }

    /**
     * data.toon changed since Engram last saw it (toon still writes it, a person edited it, or toon ran while Engram
     * was stopped): the entries that are new or changed since {@code before} are imported, with new or changed file
     * summaries. A changed entry whose memory the store has not changed since {@code before} was seen takes the
     * file's state (toon's dates are days, so the timestamps alone cannot tell a same-day edit); one both sides
     * changed keeps the newer state, the other kept as a version. Entries the file did not change are not imported
     * again, so what was deleted in Engram stays deleted. With {@code checkStore}, an entry already as the store
     * holds it is skipped too (a base saved before Engram's own last write, after a crash). Returns the new snapshot.
     */
    static Snapshot follow(Engine engine, String zone, Path data, Snapshot before, PrintStream log, boolean checkStore) {
        Snapshot now = Snapshot.of(data, Instant.now());
        try {
            if (!Files.isRegularFile(data)) return now;
            // sealed (memory_encrypt): what was known of it stays known, so when it is opened again its stale entries,
            // which the store may have changed or deleted meanwhile, are not taken for toon's new ones
            if (looksEncrypted(readUtf8(data))) return before == null ? now : before;
            Set<String> changed = new java.util.HashSet<>();
            now.entries().forEach((k, d) -> {
                if (before == null || !d.equals(before.entries().get(k))) changed.add(k);
            });
            Set<String> changedFiles = new java.util.HashSet<>();
            now.summaries().forEach((f, d) -> {
                if (before == null || !d.equals(before.summaries().get(f))) changedFiles.add(f);
            });
            if (checkStore && !changed.isEmpty()) {
                Snapshot store = exported(engine, zone).snapshot(now.at());
                changed.removeIf(k -> now.entries().get(k).equals(store.entries().get(k)));
                changedFiles.removeIf(f -> now.summaries().get(f).equals(store.summaries().get(f)));
            }
            if (changed.isEmpty() && changedFiles.isEmpty()) return now;
            Path project = data.getParent().getParent().getParent();
            Loaded loaded = read(project, zone, now.at());
            List<ExportRecord> records = loaded.records().stream().filter(r -> changed.contains(r.memory().key()))
                    .map(r -> before == null ? r : editedSince(engine, zone, r, before.at(), now.at())).toList();
            Map<String, String> summaries = new LinkedHashMap<>();
            loaded.summaries().forEach((f, v) -> {
                if (changedFiles.contains(f)) summaries.put(f, v);
            });
            ImportResult result = importInto(engine, new Loaded(records, summaries, List.of(), loaded.evidence()), false);
            importSummaries(engine, zone, new Loaded(List.of(), summaries, List.of()));
            log.println("engram: " + data + " changed; imported its " + records.size() + " new or changed entries ("
                    + result.versionsAdded() + " changes; memories changed in Engram since keep their newer state)"
                    + (summaries.isEmpty() ? "" : " and " + summaries.size() + " file summaries"));
        } catch (IOException | RuntimeException e) {
            log.println("engram: " + data + " changed but could not be imported: " + e.getMessage()
                    + "; nothing was imported (fix it, then run: engram import --from toon " + data.getParent() + ")");
        }
        return now;
    }

    /**
     * The file's entry, dated when its edit was seen when the store's memory has not changed since {@code base}: toon
     * writes days, and a same-day edit would otherwise tie with (or lose to) the store's older state of that day.
     */
    private static ExportRecord editedSince(Engine engine, String zone, ExportRecord r, Instant base, Instant seen) {
        Optional<ExportRecord> stored;
        try {
            stored = engine.record(zone, r.memory().id());
        } catch (RuntimeException e) {
            return r;
        }
        if (stored.isEmpty() || stored.get().memory().updatedAt().isAfter(base)) return r;
        Memory m = r.memory().toBuilder().createdAt(stored.get().memory().createdAt()).updatedAt(seen).build();
        return new ExportRecord(m, r.edges(), r.versions());
    }

    /** data.toon's {@code summaries:} block into the zone's file summaries (memory_summary); the file's wins. */
    public static void importSummaries(Engine engine, String zone, Loaded loaded) {
        if (loaded.summaries().isEmpty()) return;
        String name = FolderTools.summariesMark(zone);
        Map<String, String> all = FolderTools.summaries(engine, zone);
        all.putAll(loaded.summaries());
        engine.setMark(name, FolderTools.encode(all));
    }

    static void importAtStart(Engine engine, String zone, Path project, PrintStream log) {
        importAtStart(engine, zone, List.of(project), log);
    }

    /** Imports the first folder holding data.toon; returns that data.toon when Engram follows it (imported now or before). */
    static Path importAtStart(Engine engine, String zone, List<Path> candidates, PrintStream log) {
        ensureZone(engine, zone, candidates);
        boolean handled = false;
        Path followed = null;
        for (Path project : candidates) {
            Path folder = project.resolve(FOLDER);
            if (!Files.isDirectory(folder)) continue;
            Path data = folder.resolve("memory").resolve("data.toon");
            if (handled) {
                notImported(log, folder, "another .toon-memory folder was used", project);
                continue;
            }
            if (!Files.isRegularFile(data)) {
                notImported(log, folder, "it has no memory/data.toon", project);
                continue;
            }
            handled = true;
            if (importOne(engine, zone, project, data, log)) followed = data;
        }
        return followed;
    }

    /**
     * The project's own zone of a shared store exists from the first start (with a description naming the project), so a
     * recall before the first remember finds it empty instead of unknown.
     */
    private static void ensureZone(Engine engine, String zone, List<Path> candidates) {
        if (engine.zoneAdmin().exists(zone)) return;
        String where = candidates.isEmpty() ? "this project" : candidates.get(candidates.size() - 1).toString();
        try {
            engine.zoneAdmin().create(zone, "toon profile: the memory of " + (where.length() > 180 ? "…" + where.substring(where.length() - 180) : where), null);
        } catch (dev.engram.error.ConflictException e) {
            // another process of this project created it meanwhile
        }
    }

    private static void notImported(PrintStream log, Path folder, String why, Path project) {
        log.println("engram: " + folder + " was not imported (" + why + "); to import it: engram import --from toon " + project);
    }

    /** The start-import mark's value for a data.toon merged into a zone that already held memories (not followed). */
    private static final String MERGED = "merged ";

    /** Whether Engram follows this data.toon: imported now, or at an earlier start. */
    private static boolean importOne(Engine engine, String zone, Path project, Path data, PrintStream log) {
        // once per zone and folder: deleting what it brought must not bring it back at the next start
        String mark = "toon-import/" + zone + "/" + data.toAbsolutePath().normalize();
        Optional<String> done = engine.mark(mark);
        // a file merged into a zone other projects share is not followed: mirroring would write their memories into it
        if (done.isPresent()) return !done.get().startsWith(MERGED);
        // any memory of the zone, whatever its status, means Engram is used there already: a store several projects
        // share (ENGRAM_HOME), or this project's own memories written before its data.toon. This project's entries are
        // then merged by key as memory_import_global merges (an id already taken gets a new one, the zone's own entry
        // stays unless this one is newer), so neither side's memories are replaced wholesale
        boolean inUse = engine.zones().contains(zone) && engine.stats(zone).total() > 0;
        try {
            Loaded loaded = read(project, zone, Instant.now());
            if (inUse) {
                GlobalTools.Merged merged = GlobalTools.merge(engine, zone, loaded, "data.toon");
                importSummaries(engine, zone, loaded);
                log.println("engram: merged the toon-memory entries of " + data.getParent() + " into zone '" + zone
                        + "', which already held memories:" + merged.summary().replace("\n", " ") + "; " + data
                        + " is not written back (the zone holds more than this project's memories)");
                engine.setMark(mark, MERGED + Instant.now());
                return false;
            }
            loaded = withFreeIds(engine, loaded);
            ImportResult result = importInto(engine, loaded, false);
            importSummaries(engine, zone, loaded);
            log.println("engram: imported " + loaded.records().size() + " toon-memory entries from " + data.getParent()
                    + " into zone '" + zone + "' (" + result.edgesAdded() + " links" + (loaded.problems().isEmpty() ? ""
                    : "; " + loaded.problems().size() + " notes: " + String.join("; ", loaded.problems())) + ")"
                    + "; Engram's store is used from now on (what toon changes in data.toon while this server runs comes in too)");
            engine.setMark(mark, Instant.now().toString());
            return true;
        } catch (IOException | RuntimeException e) {
            log.println("engram: could not " + (inUse ? "merge " + data + " into zone '" + zone + "'" : "import " + data) + ": "
                    + e.getMessage() + "; nothing was imported (fix it, then run: engram import --from toon " + project + ")");
            return false;
        }
    }

    /**
     * {@code loaded} with every id another zone of the store already uses replaced by a new one (its edges, versions
     * and evidence following it): ids are the store's, and projects that share a store (one zone each) may have
     * toon files whose ids meet. An import never takes another zone's memory (ImportPlan refuses it); a renamed entry
     * is said among the notes.
     */
    static Loaded withFreeIds(Engine engine, Loaded loaded) {
        Set<String> taken = storeIds(engine, null, null);
        Set<String> used = new java.util.HashSet<>(taken);
        loaded.records().forEach(r -> used.add(r.memory().id()));
        Map<String, String> renamed = new LinkedHashMap<>();
        for (ExportRecord r : loaded.records()) {
            if (taken.contains(r.memory().id())) renamed.put(r.memory().id(), freshId(used));
        }
        if (renamed.isEmpty()) return loaded;
        List<ExportRecord> records = new ArrayList<>();
        for (ExportRecord r : loaded.records()) {
            Memory m = r.memory();
            String id = renamed.getOrDefault(m.id(), m.id());
            List<Edge> edges = r.edges().stream().map(e -> new Edge(renamed.getOrDefault(e.fromId(), e.fromId()),
                    renamed.getOrDefault(e.toId(), e.toId()), e.type(), e.label(), e.createdAt())).toList();
            List<dev.engram.memory.MemoryVersion> versions = r.versions().stream().map(v -> new dev.engram.memory.MemoryVersion(id,
                    v.version(), v.content(), v.tags(), v.importance(), v.replacedAt())).toList();
            records.add(new ExportRecord(m.toBuilder().id(id).build(), edges, versions, r.notes(), r.tagWords()));
        }
        Map<String, String> evidence = new LinkedHashMap<>();
        loaded.evidence().forEach((id, level) -> evidence.put(renamed.getOrDefault(id, id), level));
        List<String> problems = new ArrayList<>(loaded.problems());
        problems.add(renamed.size() + " entr" + (renamed.size() == 1 ? "y" : "ies") + " got a new id, as another zone of this"
                + " store uses theirs: " + renamed.entrySet().stream().limit(10).map(e -> e.getKey() + " → " + e.getValue())
                .collect(java.util.stream.Collectors.joining(", ")) + (renamed.size() > 10 ? " …" : ""));
        return new Loaded(records, loaded.summaries(), problems, evidence);
    }

    /**
     * Every id the store uses, in any zone (ids are the store's, not a zone's), read in one pass; the memories of
     * {@code zone} go to {@code ofZone} on the way (both may be null).
     */
    static Set<String> storeIds(Engine engine, String zone, java.util.function.Consumer<Memory> ofZone) {
        Set<String> ids = new java.util.HashSet<>();
        for (String z : engine.zones()) {
            boolean wanted = ofZone != null && z.equals(zone);
            engine.records(z, r -> {
                ids.add(r.memory().id());
                if (wanted) ofZone.accept(r.memory());
            });
        }
        return ids;
    }

    /** A new id in toon's shape (8 hex digits) that {@code used} does not hold; added to it. */
    static String freshId(Set<String> used) {
        String id;
        do {
            id = String.format("%08x", java.util.concurrent.ThreadLocalRandom.current().nextInt());
        } while (!used.add(id));
        return id;
    }

    /** The zone as toon's data.toon with its own file summaries (memory_summary's). */
    public static String export(Engine engine, String zone) {
        return export(engine, zone, FolderTools.summaries(engine, zone));
    }

    /**
     * The zone as toon's data.toon (every status; archived ones as obsolete) with the given file summaries,
     * newest entry first as toon writes them (it puts each new entry at the top).
     */
    public static String export(Engine engine, String zone, Map<String, String> summaries) {
        return exported(engine, zone, summaries).text();
    }

    /** data.toon's text as {@link #export} writes it, with what the follower remembers of it. */
    record Exported(String text, List<ToonFormat.Entry> entries, Map<String, String> summaries) {
        /** What the follower keeps of it, digested only when first needed (a digest of 5,000 entries costs milliseconds). */
        Snapshot snapshot(Instant at) {
            return Snapshot.ofEntries(entries, summaries, at);
        }
    }

    static Exported exported(Engine engine, String zone) {
        return exported(engine, zone, FolderTools.summaries(engine, zone));
    }

    private static Exported exported(Engine engine, String zone, Map<String, String> summaries) {
        List<ExportRecord> records = new ArrayList<>();
        engine.exportCurrent(zone, records::add); // toon's format keeps no past versions
        records.sort(java.util.Comparator.comparing((ExportRecord r) -> r.memory().createdAt()).reversed());
        Map<String, String> evidence = ToonEvidence.read(engine, zone);
        Map<String, String> keyOf = new HashMap<>();
        for (ExportRecord r : records) keyOf.put(r.memory().id(), r.memory().key());
        List<ToonFormat.Entry> entries = new ArrayList<>();
        for (ExportRecord r : records) {
            Memory m = r.memory();
            Set<String> links = new LinkedHashSet<>();
            for (Edge e : r.edges()) {
                String target = keyOf.get(e.toId());
                if (target != null && ToonLinks.toons(e)) links.add(ToonLinks.word(e, target));
            }
            if (m.supersededBy() != null && keyOf.containsKey(m.supersededBy())) links.add("superseded_by:" + keyOf.get(m.supersededBy()));
            Map<String, String> f = new LinkedHashMap<>();
            f.put("id", m.id());
            f.put("category", ToonText.category(m.type()));
            f.put("key", m.key());
            f.put("content", m.content());
            f.put("file", m.file() == null ? "" : m.file());
            f.put("tags", String.join(";", m.tags()));
            f.put("date", ToonText.date(m.updatedAt()));
            f.put("ttl", m.expiresAt() == null ? "" : ttlDay(m.expiresAt()));
            f.put("accessed", Long.toString(m.accessCount()));
            f.put("links", String.join(" ", links));
            f.put("quality", String.format(Locale.ROOT, "%.2f", m.quality()));
            f.put("confidence", String.format(Locale.ROOT, "%.2f", m.confidence()));
            f.put("lastAccessed", m.lastAccessedAt() == null ? "" : m.lastAccessedAt().toString());
            f.put("priority", Integer.toString(m.pinPriority()));
            f.put("path_scope", m.pathScope() == null ? "" : m.pathScope());
            f.put("origin", m.origin().name().toLowerCase(Locale.ROOT));
            f.put("status", switch (m.status()) {
                case ACTIVE -> "active";
                case DRAFT -> "draft";
                default -> "obsolete";
            });
            f.put("supersededOn", m.supersededAt() == null ? "" : ToonText.date(m.supersededAt()));
            f.put("importance", m.importance() == null ? "" : m.importance().name().toLowerCase(Locale.ROOT));
            f.put("evidence", evidence.getOrDefault(m.id(), ""));
            entries.add(new ToonFormat.Entry(f, false));
        }
        return new Exported(ToonFormat.write("entries", entries, summaries), entries, summaries);
    }

    /**
     * toon keeps a TTL as a day, read back as that day's start (UTC): an expiry within a day is written as the next
     * day, so a round trip keeps a memory up to a day longer, never a moment shorter (a 90-minute TTL came back
     * already expired).
     */
    static String ttlDay(Instant expiresAt) {
        LocalDate day = expiresAt.atZone(ZoneOffset.UTC).toLocalDate();
        return (expiresAt.equals(day.atStartOfDay(ZoneOffset.UTC).toInstant()) ? day : day.plusDays(1)).toString();
    }
}
