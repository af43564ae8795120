package dev.engram.mcp.profile.toon;

import dev.engram.engine.ExportRecord;
import dev.engram.engine.ForgetAction;
import dev.engram.engine.ForgetCommand;
import dev.engram.engine.RecallMode;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecalledMemory;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.memory.Edge;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** toon's read-mostly reports: stats, diff, primer, reflect, compress, archive, sessions, graph path, health. */
final class ReportTools {
    private final ToonContext c;

    ReportTools(ToonContext c) {
        this.c = c;
    }

    ToonTool stats() {
        return new ToonTool(ToonTool.define("memory_stats", "Memory statistics: totals, categories, statuses, TTLs, "
                + "quality, hit rate, duplicates, most used and cold entries.", JsonSchema.input(),
                ToonTool.hints(true, false, true)), args -> statsText());
    }

    String statsText() {
        List<Memory> all = c.all();
        Instant now = c.now();
        long active = all.stream().filter(m -> m.status() == MemoryStatus.ACTIVE).count();
        long drafts = all.stream().filter(m -> m.status() == MemoryStatus.DRAFT).count();
        long withTtl = all.stream().filter(m -> m.expiresAt() != null).count();
        long expired = all.stream().filter(m -> m.expiredAt(now)).count();
        StringBuilder b = new StringBuilder("📊 Memory stats\n");
        b.append("Total entries: ").append(all.size()).append('\n');
        b.append("Active: ").append(active).append(" · obsolete: ").append(all.size() - active - drafts).append(" · draft: ").append(drafts).append('\n');
        b.append("By category: ").append(counts(all, m -> ToonText.category(m.type()))).append('\n');
        b.append("By origin: ").append(counts(all, m -> m.origin().name().toLowerCase(Locale.ROOT))).append('\n');
        b.append("TTL: ").append(withTtl).append(" (expired ").append(expired).append(")\n");
        if (!all.isEmpty()) {
            double quality = all.stream().mapToDouble(Memory::quality).average().orElse(0);
            long recalled = all.stream().filter(m -> m.accessCount() > 0).count();
            Map<String, Long> contents = all.stream().collect(Collectors.groupingBy(Memory::content, Collectors.counting()));
            long dups = contents.values().stream().filter(n -> n > 1).mapToLong(n -> n - 1).sum();
            b.append(String.format(Locale.ROOT, "Avg quality: %.2f · Hit rate: %d%% · Duplicates: %d%% · Dead: %d%%%n", quality,
                    pct(recalled, all.size()), pct(dups, all.size()), pct(all.size() - active - drafts, all.size())));
            b.append("Last 5:");
            all.stream().sorted(Comparator.comparing(Memory::createdAt).reversed()).limit(5)
                    .forEach(m -> b.append("\n  ").append(ToonText.line(m)));
            b.append("\nMost accessed:");
            all.stream().filter(m -> m.accessCount() > 0).sorted(Comparator.comparingLong(Memory::accessCount).reversed()).limit(5)
                    .forEach(m -> b.append("\n  ").append(m.key()).append(" (").append(m.accessCount()).append("×)"));
            List<Memory> cold = all.stream().filter(m -> m.accessCount() < 2 && m.quality() >= 0.7
                    && Duration.between(m.lastAccessedAt() == null ? m.createdAt() : m.lastAccessedAt(), now).toDays() > 30).toList();
            if (!cold.isEmpty()) {
                b.append("\nCold memories (good but unused for 30 days):");
                cold.stream().limit(5).forEach(m -> b.append("\n  ").append(m.key()));
            }
        }
        return b.toString().stripTrailing();
    }

    private static int pct(long part, long whole) {
        return whole == 0 ? 0 : (int) Math.round(100.0 * part / whole);
    }

    private static String counts(List<Memory> all, java.util.function.Function<Memory, String> by) {
        if (all.isEmpty()) return "none";
        Map<String, Long> m = new TreeMap<>(all.stream().collect(Collectors.groupingBy(by, Collectors.counting())));
        return m.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(" · "));
    }

    ToonTool diff() {
        var schema = JsonSchema.input()
                .string("since", "24h, 7d or a date (YYYY-MM-DD)", "24h")
                .choice("type", "all (default), created or updated", List.of("all", "created", "updated"))
                .required("since");
        return new ToonTool(ToonTool.define("memory_diff", "Entries created or updated since a time.", schema,
                ToonTool.hints(true, false, true)), args -> {
            String type = args.textOr("type") == null || args.textOr("type").isBlank() ? "all" : args.textOr("type").strip();
            if (!List.of("all", "created", "updated").contains(type)) {
                throw new InvalidArgumentException("type", "must be all, created or updated, got " + MemoryRules.shown(type));
            }
            String since = args.text("since").strip();
            return diffText(since(since), since, type);
        });
    }

    String diffText(Instant from, String label, String type) {
        StringBuilder b = new StringBuilder();
        int n = 0;
        for (Memory m : c.all().stream().sorted(Comparator.comparing(Memory::updatedAt).reversed()).toList()) {
            if (m.updatedAt().isBefore(from)) continue;
            boolean created = !m.createdAt().isBefore(from);
            if (type.equals("created") && !created || type.equals("updated") && created) continue;
            n++;
            b.append("\n  ").append(created ? "+ " : "~ ").append(ToonText.line(m)).append(created ? " (created " : " (updated ")
                    .append(ToonText.date(m.updatedAt())).append(')');
        }
        return n == 0 ? "📅 No changes since " + label + "." : "📅 Changes since " + label + " (" + n + "):" + b;
    }

    /** {@code 24h}, {@code 7d}, {@code 2w}, {@code 30m} or a date, as an instant. */
    Instant since(String value) {
        String v = value.strip();
        var rel = java.util.regex.Pattern.compile("(\\d{1,6})([mhdw])").matcher(v);
        if (rel.matches()) {
            long n = Long.parseLong(rel.group(1));
            Duration d = switch (rel.group(2)) {
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
            return c.now().minus(d);
        }
        try {
            return LocalDate.parse(v).atStartOfDay(ZoneOffset.UTC).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidArgumentException("since", "must be a span such as 24h or 7d, or a date YYYY-MM-DD; got " + MemoryRules.shown(v));
        }
    }

    ToonTool primer() {
        return new ToonTool(ToonTool.define("memory_primer", "The system primer: the few entries every session should "
                + "start with (private-tagged entries excluded).", JsonSchema.input(), ToonTool.hints(true, false, true)),
                args -> primerText());
    }

    String primerText() {
        List<Memory> active = c.active().stream().filter(m -> !m.tags().contains("private")).toList();
        StringBuilder b = new StringBuilder("=== System Primer ===\n");
        b.append("Project memory: ").append(active.size()).append(" active entries (")
                .append(counts(active, m -> ToonText.category(m.type()))).append(")\n");
        List<Memory> top = active.stream().sorted(Comparator.comparingInt(Memory::pinPriority).reversed()
                        .thenComparing(Comparator.comparingInt(ReportTools::importanceRank).reversed())
                        .thenComparing(Comparator.comparingDouble(Memory::quality).reversed())).limit(5).toList();
        if (!top.isEmpty()) {
            b.append("Key entries:");
            for (Memory m : top) b.append("\n  ").append(ToonText.line(m)).append(" (confidence ").append(confidence(m)).append(')');
            b.append('\n');
        }
        List<Memory> patterns = active.stream().filter(m -> m.type() == MemoryType.PATTERN).limit(5).toList();
        if (!patterns.isEmpty()) {
            b.append("Established patterns:");
            for (Memory m : patterns) b.append("\n  - ").append(m.key()).append(": ").append(m.content().lines().findFirst().orElse(""));
            b.append('\n');
        }
        return b.toString().stripTrailing();
    }

    static int importanceRank(Memory m) {
        return m.importance() == null ? 2 : m.importance().ordinal() + 1;
    }

    private static String confidence(Memory m) {
        return m.quality() >= 0.5 ? "high" : m.quality() >= 0.3 ? "medium" : "low";
    }

    ToonTool reflect() {
        var schema = JsonSchema.input()
                .string("category", "Only this category", "decision")
                .integer("limit", "Items per section (default 5)", 1, 20, 5);
        return new ToonTool(ToonTool.define("memory_reflect", "Deterministic audit: hubs, orphans, themes, near-duplicates, "
                + "contradiction candidates, stale entries, drafts.", schema, ToonTool.hints(true, false, true)), args -> {
            int limit = args.intOr("limit", 5, 1, 20);
            String category = args.textOr("category");
            MemoryType only = category == null || category.isBlank() ? null : MemoryTools.category(category);
            return reflectText(only, limit);
        });
    }

    private String reflectText(MemoryType only, int limit) {
        List<ExportRecord> records = c.records().stream().filter(r -> only == null || r.memory().type() == only).toList();
        Map<String, Integer> degree = new HashMap<>();
        for (ExportRecord r : records) {
            for (Edge e : r.edges()) {
                degree.merge(e.fromId(), 1, Integer::sum);
                degree.merge(e.toId(), 1, Integer::sum);
            }
        }
        List<Memory> all = records.stream().map(ExportRecord::memory).toList();
        List<Memory> active = all.stream().filter(m -> m.status() == MemoryStatus.ACTIVE).toList();
        Instant now = c.now();
        StringBuilder b = new StringBuilder("🪞 Memory reflect — ").append(all.size()).append(" entries")
                .append(only == null ? "" : " (category " + ToonText.category(only) + ")").append('\n');
        section(b, "Hubs (3+ links)", active.stream().filter(m -> degree.getOrDefault(m.id(), 0) >= 3)
                .map(m -> m.key() + " (" + degree.get(m.id()) + " links)").toList(), limit);
        section(b, "Orphans (no links, no tags)", active.stream().filter(m -> degree.getOrDefault(m.id(), 0) == 0 && m.tags().isEmpty())
                .map(Memory::key).toList(), limit);
        Map<String, Integer> pairs = new TreeMap<>();
        for (Memory m : active) {
            List<String> t = m.tags().stream().sorted().toList();
            for (int i = 0; i < t.size(); i++) for (int j = i + 1; j < t.size(); j++) pairs.merge(t.get(i) + " + " + t.get(j), 1, Integer::sum);
        }
        section(b, "Themes (tag pairs)", pairs.entrySet().stream().filter(e -> e.getValue() >= 2)
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).map(e -> e.getKey() + " ×" + e.getValue()).toList(), limit);
        List<String> dups = new ArrayList<>();
        for (int i = 0; i < active.size(); i++) {
            for (int j = i + 1; j < active.size(); j++) {
                double s = Similarity.jaccard(Similarity.words(active.get(i)), Similarity.words(active.get(j)));
                if (s > 0.5) dups.add(active.get(i).key() + " ≈ " + active.get(j).key() + " (" + Math.round(s * 100) + "%)");
            }
        }
        section(b, "Near-duplicates", dups, limit);
        section(b, "Stale (older than 120 days, unused for 90)", active.stream().filter(m -> Duration.between(m.createdAt(), now).toDays() > 120
                && (m.lastAccessedAt() == null || Duration.between(m.lastAccessedAt(), now).toDays() > 90)).map(Memory::key).toList(), limit);
        section(b, "Drafts", all.stream().filter(m -> m.status() == MemoryStatus.DRAFT).map(Memory::key).toList(), limit);
        return b.toString().stripTrailing();
    }

    private static void section(StringBuilder b, String title, List<String> items, int limit) {
        b.append(title).append(": ").append(items.size());
        items.stream().limit(limit).forEach(i -> b.append("\n  - ").append(i));
        b.append('\n');
    }

    ToonTool compress() {
        var schema = JsonSchema.input()
                .string("query", "Entries about this (empty: the least important ones)", "redis cache")
                .integer("count", "How many entries to merge (default 3)", 2, 10, 3)
                .string("category", "Only this category", "knowledge");
        return new ToonTool(ToonTool.define("memory_compress", "Prepare a merge: lists entries and asks you to write one "
                + "merged entry with memory_remember, then supersede the originals.", schema, ToonTool.hints(true, false, true)), args -> {
            int count = args.intOr("count", 3, 2, 10);
            String query = args.textOr("query");
            String category = args.textOr("category");
            MemoryType only = category == null || category.isBlank() ? null : MemoryTools.category(category);
            List<Memory> picked;
            if (query == null || query.isBlank()) {
                picked = c.active().stream().filter(m -> only == null || m.type() == only)
                        .sorted(Comparator.comparingInt(ReportTools::importanceRank).thenComparingDouble(Memory::quality)).limit(count).toList();
            } else {
                picked = c.engine().recall(RecallQuery.builder(query).zone(c.zone()).limit(count).mode(RecallMode.RANKED)
                        .types(only == null ? null : Set.of(only)).build(), ToonText.COST).results().stream().map(RecalledMemory::memory).toList();
            }
            if (picked.size() < 2) return "🗜️ Nothing to compress: fewer than 2 matching entries.";
            StringBuilder b = new StringBuilder("🗜️ Compress these " + picked.size() + " entries into one:\n");
            for (Memory m : picked) b.append("\n[").append(ToonText.category(m.type())).append("] ").append(m.key()).append('\n').append(ToonText.indent(m.content())).append('\n');
            b.append("\nNext: call memory_remember with one merged entry (a new key, the shared category, the union of tags),"
                    + " then memory_forget each original with action 'supersede' and new_key set to the merged key.");
            return b.toString();
        });
    }

    ToonTool archive() {
        return new ToonTool(ToonTool.define("memory_archive", "Archive entries older than 30 days or past their TTL "
                + "(reversible: memory_forget action 'restore').", JsonSchema.input(), ToonTool.hints(false, true, false)), args -> {
            Instant cutoff = c.now().minus(Duration.ofDays(30));
            List<Memory> old = c.active().stream().filter(m -> m.updatedAt().isBefore(cutoff) && m.pinPriority() == 0).toList();
            List<Memory> expired = c.all().stream().filter(m -> m.status() == MemoryStatus.ACTIVE && m.expiredAt(c.now())).toList();
            List<Memory> targets = new ArrayList<>(old);
            expired.stream().filter(m -> !targets.contains(m)).forEach(targets::add);
            if (targets.isEmpty()) return "📦 Nothing to archive (no entry older than 30 days or expired).";
            for (Memory m : targets) c.engine().forget(new ForgetCommand(m.id(), c.zone(), ForgetAction.SOFT));
            return "📦 Archived " + targets.size() + " entries: " + targets.stream().map(Memory::key).collect(Collectors.joining(", "))
                    + "\n(restore any with memory_forget action 'restore')";
        });
    }

    ToonTool sessions() {
        var schema = JsonSchema.input().bool("conflictsOnly", "Only the soft conflicts");
        return new ToonTool(ToonTool.define("memory_sessions", "Active agent sessions on this project, from every process "
                + "sharing the store (agent, git branch, files touched, last seen within 10 min), and soft conflicts "
                + "(files touched by 2+ sessions).", schema, ToonTool.hints(true, false, true)),
                args -> c.sessions().report(args, args.bool("conflictsOnly")));
    }

    ToonTool graphPath() {
        var schema = JsonSchema.input()
                .string("from", "Key of the first entry", "use-zod")
                .string("to", "Key of the last entry", "zod-schemas")
                .required("from", "to");
        return new ToonTool(ToonTool.define("memory_graph_path", "Shortest path between two entries in the memory graph "
                + "(links, and entries sharing 2+ tags).", schema, ToonTool.hints(true, false, true)), args -> {
            List<ExportRecord> records = c.records().stream().filter(r -> r.memory().status() == MemoryStatus.ACTIVE).toList();
            Map<String, Memory> byId = new LinkedHashMap<>();
            records.forEach(r -> byId.put(r.memory().id(), r.memory()));
            Memory from = resolve(byId, args.text("from"), "from");
            Memory to = resolve(byId, args.text("to"), "to");
            Map<String, Set<String>> adj = new HashMap<>();
            for (ExportRecord r : records) {
                for (Edge e : r.edges()) {
                    if (!byId.containsKey(e.toId())) continue;
                    adj.computeIfAbsent(e.fromId(), k -> new HashSet<>()).add(e.toId());
                    adj.computeIfAbsent(e.toId(), k -> new HashSet<>()).add(e.fromId());
                }
            }
            List<Memory> ms = List.copyOf(byId.values());
            for (int i = 0; i < ms.size(); i++) {
                for (int j = i + 1; j < ms.size(); j++) {
                    Set<String> shared = new HashSet<>(ms.get(i).tags());
                    shared.retainAll(ms.get(j).tags());
                    if (shared.size() >= 2) {
                        adj.computeIfAbsent(ms.get(i).id(), k -> new HashSet<>()).add(ms.get(j).id());
                        adj.computeIfAbsent(ms.get(j).id(), k -> new HashSet<>()).add(ms.get(i).id());
                    }
                }
            }
            Map<String, String> prev = new HashMap<>();
            Deque<String> queue = new ArrayDeque<>(List.of(from.id()));
            prev.put(from.id(), from.id());
            while (!queue.isEmpty() && !prev.containsKey(to.id())) {
                String cur = queue.poll();
                for (String n : adj.getOrDefault(cur, Set.of()).stream().sorted().toList()) {
                    if (prev.putIfAbsent(n, cur) == null) queue.add(n);
                }
            }
            if (!prev.containsKey(to.id())) return "No path between " + from.key() + " and " + to.key() + ".";
            List<Memory> path = new ArrayList<>();
            for (String id = to.id(); ; id = prev.get(id)) {
                path.add(0, byId.get(id));
                if (id.equals(from.id())) break;
            }
            return "🧭 Path (" + (path.size() - 1) + " hops): " + path.stream()
                    .map(m -> "[" + ToonText.category(m.type()) + "] " + m.key()).collect(Collectors.joining(" → "));
        });
    }

    private static Memory resolve(Map<String, Memory> byId, String ref, String field) {
        String r = ToonData.engramRef(ref);
        return byId.values().stream().filter(m -> m.key().equals(r) || m.id().equals(r)).findFirst()
                .orElseThrow(() -> new NotFoundException(field + ": no active entry " + MemoryRules.shown(r)));
    }

    ToonTool health() {
        return new ToonTool(ToonTool.define("context_health", "Memory health audit: a 0-100 score and what lowers it.",
                JsonSchema.input(), ToonTool.hints(true, false, true)), args -> healthText());
    }

    /** toon's score: 100 minus a deduction per kind of problem found (§1.7). */
    private int healthScore(List<String> findings) {
        List<Memory> all = c.all();
        List<Memory> active = all.stream().filter(m -> m.status() == MemoryStatus.ACTIVE).toList();
        Instant now = c.now();
        int score = 100;
        Map<String, Long> contents = active.stream().collect(Collectors.groupingBy(Memory::content, Collectors.counting()));
        long dups = contents.values().stream().filter(n -> n > 1).count();
        if (dups > 0) { score -= 5; findings.add("−5 duplicate content (" + dups + " groups)"); }
        long never = active.stream().filter(m -> m.accessCount() == 0 && Duration.between(m.createdAt(), now).toDays() > 7).count();
        if (never > 0) { score -= 2; findings.add("−2 never recalled for over 7 days (" + never + " entries)"); }
        long expired = all.stream().filter(m -> m.status() == MemoryStatus.ACTIVE && m.expiredAt(now)).count();
        if (expired > 0) { score -= 3; findings.add("−3 expired TTL (" + expired + " entries)"); }
        List<String> broken = active.stream().filter(m -> m.file() != null && c.evidence(m.file()).equals("unverified")).map(Memory::key).toList();
        if (!broken.isEmpty()) { score -= 5; findings.add("−5 file references that do not exist: " + String.join(", ", broken.stream().limit(5).toList())); }
        List<String> drifted = active.stream().filter(c::drifted).map(Memory::key).toList();
        if (!drifted.isEmpty()) { score -= 4; findings.add("−4 entries whose file changed since they were written: " + String.join(", ", drifted.stream().limit(5).toList())); }
        List<String> overlapping = OverlappingClaims.find(active);
        if (!overlapping.isEmpty()) { score -= 3; findings.add("−3 potentially overlapping claims: " + String.join("; ", overlapping.stream().limit(3).toList())); }
        long scopeOnly = active.stream().filter(m -> m.pathScope() != null && m.file() == null).count();
        if (scopeOnly > 0) { score -= 3; findings.add("−3 path_scope without a file (" + scopeOnly + " entries)"); }
        return Math.max(0, score);
    }

    String healthText() {
        List<String> findings = new ArrayList<>();
        int score = healthScore(findings);
        String label = score >= 90 ? "✅" : score >= 70 ? "⚠️" : "❌";
        StringBuilder b = new StringBuilder("🩺 Memory Health: " + score + "/100 " + label);
        if (findings.isEmpty()) b.append("\nNo problems found.");
        else findings.forEach(f -> b.append("\n  ").append(f));
        return b.toString();
    }
}
