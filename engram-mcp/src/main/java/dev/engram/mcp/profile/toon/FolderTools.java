package dev.engram.mcp.profile.toon;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportPolicy;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.mcp.profile.toon.ToonCapture.Observation;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * toon's tools over its memory folder and side data: the capture log (memory_captured,
 * memory_promote, memory_merge_sessions), the secrets vault (memory_secret) and file summaries
 * (memory_summary). Promoted observations become Engram memories (drafts below minConfidence, hidden
 * from recall); the log and the vault stay toon's files.
 */
final class FolderTools {
    private static final String SUMMARIES_MARK = "toon-summaries/";
    private final ToonContext c;
    private final ReportTools reports;

    FolderTools(ToonContext c, ReportTools reports) {
        this.c = c;
        this.reports = reports;
    }

    // ── capture log ────────────────────────────────────────────────────────

    ToonTool captured() {
        var schema = JsonSchema.input()
                .integer("limit", "How many (default 20)", 1, 500, 20).string("tool", "Only this tool", "edit")
                .string("file", "Only this file", "src/a.ts").bool("clear", "Empty the log");
        return new ToonTool(ToonTool.define("memory_captured", "The activity log captured by the hooks (engram hook capture, "
                + "opt-in); promote what matters with memory_promote or memory_remember.", schema,
                ToonTool.hints(false, false, false)), args -> {
            int limit = args.intOr("limit", 20, 1, 500);
            String tool = lower(args.textOr("tool"));
            String file = lower(args.textOr("file"));
            if (args.bool("clear")) {
                try {
                    ToonCapture.clear(c.memoryDir());
                } catch (IOException e) {
                    throw new EngramUserException("could not clear " + ToonCapture.file(c.memoryDir()) + ": " + e.getMessage());
                }
                return "🧹 Capture log cleared";
            }
            List<Observation> obs = newestFirst(ToonCapture.read(c.memoryDir())).stream()
                    .filter(o -> tool.isEmpty() || o.tool().toLowerCase(Locale.ROOT).contains(tool))
                    .filter(o -> file.isEmpty() || o.file().toLowerCase(Locale.ROOT).contains(file))
                    .limit(limit).toList();
            if (obs.isEmpty()) {
                return "No captured activity. Capture is off by default; turn it on with ENGRAM_CAPTURE=1 (or TOON_MEMORY_CAPTURE=1)"
                        + " and a PostToolUse hook running `engram hook capture`.";
            }
            StringBuilder b = new StringBuilder("🔍 Captured activity (").append(obs.size()).append("):\n");
            for (Observation o : obs) {
                b.append("\n[").append(o.ts()).append("] ").append(o.agent()).append('@').append(o.branch()).append('/').append(o.tool())
                        .append(o.file().isEmpty() ? "" : " (" + o.file() + ")").append("\n  ").append(o.summary()).append('\n');
            }
            return b.toString().stripTrailing();
        });
    }

    ToonTool promote() {
        var schema = JsonSchema.input()
                .bool("dryRun", "Preview only (default true)")
                .property("minConfidence", ToonTool.number("At or below this confidence entries become drafts (default 0.65)", 0.65))
                .integer("max", "At most this many (default 5)", 1, 100, 5).integer("days", "Look back this many days (default 7)", 1, 365, 7);
        return new ToonTool(ToonTool.define("memory_promote", "Promote captured activity to entries, no LLM: each observation gets a "
                + "deterministic confidence; above minConfidence it becomes an active entry, else a draft hidden from recall. "
                + "Run with dryRun first.", schema, ToonTool.hints(false, false, false)), args -> {
            Boolean dry = args.boolOr("dryRun");
            boolean dryRun = dry == null || dry;
            Double minArg = args.numberOr("minConfidence", 0, 1);
            double min = minArg == null ? 0.65 : minArg;
            int max = args.intOr("max", 5, 1, 100);
            int days = args.intOr("days", 7, 1, 365);
            List<Observation> obs = ToonCapture.read(c.memoryDir());
            if (obs.isEmpty()) return "No captured activity. Turn capture on (ENGRAM_CAPTURE=1 and `engram hook capture`) first.";
            Instant cutoff = c.now().minus(java.time.Duration.ofDays(days));
            List<Memory> existing = c.all();
            List<Set<String>> known = existing.stream()
                    .map(m -> ToonCapture.words(m.key() + " " + m.content() + " " + String.join(" ", m.tags()))).toList();
            Set<String> seen = new HashSet<>();
            List<Observation> candidates = obs.stream()
                    .filter(o -> o.instant() != null && !o.instant().isBefore(cutoff))
                    .filter(o -> seen.add(o.tool() + "|" + o.summary()))
                    .filter(o -> !o.summary().isBlank() && !alreadyKnown(o, known))
                    .sorted(Comparator.comparingDouble(ToonCapture::confidence).reversed())
                    .limit(max).toList();
            if (candidates.isEmpty()) {
                return "✅ Nothing new to promote — all recent observations are already covered by memory or below threshold.";
            }
            Function<Observation, String> kind = o -> ToonCapture.confidence(o) <= min ? "draft" : "active";
            if (dryRun) {
                StringBuilder b = new StringBuilder("🔍 Dry run — ").append(candidates.size()).append(" candidate(s) from the last ")
                        .append(days).append("d (threshold ").append(fmt(min)).append("):\n");
                for (Observation o : candidates) {
                    String s = o.summary().length() > 90 ? o.summary().substring(0, 90) : o.summary();
                    b.append("\n  [").append(kind.apply(o)).append("] ").append(s).append(" (conf ")
                            .append(fmt(ToonCapture.confidence(o))).append(')').append(o.file().isEmpty() ? "" : " @ " + o.file());
                }
                return b.append("\n\nRun with dryRun: false to promote.").toString();
            }
            List<String> lines = new ArrayList<>();
            int[] counts = new int[2];
            write(candidates, o -> {
                boolean draft = kind.apply(o).equals("draft");
                List<String> tags = new ArrayList<>(List.of("captured", tag(o.agent(), "agent")));
                if (draft) tags.add("draft");
                return new Promotion(tags, ToonCapture.confidence(o), draft);
            }, (p, key) -> {
                counts[p.draft() ? 1 : 0]++;
                lines.add("  [" + (p.draft() ? "draft" : "active") + "] " + key + " (conf " + fmt(p.confidence()) + ")");
            });
            return "📤 Promoted " + counts[0] + " active + " + counts[1] + " draft from the capture log.\n\n" + String.join("\n", lines)
                    + "\n\nDrafts are hidden from recall until activated — memory_forget(key, action: 'restore') activates one;"
                    + " review them with memory_reflect.";
        });
    }

    ToonTool mergeSessions() {
        var schema = JsonSchema.input()
                .string("since", "Time span (default 24h): 24h, 7d or a date YYYY-MM-DD", "24h")
                .bool("promote", "Save the unique observations (at most 5) as entries");
        return new ToonTool(ToonTool.define("memory_merge_sessions", "What recent sessions did, from the capture log: sessions, "
                + "files two sessions touched, unique observations; promote: true saves them as entries.", schema,
                ToonTool.hints(false, false, false)), args -> {
            String since = args.textOr("since") == null || args.textOr("since").isBlank() ? "24h" : args.textOr("since").strip();
            Instant cutoff = reports.since(since);
            boolean promote = args.bool("promote");
            List<Observation> obs = ToonCapture.read(c.memoryDir()).stream()
                    .filter(o -> o.instant() != null && !o.instant().isBefore(cutoff)).toList();
            Map<String, List<Observation>> bySession = new LinkedHashMap<>();
            for (Observation o : newestFirst(obs)) bySession.computeIfAbsent(o.session().isEmpty() ? "?" : o.session(), k -> new ArrayList<>()).add(o);
            if (bySession.isEmpty()) return "No sessions found in the last " + since + " (the capture log has none).";
            StringBuilder b = new StringBuilder("🔀 Session Merge Report (").append(bySession.size()).append(" sessions, last ")
                    .append(since).append(")\n\nSessions:");
            Map<String, Set<String>> sessionsOfFile = new LinkedHashMap<>();
            for (var e : bySession.entrySet()) {
                Observation last = e.getValue().get(0);
                long mins = Math.max(0, java.time.Duration.between(last.instant(), c.now()).toMinutes());
                Set<String> files = new LinkedHashSet<>();
                for (Observation o : e.getValue()) if (!o.file().isEmpty()) files.add(o.file());
                for (String f : files) sessionsOfFile.computeIfAbsent(f, k -> new LinkedHashSet<>()).add(last.agent() + "@" + last.branch());
                b.append("\n  ").append(last.agent()).append('@').append(last.branch()).append(" (").append(e.getKey()).append(") — ")
                        .append(mins).append("min ago, ").append(files.size()).append(" files");
            }
            List<Map.Entry<String, Set<String>>> shared = sessionsOfFile.entrySet().stream().filter(e -> e.getValue().size() >= 2)
                    .sorted((x, y) -> y.getValue().size() - x.getValue().size()).toList();
            if (!shared.isEmpty()) {
                b.append("\n\nShared files (").append(shared.size()).append("):");
                shared.stream().limit(10).forEach(e -> b.append("\n  ").append(e.getKey()).append(" ↔ ").append(String.join(", ", e.getValue())));
            }
            Set<String> seen = new HashSet<>();
            List<Observation> unique = newestFirst(obs).stream().filter(o -> seen.add(o.tool() + "|" + o.summary())).toList();
            if (!unique.isEmpty()) {
                b.append("\n\nUnique observations (").append(unique.size()).append(" of ").append(obs.size()).append(" total):");
                unique.stream().limit(15).forEach(o -> b.append("\n  [").append(o.tool()).append("] ").append(o.agent()).append('@')
                        .append(o.branch()).append(": ").append(o.summary().length() > 100 ? o.summary().substring(0, 100) : o.summary()));
            }
            if (promote && !unique.isEmpty()) {
                List<Set<String>> known = c.all().stream()
                        .map(m -> ToonCapture.words(m.key() + " " + m.content() + " " + String.join(" ", m.tags()))).toList();
                List<Observation> fresh = unique.stream().filter(o -> !o.summary().isBlank() && !alreadyKnown(o, known)).limit(5).toList();
                int[] n = new int[1];
                write(fresh, o -> new Promotion(List.of("session-merge", tag(o.agent(), "agent"), tag(o.branch(), "no-branch")), 1.0, false),
                        (p, key) -> n[0]++);
                b.append("\n\n📤 Promoted ").append(n[0]).append(" observations to memory.");
            } else if (!unique.isEmpty()) {
                b.append("\n\n💡 Use 'promote: true' to save unique observations as memory entries.");
            }
            return b.toString();
        });
    }

    private record Promotion(List<String> tags, double confidence, boolean draft) {
    }

    /** Writes one knowledge entry per observation (keys already taken are skipped), in one import. */
    private void write(List<Observation> observations, Function<Observation, Promotion> how,
                       java.util.function.BiConsumer<Promotion, String> written) {
        Set<String> keys = new HashSet<>();
        c.all().forEach(m -> keys.add(m.key()));
        Instant now = c.now();
        List<ExportRecord> records = new ArrayList<>();
        Map<ExportRecord, Promotion> promotions = new LinkedHashMap<>();
        Set<String> ids = new HashSet<>();
        for (Observation o : observations) {
            String key = ToonCapture.key(o);
            key = key.isEmpty() ? "observation-" + Long.toString(now.toEpochMilli(), 36) : ToonData.slug(key);
            if (!keys.add(key)) continue;
            Promotion p = how.apply(o);
            String content = o.summary().length() > 500 ? o.summary().substring(0, 500) : o.summary();
            Map<String, String> f = new LinkedHashMap<>();
            f.put("category", "knowledge");
            f.put("key", key);
            f.put("content", content);
            f.put("file", o.file());
            f.put("tags", String.join(";", p.tags()));
            f.put("date", now.toString());
            f.put("confidence", fmt(p.confidence()));
            f.put("quality", "0.50");
            f.put("origin", "inferred");
            f.put("status", p.draft() ? "draft" : "active");
            Memory m = ToonData.memory(new ToonFormat.Entry(f, false), key, c.zone(), now, ids);
            ids.add(m.id());
            ExportRecord r = new ExportRecord(m, List.of(), List.of());
            records.add(r);
            promotions.put(r, p);
        }
        if (records.isEmpty()) return;
        c.engine().importAll(new ImportCommand(records, ImportPolicy.KEEP_NEWER, false));
        promotions.forEach((r, p) -> written.accept(p, r.memory().key()));
    }

    /** toon's test: more than half of the words (Jaccard) shared with an entry's key, content and tags. */
    private static boolean alreadyKnown(Observation o, List<Set<String>> known) {
        Set<String> words = ToonCapture.words(o.tool() + " " + o.summary());
        if (words.isEmpty()) return true;
        for (Set<String> k : known) {
            Set<String> inter = new HashSet<>(words);
            inter.retainAll(k);
            Set<String> union = new HashSet<>(words);
            union.addAll(k);
            if ((double) inter.size() / union.size() > 0.5) return true;
        }
        return false;
    }

    private static List<Observation> newestFirst(List<Observation> obs) {
        return obs.stream().sorted(Comparator.comparing((Observation o) -> o.instant() == null ? Instant.EPOCH : o.instant()).reversed())
                .toList();
    }

    private static String tag(String value, String fallback) {
        String t = value == null ? "" : value.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^-+|-+$", "");
        return t.isEmpty() ? fallback : t;
    }

    // ── secrets vault ──────────────────────────────────────────────────────

    ToonTool secret() {
        var schema = JsonSchema.input()
                .choice("action", "store (encrypt and save), get (decrypt), list (names only) or forget", List.of("store", "get", "list", "forget"))
                .string("key", "Secret name (store, get, forget)", "gh_token").string("value", "store: the secret", "…")
                .string("file", "Related file", "ci.yml").string("tags", "Tags separated by ';'", "github")
                .string("ttl", "Expiry: 7d or YYYY-MM-DD", "30d").required("action");
        return new ToonTool(ToonTool.define("memory_secret", "Encrypted vault for secrets (secrets.toon, AES-256-GCM, key from "
                + "TOON_MEMORY_KEY or ENGRAM_KEY): values never enter recall, context or export.", schema,
                ToonTool.hints(false, false, false)), args -> {
            String action = args.text("action").strip();
            ToonVault vault = c.vault();
            return switch (action) {
                case "store" -> {
                    String key = secretName(args);
                    String value = args.textOr("value");
                    if (value == null || value.isEmpty()) {
                        throw new InvalidArgumentException("value", "is required for action store: the secret to encrypt");
                    }
                    String ttl = args.textOr("ttl");
                    String ttlDate = ttl == null || ttl.isBlank() ? "" : ToonText.date(MemoryRules.ttl("ttl", ttl.strip(), c.now()));
                    ToonVault.Secret s = vault.store(key, value, args.textOr("file"), args.textOr("tags"), ToonText.date(c.now()), ttlDate);
                    yield "🔐 Stored secret \"" + key + "\" (" + s.id() + ") on " + s.date() + "\n  Value is AES-256-GCM encrypted at rest in "
                            + ToonVault.FILE + ".\n  Reference it from memory with: memory_remember(category: \"knowledge\", key: \"" + key
                            + "\", content: \"Stored in secrets vault\", file: \"" + (s.file().isEmpty() ? ToonVault.FILE : s.file())
                            + "\", tags: \"secret;vault\")";
                }
                case "get" -> {
                    String key = secretName(args);
                    var hit = vault.find(key);
                    if (hit.isEmpty()) yield "❌ No secret \"" + key + "\" in the vault. Run memory_secret(action: \"list\") to see stored keys.";
                    ToonVault.Secret s = hit.get();
                    yield "Secret: " + key + " · file: " + dash(s.file()) + " · tags: " + dash(s.tags()) + " · date: " + s.date()
                            + (s.ttl().isEmpty() ? "" : " · ttl: " + s.ttl()) + "\n\n" + vault.reveal(s);
                }
                case "list" -> {
                    List<ToonVault.Secret> all = vault.list();
                    if (all.isEmpty()) yield "🔐 Vault is empty.";
                    StringBuilder b = new StringBuilder("🔐 ").append(all.size()).append(" secret(s) in vault (values stay encrypted):");
                    for (ToonVault.Secret s : all) {
                        b.append("\n  · ").append(s.key()).append(s.file().isEmpty() ? "" : " (" + s.file() + ")").append(" — saved ")
                                .append(s.date()).append(s.ttl().isEmpty() ? "" : " · ttl " + s.ttl()).append(" [").append(s.id()).append(']');
                    }
                    yield b.append("\n\nGet a value with memory_secret(action: \"get\", key: \"<key>\")").toString();
                }
                case "forget" -> {
                    String key = secretName(args);
                    yield vault.forget(key) ? "🗑️ Removed secret \"" + key + "\" from the vault." : "❌ No secret \"" + key + "\" in the vault.";
                }
                default -> throw new InvalidArgumentException("action", "must be store, get, list or forget, got " + MemoryRules.shown(action));
            };
        });
    }

    private static String secretName(ToolArgs args) {
        String key = args.textOr("key");
        if (key == null || key.isBlank()) {
            throw new InvalidArgumentException("key", "is required for action " + args.text("action").strip() + ": the secret's name, e.g. gh_token");
        }
        String k = key.strip();
        if (k.length() > 200 || k.contains("\n")) {
            throw new InvalidArgumentException("key", "must be one line of at most 200 characters, e.g. gh_token");
        }
        return k;
    }

    private static String dash(String s) {
        return s == null || s.isBlank() ? "—" : s;
    }

    // ── backups ────────────────────────────────────────────────────────────

    ToonTool backup() {
        return new ToonTool(ToonTool.define("memory_backup", "Timestamped backup of the project's memory (Engram's export lines "
                + "in .toon-memory/memory/backups, the last 10 kept); bring one back with `engram restore`.", JsonSchema.input(),
                ToonTool.hints(false, false, false)), args -> {
            // an encrypted store's backup is sealed with the store's key (engram restore opens it with the same key)
            boolean sealed = c.engine().encryption().map(dev.engram.spi.StoreEncryption::encrypted).orElse(false);
            if (sealed && c.envKey() == null) {
                throw new dev.engram.error.EngramUserException("the store is encrypted and this server has no "
                        + dev.engram.crypto.UserKey.ENV_HINT + " to seal a backup with; no backup was made");
            }
            var codec = new dev.engram.mcp.json.ExportCodec(new dev.engram.mcp.profile.nativeprofile.StructuredRenderer(), dev.engram.mcp.json.JsonText.standard());
            ToonBackups.Written w = ToonBackups.write(c.engine(), c.zone(), c.memoryDir(), codec, c.now(), sealed ? c.envKey() : null);
            int kept = ToonBackups.list(c.memoryDir()).size();
            return "💾 Memory backed up to " + w.file().getFileName() + " (" + w.memories() + " memories"
                    + (sealed ? ", sealed with the store's key" : "") + ")\n📦 " + kept
                    + " backup(s) retained" + (w.removed().isEmpty() ? "" : ", " + w.removed().size() + " older removed")
                    + "\n↩️ Restore with: engram restore " + w.file();
        });
    }

    // ── file summaries ─────────────────────────────────────────────────────

    ToonTool summary() {
        var schema = JsonSchema.input()
                .choice("action", "get or set", List.of("get", "set")).string("file", "File path", "src/big.ts")
                .string("summary", "set: the summary", "Exports the router and three handlers").required("action", "file");
        return new ToonTool(ToonTool.define("memory_summary", "Get or set a file's summary, to avoid re-reading big files.", schema,
                ToonTool.hints(false, false, true)), args -> {
            String action = args.text("action").strip();
            String file = MemoryRules.path("file", args.text("file")); // text() refuses a blank one
            Map<String, String> all = summaries(c);
            switch (action) {
                case "get" -> {
                    String s = all.get(file);
                    return s == null ? (all.isEmpty() ? "No summaries saved for \"" + file + "\"" : "No summary for \"" + file + "\"") : s;
                }
                case "set" -> {
                    String summary = args.textOr("summary");
                    if (summary == null || summary.isBlank()) {
                        throw new InvalidArgumentException("summary", "is required for action set: what the file holds, in a few lines");
                    }
                    MemoryRules.content("summary", summary);
                    all.put(file, summary.strip());
                    saveSummaries(c, all);
                    return "📝 Summary saved for " + file;
                }
                default -> throw new InvalidArgumentException("action", "must be get or set, got " + MemoryRules.shown(action));
            }
        });
    }

    /** The zone's file summaries (toon's {@code summaries:} block), kept in the store as one mark. */
    static Map<String, String> summaries(ToonContext c) {
        return summaries(c.engine(), c.zone());
    }

    static Map<String, String> summaries(Engine engine, String zone) {
        return summaries(engine.mark(summariesMark(zone)).orElse(""));
    }

    static Map<String, String> summaries(String stored) {
        return new LinkedHashMap<>(ToonFormat.parse("summaries:\n" + stored).summaries());
    }

    static void saveSummaries(ToonContext c, Map<String, String> all) {
        c.engine().setMark(SUMMARIES_MARK + c.zone(), encode(all));
    }

    static String encode(Map<String, String> all) {
        StringBuilder b = new StringBuilder();
        all.forEach((f, s) -> b.append("  ").append(ToonFormat.escape(f)).append(": ").append(ToonFormat.escape(s)).append('\n'));
        return b.toString();
    }

    /** The mark holding a zone's summaries (the first-start import fills it from data.toon). */
    static String summariesMark(String zone) {
        return SUMMARIES_MARK + zone;
    }

    private static String lower(String s) {
        return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    static boolean isDraft(Memory m) {
        return m.status() == MemoryStatus.DRAFT;
    }
}
