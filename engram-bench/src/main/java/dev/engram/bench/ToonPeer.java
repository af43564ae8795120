package dev.engram.bench;

import dev.engram.memory.MemoryRules;
import dev.engram.memory.MemoryType;
import dev.engram.mcp.profile.toon.ToonData;
import dev.engram.mcp.profile.toon.ToonFormat;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Engram's toon profile against the real toon-memory (issue 16), both driven by {@link PeerBench} through the
 * same {@link McpSession} client: {@code memory_remember} and {@code memory_recall {query, budget}} latency and
 * the tokens of a recall's text at each store size. Nothing of toon-memory lives in this repository: the bench
 * is given the folder where it was built.
 *
 * <p>Both stores start from the same {@code .toon-memory/memory/data.toon}, written before each server starts:
 * toon reads and rewrites that whole file on every remember (thousands of preload calls would take minutes),
 * and Engram's toon profile imports a project's {@code .toon-memory} folder at its first start, a real
 * product path. Each server runs in its own empty project folder, as an agent's host starts it.
 */
final class ToonPeer {
    static final Set<String> BUDGETS = Set.of("tiny", "normal", "deep");
    static final String TOON_LABEL = "toon-memory";
    static final String ENGRAM_LABEL = "Engram toon";

    private ToonPeer() {
    }

    /** The command's flags, checked with the names the user typed. */
    record Settings(List<Integer> sizes, int remembers, int recalls, int warmup, int block, String budget, int budgetTokens,
                    List<PeerBench.QueryShape> shapes, int setSeconds, long seed, Path workDir) {
        Settings {
            sizes = List.copyOf(sizes);
            shapes = List.copyOf(shapes);
            if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1)) {
                throw new IllegalArgumentException("--sizes must be whole numbers >= 1, got " + sizes);
            }
            if (remembers < 1) throw new IllegalArgumentException("--remembers must be >= 1, got " + remembers);
            if (recalls < 1) throw new IllegalArgumentException("--recalls must be >= 1, got " + recalls);
            if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
            if (block < 1) throw new IllegalArgumentException("--block must be >= 1, got " + block);
            if (!BUDGETS.contains(budget)) {
                throw new IllegalArgumentException("--budget must be one of tiny, normal, deep (toon's recall budgets), got '" + budget + "'");
            }
            if (budgetTokens != 0 && (budgetTokens < 20 || budgetTokens > 100_000)) {
                throw new IllegalArgumentException("--budget-tokens must be 0 (not sent) or 20..100000 (what both servers take), got "
                        + budgetTokens);
            }
            if (shapes.isEmpty()) throw new IllegalArgumentException("--shapes must name phrase, keyword or both");
            if (setSeconds < 0) throw new IllegalArgumentException("--set-seconds must be >= 0 (0: no cap), got " + setSeconds);
        }

        /** {@code phrase}, {@code keyword} or both, comma-separated. */
        static List<PeerBench.QueryShape> shapes(List<String> names) {
            List<PeerBench.QueryShape> out = new ArrayList<>();
            for (String name : names) {
                PeerBench.QueryShape shape = switch (name.strip().toLowerCase(Locale.ROOT)) {
                    case "phrase" -> PeerBench.QueryShape.PHRASE;
                    case "keyword" -> PeerBench.QueryShape.KEYWORD;
                    default -> throw new IllegalArgumentException("--shapes must be phrase, keyword or phrase,keyword, got '" + name + "'");
                };
                if (!out.contains(shape)) out.add(shape);
            }
            return out;
        }

        /** The generic peer run: the coding-agent corpus, remembers as writes and recalls as searches. */
        PeerBench.Settings peer(List<Integer> only) {
            return new PeerBench.Settings(only, List.of(PeerBench.Corpus.CURRENT), remembers, recalls, warmup, block, seed, workDir,
                    shapes, setSeconds * 1_000_000_000L);
        }
    }

    /** toon's server script in a built checkout: {@code bin/toon-memory.js}, as its own MCP integration test starts it. */
    static Path serverScript(Path toonDir) {
        Path js = toonDir.resolve("bin").resolve("toon-memory.js").toAbsolutePath().normalize();
        if (!Files.isRegularFile(js)) {
            throw new IllegalArgumentException("--toon: " + js + " not found; pass a toon-memory checkout and run"
                    + " `npm ci && npm run build` there");
        }
        return js;
    }

    /** Runs {@code command} with {@code dir} as working directory, without a store named by the environment. */
    static List<String> inFolder(Path dir, List<String> command) {
        List<String> cmd = new ArrayList<>(List.of("sh", "-c",
                "unset ENGRAM_HOME ENGRAM_STORE ENGRAM_PROFILE; cd \"$0\" && exec \"$@\"", dir.toString()));
        cmd.addAll(command);
        return cmd;
    }

    /** toon's category for a generated memory's type (toon has five). */
    static String category(MemoryType type) {
        return switch (type) {
            case DECISION -> "decision";
            case PATTERN, PROCEDURE -> "pattern";
            case ERROR -> "bug";
            case WARNING -> "warning";
            default -> "knowledge";
        };
    }

    /** A unique kebab-case key: the content's slug and the memory's ordinal. */
    static String key(SyntheticMemory m, int ordinal) {
        String slug = MemoryRules.slug(m.content());
        String suffix = "-" + Integer.toString(ordinal, 36);
        return slug.substring(0, Math.min(slug.length(), 60 - suffix.length())) + suffix;
    }

    static Map<String, Object> rememberArguments(SyntheticMemory m, int ordinal) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("key", key(m, ordinal));
        args.put("content", m.content());
        args.put("category", category(m.type()));
        args.put("tags", String.join(";", m.tags()));
        if (m.file() != null) args.put("file", m.file());
        return args;
    }

    /**
     * The preload both servers read: data.toon with the memories as toon's remember writes a new entry
     * (quality 0.50, confidence 1, active), and a config.json lifting toon's 100-entry auto-archive cap so
     * all N stay active (Engram has no such cap).
     */
    static String writeDataToon(Path project, List<SyntheticMemory> memories) throws IOException {
        long t0 = System.nanoTime();
        Path dir = Files.createDirectories(project.resolve(ToonData.FOLDER).resolve("memory"));
        String date = LocalDate.now(ZoneOffset.UTC).toString();
        List<ToonFormat.Entry> entries = new ArrayList<>(memories.size());
        for (int i = 0; i < memories.size(); i++) {
            SyntheticMemory m = memories.get(i);
            Map<String, String> f = new LinkedHashMap<>();
            f.put("id", String.format(Locale.ROOT, "%08x", i));
            f.put("category", category(m.type()));
            f.put("key", key(m, i));
            f.put("content", m.content());
            f.put("file", m.file() == null ? "" : m.file());
            f.put("tags", String.join(";", m.tags()));
            f.put("date", date);
            f.put("accessed", "0");
            f.put("quality", "0.50");
            f.put("confidence", "1");
            f.put("priority", "0");
            f.put("origin", "agent");
            f.put("status", "active");
            entries.add(new ToonFormat.Entry(f, false));
        }
        Files.writeString(dir.resolve("data.toon"), ToonFormat.write("entries", entries, Map.of()));
        Files.writeString(dir.resolve("config.json"), "{\"encrypted\": false, \"maxEntries\": " + (memories.size() * 10 + 1000) + "}\n");
        return String.format(Locale.ROOT, "%d entries written to .toon-memory/memory/data.toon in %.1f s", memories.size(),
                (System.nanoTime() - t0) / 1e9);
    }

    /** Engram's first recall after initialize waits for the import of the preloaded file; timed, not counted. */
    static String firstRecall(McpSession session, String budget) {
        McpSession.Reply r = session.call("memory_recall", Map.of("query", "first recall after start", "budget", budget));
        if (r.error()) throw new IllegalStateException("first memory_recall failed: " + r.text());
        return String.format(Locale.ROOT, "first recall after start (imports it) %.1f s", r.nanos() / 1e9);
    }

    /**
     * toon-memory's tools, which both servers answer: remember and recall with the run's {@link #budget()} and,
     * when not 0, its {@link #budgetTokens()}.
     */
    sealed interface ToonTools extends PeerTarget permits Toon, EngramToon {
        String budget();

        int budgetTokens();

        @Override
        default String writeTool() {
            return "memory_remember";
        }

        @Override
        default Map<String, Object> writeArguments(SyntheticMemory memory, int ordinal) {
            return rememberArguments(memory, ordinal);
        }

        @Override
        default String searchTool() {
            return "memory_recall";
        }

        @Override
        default Map<String, Object> searchArguments(String query) {
            return budgetTokens() == 0 ? Map.of("query", query, "budget", budget())
                    : Map.of("query", query, "budget", budget(), "budget_tokens", budgetTokens());
        }
    }

    /** The real toon-memory: {@code node bin/toon-memory.js mcp} in the project folder. */
    record Toon(String node, Path serverJs, String budget, int budgetTokens) implements ToonTools {
        @Override
        public String label() {
            return TOON_LABEL;
        }

        @Override
        public McpSession.ServerCommand command(Path dir) {
            return new McpSession.ServerCommand(label(), inFolder(dir, List.of(node, serverJs.toString(), "mcp")),
                    Map.of("NODE_OPTIONS", ""));
        }

        @Override
        public String preloadOffline(Path dir, List<SyntheticMemory> memories, PrintStream log) throws IOException {
            return writeDataToon(dir, memories);
        }

        @Override
        public java.time.Duration requestTimeout() {
            return java.time.Duration.ofMinutes(15); // its recall is quadratic in N: minutes at 5k
        }

        @Override
        public String preloadOnline(McpSession session, List<SyntheticMemory> memories) {
            // toon reads and parses data.toon on every call: there is no first-start import to wait for
            return null;
        }

    }

    /**
     * Engram's toon profile: {@code java -jar engram.jar mcp --profile toon} in the project folder, so its store is
     * the per-project one and it imports the project's .toon-memory at first start; {@code embedder} is its
     * ENGRAM_EMBEDDER ({@code none}: lexical only, as toon).
     */
    record EngramToon(Path jar, List<String> javaOptions, String embedder, String budget, int budgetTokens) implements ToonTools {
        EngramToon {
            javaOptions = List.copyOf(javaOptions);
        }

        @Override
        public String label() {
            return ENGRAM_LABEL;
        }

        @Override
        public McpSession.ServerCommand command(Path dir) {
            List<String> java = new ArrayList<>();
            java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            java.addAll(javaOptions);
            java.addAll(List.of("-jar", jar.toString(), "mcp", "--profile", "toon"));
            return new McpSession.ServerCommand(label(), inFolder(dir, java), Map.of("ENGRAM_EMBEDDER", embedder));
        }

        @Override
        public String preloadOffline(Path dir, List<SyntheticMemory> memories, PrintStream log) throws IOException {
            return writeDataToon(dir, memories);
        }

        @Override
        public String preloadOnline(McpSession session, List<SyntheticMemory> memories) {
            return firstRecall(session, budget);
        }

    }

    /** One table per size: Engram's toon profile, toon-memory, and toon's figure divided by Engram's. */
    static String table(List<PeerBench.Figures> all, int size, String budget) {
        PeerBench.Figures e = find(all, size, ENGRAM_LABEL);
        PeerBench.Figures t = find(all, size, TOON_LABEL);
        MarkdownTable md = new MarkdownTable("N=" + String.format(Locale.ROOT, "%,d", size) + ", budget " + budget,
                ENGRAM_LABEL, TOON_LABEL, "toon ÷ Engram");
        md.row("**memory_remember**", "", "", "");
        md.row("timed calls", e.write().count(), t.write().count(), "");
        PeerBench.latencyRows(md, "remember", e.write(), t.write());
        for (PeerBench.QueryShape shape : e.search().keySet()) {
            PeerBench.SearchFigures es = e.search().get(shape);
            PeerBench.SearchFigures ts = t.search().get(shape);
            md.row("**memory_recall, " + shape.label + "**", "", "", "");
            md.row("timed calls", es.latency().count(), ts.latency().count(), "");
            PeerBench.latencyRows(md, "recall", es.latency(), ts.latency());
            md.row("tokens per recall, mean", PeerBench.fmt(es.meanTokens()), PeerBench.fmt(ts.meanTokens()), PeerBench.ratio(ts.meanTokens(), es.meanTokens()));
            md.row("tokens per recall, p95", es.p95Tokens(), ts.p95Tokens(), PeerBench.ratio(ts.p95Tokens(), es.p95Tokens()));
            SameQueries same = SameQueries.of(es, ts);
            md.row("tokens per recall, mean over the " + same.queries() + " queries both answered", PeerBench.fmt(same.engram()),
                    PeerBench.fmt(same.toon()), PeerBench.ratio(same.toon(), same.engram()));
            md.row("queries where Engram answered with more tokens", same.engramMore(), "", "");
            if (es.errors() + ts.errors() > 0) md.row("error replies", es.errors(), ts.errors(), "");
        }
        md.row("**ping** (MCP round trip, no tool)", "", "", "");
        PeerBench.latencyRows(md, "ping", e.ping(), t.ping());
        md.row("preload", e.preload(), t.preload(), "");
        return md.render();
    }

    /** Whether issue 16's targets hold at this size: recall at least 10× faster (p50), never more tokens (mean and p95). */
    static String verdict(List<PeerBench.Figures> all, int size) {
        PeerBench.Figures e = find(all, size, ENGRAM_LABEL);
        PeerBench.Figures t = find(all, size, TOON_LABEL);
        StringBuilder out = new StringBuilder();
        for (PeerBench.QueryShape shape : e.search().keySet()) {
            PeerBench.SearchFigures es = e.search().get(shape);
            PeerBench.SearchFigures ts = t.search().get(shape);
            double speed = (double) ts.latency().percentileNanos(50) / Math.max(1, es.latency().percentileNanos(50));
            SameQueries same = SameQueries.of(es, ts);
            out.append(String.format(Locale.ROOT, "N=%,d %s: recall p50 %.1f× faster (%s 10×); tokens on the %d queries both"
                            + " answered: mean %.0f vs %.0f, Engram more on %d (%s)%n",
                    size, shape.label, speed, speed >= 10 ? "meets" : "misses", same.queries(), same.engram(), same.toon(),
                    same.engramMore(), same.engramMore() == 0 ? "never more: meets" : "misses"));
        }
        return out.toString();
    }

    /** Tokens compared query by query, on the queries both servers answered, warm-up included (a time cap leaves toon fewer). */
    record SameQueries(int queries, double engram, double toon, int engramMore) {
        static SameQueries of(PeerBench.SearchFigures engram, PeerBench.SearchFigures toon) {
            long e = 0;
            long t = 0;
            int n = 0;
            int more = 0;
            for (int i = 0; i < Math.min(engram.tokensByQuery().length, toon.tokensByQuery().length); i++) {
                if (engram.tokensByQuery()[i] < 0 || toon.tokensByQuery()[i] < 0) continue;
                e += engram.tokensByQuery()[i];
                t += toon.tokensByQuery()[i];
                n++;
                if (engram.tokensByQuery()[i] > toon.tokensByQuery()[i]) more++;
            }
            return n == 0 ? new SameQueries(0, 0, 0, 0) : new SameQueries(n, (double) e / n, (double) t / n, more);
        }
    }

    private static PeerBench.Figures find(List<PeerBench.Figures> all, int size, String label) {
        return all.stream().filter(f -> f.size() == size && f.target().equals(label)).findFirst().orElseThrow();
    }
}
