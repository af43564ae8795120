package dev.engram.bench;

import dev.engram.memory.MemoryRules;
import dev.engram.mcp.render.TokenEstimate;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Engram against a peer MCP memory server, in one run, through the same {@link McpSession} driver:
 * write latency, search latency and the size of what a search returns, at each store size.
 */
final class PeerBench {
    /** Query shapes: what an agent asks Engram, and the single word a substring matcher can answer. */
    enum QueryShape {
        PHRASE("2-3 word query"), KEYWORD("1 keyword");

        final String label;

        QueryShape(String label) {
            this.label = label;
        }
    }

    /**
     * What the stores hold: {@code CURRENT} the coding-agent memories of {@link MemoryGenerator} (1-3 sentences,
     * tags, sometimes a file); {@code SHORT} short one-observation entities of {@link ShortMemoryGenerator} (one
     * sentence, no tags). Both are searched with the same query strings.
     */
    enum Corpus {
        CURRENT("current (1-3 sentence coding-agent memories)"), SHORT("short (one-sentence, one-observation entities)");

        final String label;

        Corpus(String label) {
            this.label = label;
        }

        /** {@code short}, {@code current} or {@code both} (the default: current, then short). */
        static List<Corpus> parse(String v) {
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "current" -> List.of(CURRENT);
                case "short" -> List.of(SHORT);
                case "both" -> List.of(CURRENT, SHORT);
                default -> throw new IllegalArgumentException("--corpus must be one of [short, current, both], got '" + v + "'");
            };
        }
    }

    /**
     * {@code block}: calls one server makes in a row before the next server's turn (1 = call by call).
     * {@code shapes}: the query shapes searched. {@code setCapNanos}: when over 0, a server stops taking calls in a
     * set (writes, one shape's searches, pings) once its calls there have taken longer than this, so a peer whose
     * call costs minutes at a size is measured on the calls that fit (the table says how many).
     */
    record Settings(List<Integer> sizes, List<Corpus> corpora, int writes, int searches, int warmup, int block, long seed,
                    Path workDir, List<QueryShape> shapes, long setCapNanos) {
        Settings(List<Integer> sizes, List<Corpus> corpora, int writes, int searches, int warmup, int block, long seed,
                 Path workDir) {
            this(sizes, corpora, writes, searches, warmup, block, seed, workDir, List.of(QueryShape.values()), 0);
        }

        Settings {
            sizes = List.copyOf(sizes);
            corpora = List.copyOf(corpora);
            shapes = List.copyOf(shapes);
            if (shapes.isEmpty()) throw new IllegalArgumentException("at least one query shape must be searched");
            if (setCapNanos < 0) throw new IllegalArgumentException("the per-set time cap must be >= 0, got " + setCapNanos);
            if (corpora.isEmpty()) throw new IllegalArgumentException("--corpus must name at least one corpus");
            if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1)) {
                throw new IllegalArgumentException("--sizes must be whole numbers >= 1, got " + sizes);
            }
            if (writes < 1 || searches < 1) throw new IllegalArgumentException("--writes and --searches must be >= 1");
            if (warmup < 0) throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
            if (block < 1) throw new IllegalArgumentException("--block must be >= 1, got " + block);
        }
    }

    /**
     * A search set's figures: latency and, per response, estimated tokens, UTF-8 bytes and structured chars;
     * {@code tokensByQuery[i]} is the tokens of the answer to query i, warm-up included, -1 where it was not asked.
     */
    record SearchFigures(Latencies latency, double meanTokens, long p95Tokens, double meanBytes,
                         double meanStructuredChars, double meanResults, double emptyShare, int errors, long[] tokensByQuery) {
    }

    /**
     * One server at one size. {@code ping} is the MCP round trip with no tool work (client, JSON-RPC,
     * stdio and the server's dispatch): the floor under every call's latency.
     */
    record Figures(String target, Corpus corpus, int size, String preload, Latencies write, Map<QueryShape, SearchFigures> search,
                   Latencies ping) {
    }

    private final PrintStream log;
    private final PrintStream serverStderr;

    PeerBench(PrintStream log, PrintStream serverStderr) {
        this.log = log;
        this.serverStderr = serverStderr;
    }

    List<Figures> run(Settings s, List<PeerTarget> targets) throws Exception {
        List<Figures> out = new ArrayList<>();
        for (Corpus corpus : s.corpora()) {
            for (int n : s.sizes()) {
                List<SyntheticMemory> preload = memories(corpus, s.seed() + n, n);
                List<SyntheticMemory> writes = memories(corpus, s.seed() * 17 + n, s.warmup() + s.writes());
                Map<QueryShape, List<String>> queries = queries(s.seed() * 31 + n, s.warmup() + s.searches());
                out.addAll(runSize(s, targets, corpus, n, preload, writes, queries));
            }
        }
        return out;
    }

    /** A started, preloaded server and the figures recorded for it so far. */
    private static final class Running implements AutoCloseable {
        final PeerTarget target;
        final Corpus corpus;
        final Path dir;
        final McpSession session;
        final String preload;
        final Latencies.Recorder write;
        final Map<QueryShape, SearchRecorder> search = new LinkedHashMap<>();
        final Latencies.Recorder ping;

        Running(PeerTarget target, Corpus corpus, Path dir, McpSession session, String preload, Settings s) {
            this.target = target;
            this.corpus = corpus;
            this.dir = dir;
            this.session = session;
            this.preload = preload;
            // room for every call: a time cap may end a server's warm-up early and record the calls it skipped
            this.write = new Latencies.Recorder(s.warmup() + s.writes());
            for (QueryShape shape : s.shapes()) search.put(shape, new SearchRecorder(s.warmup() + s.searches()));
            this.ping = new Latencies.Recorder(s.warmup() + s.searches());
        }

        Figures figures(int n) {
            Map<QueryShape, SearchFigures> out = new LinkedHashMap<>();
            search.forEach((shape, r) -> out.put(shape, r.done()));
            return new Figures(target.label(), corpus, n, preload, write.done(), out, ping.done());
        }

        @Override
        public void close() {
            session.close();
        }
    }

    /** Call {@code i} on server {@code r}: how long it took, and how to record it among the timed calls. */
    @FunctionalInterface
    interface Call<S> {
        Done run(S server, int i) throws Exception;
    }

    record Done(long nanos, Runnable record) {
    }

    /**
     * Calls 0 to {@code calls - 1} on every server, {@code block} calls to one server before the next one's turn;
     * calls from {@code s.warmup()} on are recorded. With a time cap, a server stops once its calls in this set
     * took longer than the cap, and its warm-up ends early once it has taken a tenth of the cap (a server whose
     * call takes seconds is not warmed by more of them); a call that crosses the cap while the server has no timed
     * call yet is recorded even if it was a warm-up call: one call longer than the whole cap is a measurement no
     * warm-up distorts.
     */
    static <S> void inTurns(List<S> running, int calls, Settings s, Call<S> call) throws Exception {
        long cap = s.setCapNanos();
        // per server: nanos spent in this set, calls recorded, 1 once its warm-up was cut short by the cap
        Map<S, long[]> state = new java.util.IdentityHashMap<>();
        for (int start = 0; start < calls; start += s.block()) {
            for (S r : running) {
                long[] st = state.computeIfAbsent(r, k -> new long[3]);
                for (int i = start; i < Math.min(start + s.block(), calls); i++) {
                    if (cap > 0 && st[0] > cap) break;
                    boolean warmUp = i < s.warmup() && st[2] == 0;
                    Done done = call.run(r, i);
                    st[0] += done.nanos();
                    boolean crossed = cap > 0 && st[0] > cap;
                    if (!warmUp || (crossed && st[1] == 0)) {
                        done.record().run();
                        st[1]++;
                    }
                    if (warmUp && cap > 0 && st[0] > cap / 10) st[2] = 1;
                }
            }
        }
    }

    /**
     * Every server at one size, all running at once, their calls interleaved in runs of {@code block}:
     * calls i to i + block - 1 go to each server in turn before the next run. A burst of load from
     * elsewhere on this shared machine then falls on both sides of a ratio instead of on whichever
     * server happened to be running, and (with runs longer than one call) a call does not start while
     * the other server is still busy after its own.
     */
    private List<Figures> runSize(Settings s, List<PeerTarget> targets, Corpus corpus, int n, List<SyntheticMemory> preload,
                                  List<SyntheticMemory> writes, Map<QueryShape, List<String>> queries) throws Exception {
        List<Running> running = new ArrayList<>();
        try {
            for (PeerTarget target : targets) {
                Path dir = Files.createTempDirectory(s.workDir(), "peer-" + target.label() + "-" + n + "-");
                log.printf(Locale.ROOT, "peer: %s N=%d corpus %s in %s%n", target.label(), n, corpus.name().toLowerCase(Locale.ROOT), dir);
                String how;
                McpSession session = null;
                try {
                    String offline = target.preloadOffline(dir, preload, log);
                    session = McpSession.start(target.command(dir), serverStderr, target.requestTimeout());
                    session.initialize();
                    String online = target.preloadOnline(session, preload);
                    // a target may do both: write its files, then have the started server read them
                    how = offline == null ? online : online == null ? offline : offline + "; " + online;
                } catch (Exception | Error e) {
                    if (session != null) session.close(); // the server process and the client's threads
                    TempDirs.deleteQuietly(dir, log);
                    throw e;
                }
                log.printf(Locale.ROOT, "peer: %s N=%d preloaded: %s%n", target.label(), n, how);
                running.add(new Running(target, corpus, dir, session, how, s));
            }
            inTurns(running, writes.size(), s, (r, i) -> {
                McpSession.Reply reply = r.session.call(r.target.writeTool(), r.target.writeArguments(writes.get(i), n + i));
                if (reply.error()) throw new IllegalStateException(r.target.writeTool() + " failed: " + reply.text());
                return new Done(reply.nanos(), () -> r.write.add(reply.nanos()));
            });
            log.printf(Locale.ROOT, "peer: N=%d writes done%n", n);
            for (QueryShape shape : s.shapes()) {
                List<String> asked = queries.get(shape);
                inTurns(running, asked.size(), s, (r, i) -> {
                    McpSession.Reply reply = r.session.call(r.target.searchTool(), r.target.searchArguments(asked.get(i)));
                    r.search.get(shape).answered(i, reply);
                    dump(r.target.label(), shape, i, asked.get(i), reply);
                    return new Done(reply.nanos(), () -> r.search.get(shape).add(reply));
                });
                log.printf(Locale.ROOT, "peer: N=%d searches (%s) done%n", n, shape.label);
            }
            inTurns(running, s.warmup() + s.searches(), s, (r, i) -> {
                long t0 = System.nanoTime();
                r.session.ping();
                long took = System.nanoTime() - t0;
                return new Done(took, () -> r.ping.add(took));
            });
            return running.stream().map(r -> r.figures(n)).toList();
        } finally {
            for (Running r : running) {
                r.close();
                TempDirs.deleteQuietly(r.dir, log);
            }
        }
    }

    /**
     * With {@code ENGRAM_BENCH_DUMP} set to a folder, each answer is written there as {@code label-shape-query.txt}
     * (the query, then the text), to compare what two servers answered to the same query.
     */
    private static void dump(String label, QueryShape shape, int query, String asked, McpSession.Reply reply) {
        String dir = System.getenv("ENGRAM_BENCH_DUMP");
        if (dir == null || dir.isBlank()) return;
        try {
            java.nio.file.Path folder = java.nio.file.Files.createDirectories(java.nio.file.Path.of(dir));
            String name = (label + "-" + shape + "-" + query).replaceAll("[^A-Za-z0-9._-]", "_") + ".txt";
            java.nio.file.Files.writeString(folder.resolve(name), asked + "\n---\n" + reply.text());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write the answer dump to " + dir, e);
        }
    }

    /** One search set's figures as they come in. */
    private static final class SearchRecorder {
        private final Latencies.Recorder latency;
        private final long[] tokens;
        private int count;
        private long bytes;
        private long structured;
        private int errors;
        private long results;
        private int empty;

        private final long[] byQuery;

        SearchRecorder(int queries) {
            latency = new Latencies.Recorder(queries);
            tokens = new long[queries];
            byQuery = new long[queries];
            Arrays.fill(byQuery, -1);
        }

        /** Every answer's tokens, warm-up or timed: what a query costs does not depend on when it was asked. */
        void answered(int query, McpSession.Reply r) {
            byQuery[query] = TokenEstimate.of(r.text());
        }

        void add(McpSession.Reply r) {
            latency.add(r.nanos());
            // the one estimate for both servers: ceil(chars / 4) of the text content the agent reads
            tokens[count++] = TokenEstimate.of(r.text());
            bytes += r.bytes();
            structured += r.structuredChars();
            if (r.error()) errors++;
            results += Math.max(0, r.results());
            if (r.results() == 0) empty++;
        }

        SearchFigures done() {
            long[] sorted = Arrays.copyOf(tokens, count);
            Arrays.sort(sorted);
            long p95 = sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(0.95 * sorted.length) - 1)];
            double mean = Arrays.stream(sorted).average().orElse(0);
            return new SearchFigures(latency.done(), mean, p95, (double) bytes / count,
                    (double) structured / count, (double) results / count, (double) empty / count, errors, byQuery.clone());
        }
    }

    /** All peer memories go to the default zone: the peer has no zones, so both search the same N. */
    static List<SyntheticMemory> memories(Corpus corpus, long seed, int n) {
        MemoryGenerator g = new MemoryGenerator(seed);
        ShortMemoryGenerator shortOnes = new ShortMemoryGenerator(seed);
        List<SyntheticMemory> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            SyntheticMemory m = corpus == Corpus.SHORT ? shortOnes.next() : g.next();
            out.add(new SyntheticMemory(m.content(), m.type(), m.tags(), MemoryRules.DEFAULT_ZONE, m.file()));
        }
        return out;
    }

    private static Map<QueryShape, List<String>> queries(long seed, int count) {
        MemoryGenerator g = new MemoryGenerator(seed);
        Map<QueryShape, List<String>> out = new LinkedHashMap<>();
        List<String> phrases = new ArrayList<>();
        List<String> keywords = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            phrases.add(g.query());
            keywords.add(g.keyword());
        }
        out.put(QueryShape.PHRASE, phrases);
        out.put(QueryShape.KEYWORD, keywords);
        return out;
    }

    /** One table per size: Engram, the peer, and the peer's figure divided by Engram's. */
    static String table(List<Figures> all, Corpus corpus, int size) {
        Figures e = all.stream().filter(f -> f.corpus() == corpus && f.size() == size && f.target().equals("Engram")).findFirst().orElseThrow();
        Figures p = all.stream().filter(f -> f.corpus() == corpus && f.size() == size && !f.target().equals("Engram")).findFirst().orElseThrow();
        MarkdownTable t = new MarkdownTable("N=" + String.format(Locale.ROOT, "%,d", size) + ", corpus " + corpus.label,
                e.target(), p.target(),
                p.target() + " ÷ Engram");
        t.row("write call", "remember", "create_entities (1 entity)", "");
        latencyRows(t, "write", e.write(), p.write());
        for (QueryShape shape : QueryShape.values()) {
            SearchFigures es = e.search().get(shape);
            SearchFigures ps = p.search().get(shape);
            t.row("**search, " + shape.label + "**", "recall", "search_nodes", "");
            latencyRows(t, "search", es.latency(), ps.latency());
            t.row("results per search, mean", String.format(Locale.ROOT, "%.1f", es.meanResults()),
                    String.format(Locale.ROOT, "%.1f", ps.meanResults()), ratio(ps.meanResults(), es.meanResults()));
            t.row("searches with no result", pct(es.emptyShare()), pct(ps.emptyShare()), "");
            t.row("tokens per search, mean", fmt(es.meanTokens()), fmt(ps.meanTokens()), ratio(ps.meanTokens(), es.meanTokens()));
            t.row("tokens per search, p95", es.p95Tokens(), ps.p95Tokens(), ratio(ps.p95Tokens(), es.p95Tokens()));
            t.row("text bytes per search, mean", fmt(es.meanBytes()), fmt(ps.meanBytes()), ratio(ps.meanBytes(), es.meanBytes()));
            t.row("structuredContent chars, mean", fmt(es.meanStructuredChars()), fmt(ps.meanStructuredChars()),
                    ratio(ps.meanStructuredChars(), es.meanStructuredChars()));
            if (es.errors() + ps.errors() > 0) t.row("error replies", es.errors(), ps.errors(), "");
        }
        t.row("**ping** (MCP round trip, no tool)", "", "", "");
        latencyRows(t, "ping", e.ping(), p.ping());
        t.row("preload", e.preload(), p.preload(), "");
        return t.render();
    }

    /** The figures of whichever single server ran (with {@code --only}). */
    static String single(List<Figures> all, Corpus corpus, int size) {
        Figures f = all.stream().filter(x -> x.corpus() == corpus && x.size() == size).findFirst().orElseThrow();
        MarkdownTable t = new MarkdownTable("N=" + String.format(Locale.ROOT, "%,d", size) + ", corpus " + corpus.label, f.target());
        t.row("write p50 / p95 (ms)", f.write().ms(50) + " / " + f.write().ms(95));
        for (QueryShape shape : QueryShape.values()) {
            SearchFigures s = f.search().get(shape);
            t.row("search, " + shape.label + ", p50 / p95 (ms)", s.latency().ms(50) + " / " + s.latency().ms(95));
            t.row("tokens per search, mean / p95", fmt(s.meanTokens()) + " / " + s.p95Tokens());
        }
        t.row("ping p50 / p95 (ms)", f.ping().ms(50) + " / " + f.ping().ms(95));
        t.row("preload", f.preload());
        return t.render();
    }

    static void latencyRows(MarkdownTable t, String what, Latencies e, Latencies p) {
        for (int q : new int[] {50, 95}) {
            t.row(what + " p" + q + " (ms)", e.ms(q), p.ms(q), ratio(p.percentileNanos(q), e.percentileNanos(q)));
        }
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String ratio(double peer, double engram) {
        return engram == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f×", peer / engram);
    }
}
