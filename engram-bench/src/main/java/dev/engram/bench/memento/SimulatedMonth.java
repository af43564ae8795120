package dev.engram.bench.memento;

import dev.engram.analysis.TagVocabulary;
import dev.engram.bench.McpSession;
import dev.engram.bench.memento.AgentMonth.Probe;
import dev.engram.bench.memento.AgentMonth.Write;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.engine.lifecycle.LifecyclePolicy;
import dev.engram.engine.lifecycle.MaintenanceReport;
import dev.engram.engine.lifecycle.StepReport;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.mcp.tool.Caller;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.rank.CompositeRank;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.Embedder;
import dev.engram.store.EmbeddedStore;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code engram-bench memento}'s simulated month: the same {@link AgentMonth} written through the memento profile's
 * {@code remember} twice, on two fresh stores with an injected clock that advances hour by hour over the month. One
 * store runs Memento's maintenance on its schedule (the scheduler's {@code runIfDue} every simulated hour, so a cycle
 * with consolidation every 6 hours), the other never. At the end both answer the same questions through {@code recall
 * {keywords, text}}: memory count, tokens per recall ({@code totalTokens} of the answer), hit rate (the expected value in
 * a fragment of the top 5) and, for updated facts, how often the stale value ranked above the current one.
 */
public final class SimulatedMonth {
    /** A clock the bench moves by hand (the engine, the store and the tools all read it). */
    static final class HandClock extends Clock {
        private volatile Instant now;

        HandClock(Instant now) {
            this.now = now;
        }

        void set(Instant t) {
            now = t;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    /** One arm's end state. */
    record Arm(String name, long memories, long writes, int cycles, Map<String, Integer> changedByStep, int probes, int hits,
               int staleFirst, int updated, long tokens, long repeatTokens, Map<String, int[]> hitsByKind) {
        double hitRate() {
            return (double) hits / probes;
        }

        double tokensPerRecall() {
            return (double) tokens / probes;
        }

        double tokensPerHit() {
            return hits == 0 ? Double.NaN : (double) tokens / hits;
        }
    }

    private SimulatedMonth() {
    }

    /** The two arms, then a pair for each {@code thresholds} value: the same questions with recall's {@code threshold}. */
    public static String run(long seed, int days, Embedder embedder, String embedderName, Path workDir, PrintStream progress,
                             List<Double> thresholds) throws IOException {
        Instant start = Instant.parse("2026-11-01T00:00:00Z");
        AgentMonth.Month month = AgentMonth.generate(seed, start, days);
        List<Arm> arms = new ArrayList<>();
        List<Double> asked = new ArrayList<>();
        asked.add(null);
        asked.addAll(thresholds);
        for (Double t : asked) {
            String with = t == null ? "" : ", threshold " + t;
            arms.add(arm("never maintained" + with, false, month, embedder, workDir, progress, t));
            arms.add(arm("maintenance every 6 h (with consolidation)" + with, true, month, embedder, workDir, progress, t));
        }
        return table(month, arms, seed, days, embedderName);
    }

    static Arm arm(String name, boolean maintain, AgentMonth.Month month, Embedder embedder, Path workDir, PrintStream progress)
            throws IOException {
        return arm(name, maintain, month, embedder, workDir, progress, null);
    }

    static Arm arm(String name, boolean maintain, AgentMonth.Month month, Embedder embedder, Path workDir, PrintStream progress,
                   Double threshold) throws IOException {
        long t0 = System.nanoTime();
        Path dir = Files.createTempDirectory(workDir, "memento-month-");
        HandClock clock = new HandClock(month.start());
        Map<String, Integer> changed = new TreeMap<>();
        int cycles = 0;
        try (EmbeddedStore store = EmbeddedStore.open(dir, clock)) {
            Engine engine = new Engine(store.store(), store.index(), clock, TagVocabulary.builtInOnly(), embedder,
                    RecallSettings.defaults());
            Map<String, ToolHandler> tools = new HashMap<>();
            for (ToolHandler h : MementoProfile.create(ProfileContext.of(engine, MemoryRules.DEFAULT_ZONE), clock).tools()) {
                tools.put(h.definition().name(), h);
            }
            List<Write> writes = month.writes();
            int next = 0;
            for (Instant hour = month.start(); !hour.isAfter(month.end()); hour = hour.plus(Duration.ofHours(1))) {
                Instant until = hour.plus(Duration.ofHours(1));
                while (next < writes.size() && writes.get(next).at().isBefore(until)) {
                    Write w = writes.get(next++);
                    clock.set(w.at());
                    Map<String, Object> args = new LinkedHashMap<>();
                    args.put("content", w.content());
                    args.put("topic", w.topic());
                    args.put("type", w.type());
                    if (w.importance() != null) args.put("importance", w.importance());
                    call(tools, "remember", args, new Caller(w.session(), null));
                }
                clock.set(until);
                if (maintain) {
                    var report = engine.maintenance().runIfDue(LifecyclePolicy.MEMENTO, LifecyclePolicy.MEMENTO.interval());
                    if (report.isPresent()) {
                        cycles++;
                        for (StepReport s : report.get().steps()) changed.merge(s.step(), s.changed(), Integer::sum);
                    }
                }
            }
            store.index().catchUp();
            long memories = ((Number) ((Map<?, ?>) call(tools, "memory_stats", Map.of(), Caller.NONE).get("stats")).get("total")).longValue();
            int hits = 0, staleFirst = 0, updated = 0;
            long tokens = 0, repeats = 0;
            Map<String, String> factOf = new HashMap<>();
            for (Write w : writes) factOf.putIfAbsent(w.content(), w.fact());
            Map<String, int[]> byKind = new LinkedHashMap<>();
            for (Probe p : month.probes()) {
                Map<String, Object> args = new HashMap<>(Map.of("keywords", p.keywords(), "text", p.question()));
                if (threshold != null) args.put("threshold", threshold);
                Map<String, Object> r = call(tools, "recall", args, Caller.NONE);
                tokens += r.get("totalTokens") instanceof Number n ? n.longValue() : 0;
                List<String> contents = new ArrayList<>();
                if (r.get("fragments") instanceof List<?> fs) for (Object f : fs) contents.add(String.valueOf(((Map<?, ?>) f).get("content")));
                java.util.Set<String> said = new java.util.HashSet<>();
                for (String c : contents) {
                    // a fragment stating a fact an earlier fragment of the same answer stated: tokens the agent reads twice
                    String fact = factOf(factOf, c);
                    if (fact != null && !said.add(fact)) repeats += (c.length() + 3) / 4;
                }
                int current = firstWith(contents, p.expected());
                boolean hit = current >= 0 && current < AgentMonth.TOP;
                String show = System.getenv(SHOW_MISSES);
                if (show != null && (!hit || show.equals("all"))) printRanks(progress, name, p, hit, current, r, clock.instant());
                if (hit) hits++;
                int[] k = byKind.computeIfAbsent(p.kind(), x -> new int[2]);
                k[0]++;
                if (hit) k[1]++;
                if (p.stale() != null) {
                    updated++;
                    int old = firstWith(contents, p.stale());
                    if (old >= 0 && (current < 0 || old < current)) staleFirst++;
                }
            }
            progress.printf(Locale.ROOT, "month, %s: %d writes, %d cycles, %d memories at the end, %d/%d hits; %.1f s%n", name,
                    writes.size(), cycles, memories, hits, month.probes().size(), (System.nanoTime() - t0) / 1e9);
            return new Arm(name, memories, writes.size(), cycles, changed, month.probes().size(), hits, staleFirst, updated, tokens,
                    repeats, byKind);
        } finally {
            deleteQuietly(dir);
        }
    }

    /**
     * {@value #SHOW_MISSES}=1 prints each question the top 5 missed ({@code all}: every question) with the fragments down
     * to the expected one: importance, age, match and reads as recall saw them, and the rank under Memento's plain sum
     * and under the gated one recall uses ({@link CompositeRank}).
     */
    static final String SHOW_MISSES = "ENGRAM_BENCH_MONTH_MISSES";

    private static void printRanks(PrintStream out, String arm, Probe p, boolean hit, int expectedAt, Map<String, Object> answer,
                                   Instant now) {
        out.printf(Locale.ROOT, "%s, %s: %s (expected %s, at %d)%n", arm, hit ? "hit" : "MISS", p.question(), p.expected(), expectedAt);
        List<?> fs = (List<?>) answer.get("fragments");
        for (int i = 0; i < Math.min(fs.size(), Math.max(expectedAt + 1, AgentMonth.TOP + 1)); i++) {
            Map<?, ?> f = (Map<?, ?>) fs.get(i);
            double importance = ((Number) f.get("importance")).doubleValue(), match = ((Number) f.get("similarity")).doubleValue();
            double days = Duration.between(Instant.parse((String) f.get("created_at")), now).toMillis() / 86_400_000.0;
            double plain = 0.4 * importance + 0.3 * Math.pow(2, -days / 30) + 0.3 * match;
            out.printf(Locale.ROOT, "  %2d importance %.3f, %5.1f days, match %.3f, reads %s: plain %.4f, gated %.4f  %s%n", i,
                    importance, days, match, f.get("access_count"), plain, CompositeRank.MEMENTO.score(importance, days, match),
                    f.get("content"));
        }
    }

    /** The fact a fragment states: the write with its content, or, for a representative ("… Also: …"), the one it starts with. */
    static String factOf(Map<String, String> factOf, String content) {
        String exact = factOf.get(content);
        if (exact != null) return exact;
        String best = null;
        int length = 0;
        for (var e : factOf.entrySet()) {
            if (content.startsWith(e.getKey()) && e.getKey().length() > length) {
                best = e.getValue();
                length = e.getKey().length();
            }
        }
        return best;
    }

    /** The rank of the first fragment that says {@code value} as a word, or -1. */
    static int firstWith(List<String> contents, String value) {
        java.util.regex.Pattern word = java.util.regex.Pattern.compile("(?<![\\p{L}\\p{N}])" + java.util.regex.Pattern.quote(value)
                + "(?![\\p{L}\\p{N}])");
        for (int i = 0; i < contents.size(); i++) if (word.matcher(contents.get(i)).find()) return i;
        return -1;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> call(Map<String, ToolHandler> tools, String tool, Map<String, Object> args, Caller caller) {
        CallToolResult r = ToolAdapter.call(tools.get(tool), args, caller);
        if (Boolean.TRUE.equals(r.isError())) throw new IllegalStateException(tool + " " + args + " failed: " + McpSession.text(r));
        return (Map<String, Object>) r.structuredContent();
    }

    static String table(AgentMonth.Month month, List<Arm> arms, long seed, int days, String embedderName) {
        Map<String, Integer> kinds = new TreeMap<>();
        for (Write w : month.writes()) kinds.merge(w.kind(), 1, Integer::sum);
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "A simulated month (seed %d, %d days, embedder %s): %d remember calls (%s), then %d questions "
                        + "(recall {keywords, text}; a hit: the expected value in a fragment of the top %d).%n%n", seed, days, embedderName,
                month.writes().size(), kinds.toString().replaceAll("[{}]", "").replace("=", ": "), month.probes().size(), AgentMonth.TOP));
        md.append("| store | memories at the end | tokens per recall | of which repeats of a fact already in the answer | hit rate "
                + "| tokens per hit (useful recall) | updated facts: stale value ranked first | hits by question kind | cycles "
                + "| changed by the cycles |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (Arm a : arms) {
            StringBuilder kinds2 = new StringBuilder();
            a.hitsByKind().forEach((k, v) -> kinds2.append(kinds2.length() == 0 ? "" : "; ").append(k).append(' ').append(v[1]).append('/').append(v[0]));
            StringBuilder steps = new StringBuilder();
            a.changedByStep().forEach((k, v) -> {
                if (v > 0) steps.append(steps.length() == 0 ? "" : ", ").append(k).append(' ').append(v);
            });
            md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.3f (%d/%d) | %.1f | %d/%d | %s | %d | %s |%n", a.name(),
                    a.memories(), a.tokensPerRecall(), (double) a.repeatTokens() / a.probes(), a.hitRate(), a.hits(), a.probes(),
                    a.tokensPerHit(), a.staleFirst(), a.updated(), kinds2,
                    a.cycles(), steps.length() == 0 ? "—" : steps));
        }
        return md.toString();
    }

    private static void deleteQuietly(Path dir) {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e.getMessage());
        }
    }
}
