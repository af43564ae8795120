package dev.engram.bench;

import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.spi.Embedder;
import dev.engram.engine.RecallQuery;
import dev.engram.engine.RecallResult;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.profile.nativeprofile.TextRenderer;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;

/**
 * Engine-level latency: for each store size, bulk-load N synthetic memories, warm up, then time
 * single {@code remember} and {@code recall} calls through {@link Engine}, in this process (no MCP,
 * no JSON). Each size gets a fresh store directory, deleted afterwards.
 */
final class LatencyBench {
    /** Recall's tokens as the native profile prints them. */
    private static final TextRenderer TEXT = new TextRenderer();
    /** Settings for one run; {@code warmup} calls of each kind precede the timed ones and are not counted. */
    record Settings(List<Integer> sizes, int remembers, int recalls, int warmup, long seed, Path workDir) {
        Settings {
            sizes = List.copyOf(sizes);
            if (sizes.isEmpty()) throw new IllegalArgumentException("sizes must not be empty");
            if (remembers < 1 || recalls < 1) throw new IllegalArgumentException("remembers and recalls must be >= 1");
            if (warmup < 0) throw new IllegalArgumentException("warmup must be >= 0, got " + warmup);
        }
    }

    /** One size's figures. */
    record Row(int size, BulkLoader.LoadResult load, Latencies remember, Latencies recall, Latencies recallCpu,
               double meanResults, double meanTokens, long storeBytes) {
    }

    private final OpenedStore.Opener opener;
    /** Null: a lexical engine, as before the semantic layer; else remember embeds and recall runs the cascade. */
    private final Embedder embedder;
    private final PrintStream log;
    /** Where the untimed backfill finds vectors an earlier run computed; null to embed every memory. */
    private final EmbeddingCacheFile backfillCache;

    LatencyBench(OpenedStore.Opener opener, PrintStream log) {
        this(opener, log, null, null);
    }

    LatencyBench(OpenedStore.Opener opener, PrintStream log, Embedder embedder, EmbeddingCacheFile backfillCache) {
        this.opener = opener;
        this.log = log;
        this.embedder = embedder;
        this.backfillCache = backfillCache;
    }

    List<Row> run(Settings settings) throws Exception {
        return settings.sizes().stream().map(n -> {
            try {
                return runOne(settings, n);
            } catch (Exception e) {
                throw new IllegalStateException("latency at N=" + n + " failed", e);
            }
        }).toList();
    }

    private Row runOne(Settings s, int n) throws Exception {
        Path dir = Files.createTempDirectory(s.workDir(), "latency-" + n + "-");
        Clock clock = Clock.systemUTC();
        // one seed per size, so N=10k is not a prefix-dependent continuation of N=1k's stream
        MemoryGenerator generator = new MemoryGenerator(s.seed() + n);
        MemoryGenerator queries = new MemoryGenerator(s.seed() * 31 + n);
        try {
            Row row = measure(s, n, dir, clock, generator, queries);
            // measured after close, so the size includes everything flushed on close
            return new Row(row.size(), row.load(), row.remember(), row.recall(), row.recallCpu(), row.meanResults(),
                    row.meanTokens(), TempDirs.sizeOf(dir));
        } finally {
            TempDirs.deleteQuietly(dir, log);
        }
    }

    private Row measure(Settings s, int n, Path dir, Clock clock, MemoryGenerator generator, MemoryGenerator queries)
            throws Exception {
        try (OpenedStore opened = opener.open(dir, clock)) {
            log.printf(Locale.ROOT, "latency: N=%d loading into %s%n", n, dir);
            BulkLoader.LoadResult load = new BulkLoader(s.seed() + n).load(opened.store(), opened.index(),
                    generator::next, n, clock.instant());
            log.printf(Locale.ROOT, "latency: N=%d loaded in %.1f s (write %.1f s, index %.1f s)%n", n,
                    (load.write().toMillis() + load.catchUp().toMillis()) / 1000.0,
                    load.write().toMillis() / 1000.0, load.catchUp().toMillis() / 1000.0);
            Engine engine = new Engine(opened.store(), opened.index(), clock, TagVocabulary.builtInOnly(), embedder,
                    RecallSettings.defaults());
            if (embedder != null) {
                long t0 = System.nanoTime();
                // the same store and index; only where the backfill's vectors come from differs
                Engine backfill = backfillCache == null ? engine : new Engine(opened.store(), opened.index(), clock,
                        TagVocabulary.builtInOnly(), backfillCache.embedder(), RecallSettings.defaults());
                int embedded = BulkLoader.embedMissing(backfill);
                String cached = backfillCache == null ? "" : " (vectors in the cache: " + backfillCache.size() + ")";
                if (backfillCache != null) backfillCache.save();
                log.printf(Locale.ROOT, "latency: N=%d embedded %d memories with %s in %.1f s%s%n", n, embedded,
                        embedder.modelId(), (System.nanoTime() - t0) / 1e9, cached);
            }

            for (int i = 0; i < s.warmup(); i++) {
                engine.remember(command(generator.next()));
                engine.recall(query(queries), TEXT);
            }
            Latencies.Recorder remember = new Latencies.Recorder(s.remembers());
            for (int i = 0; i < s.remembers(); i++) {
                RememberCommand cmd = command(generator.next());
                long t0 = System.nanoTime();
                engine.remember(cmd);
                remember.add(System.nanoTime() - t0);
            }
            Latencies.Recorder recall = new Latencies.Recorder(s.recalls());
            // the calling thread's CPU, which other processes' load on the machine barely moves (wall time does);
            // work the embedder hands to its own threads is not in it
            Latencies.Recorder recallCpu = new Latencies.Recorder(s.recalls());
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long results = 0;
            long tokens = 0;
            for (int i = 0; i < s.recalls(); i++) {
                RecallQuery q = query(queries);
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                RecallResult r = engine.recall(q, TEXT);
                recall.add(System.nanoTime() - t0);
                recallCpu.add(threads.getCurrentThreadCpuTime() - c0);
                results += r.results().size();
                tokens += r.tokens();
            }
            return new Row(n, load, remember.done(), recall.done(), recallCpu.done(), (double) results / s.recalls(),
                    (double) tokens / s.recalls(), 0);
        }
    }

    static RememberCommand command(SyntheticMemory m) {
        return new RememberCommand(m.content(), null, m.type(), m.tags(), m.zone(), null, null, null, m.file(),
                null, null, false, null, null);
    }

    private static RecallQuery query(MemoryGenerator g) {
        return new RecallQuery(g.query(), null, null, null, null, null, false, g.zone(), null, null, null, null, null, null);
    }

    static String table(List<Row> rows) {
        MarkdownTable t = new MarkdownTable("N", "bulk load (mem/s)", "load write / index (s)",
                "remember p50 / p95 / p99 (ms)", "recall p50 / p95 / p99 (ms)", "recall CPU p50 / p95 / p99 (ms)", "timed calls", "recall results (mean)",
                "recall tokens (mean)", "store size (MB)");
        for (Row r : rows) {
            t.row(String.format(Locale.ROOT, "%,d", r.size()),
                    String.format(Locale.ROOT, "%,.0f", r.load().perSecond()),
                    String.format(Locale.ROOT, "%.2f / %.2f", r.load().write().toMillis() / 1000.0,
                            r.load().catchUp().toMillis() / 1000.0),
                    r.remember().ms(50) + " / " + r.remember().ms(95) + " / " + r.remember().ms(99),
                    r.recall().ms(50) + " / " + r.recall().ms(95) + " / " + r.recall().ms(99),
                    r.recallCpu().ms(50) + " / " + r.recallCpu().ms(95) + " / " + r.recallCpu().ms(99),
                    r.remember().count() + " + " + r.recall().count(),
                    String.format(Locale.ROOT, "%.1f", r.meanResults()),
                    String.format(Locale.ROOT, "%.0f", r.meanTokens()),
                    String.format(Locale.ROOT, "%.1f", r.storeBytes() / 1e6));
        }
        return t.render();
    }
}
