package dev.engram.bench;

import dev.engram.spi.StoredEmbedding;
import dev.engram.store.EmbeddedStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Start-up of an encrypted store against the same store in the clear, as an agent's host sees it:
 * spawn {@code engram mcp}, initialize answered, then the first {@code recall} answered (the store
 * is open and its index caught up: on disk for the plain store; in memory for the encrypted one,
 * loaded from its sealed snapshot). Both stores hold the same memories, each with a 384-dimension
 * vector as MiniLM stores them, so an index rebuild would include the vector graph. Runs interleave.
 */
final class EncryptedStartBench {
    static final String KEY = "5e".repeat(32);
    private static final int DIMENSIONS = 384;

    record Result(String label, Latencies initialize, Latencies firstRecall, String answer) {
    }

    private final PrintStream log;
    private final PrintStream serverStderr;

    EncryptedStartBench(PrintStream log, PrintStream serverStderr) {
        this.log = log;
        this.serverStderr = serverStderr;
    }

    /** Loads {@code memories} into {@code plain}, copies it to {@code encrypted} and encrypts the copy. */
    void prepare(Path plain, Path encrypted, int memories, long seed) throws IOException {
        Clock clock = Clock.systemUTC();
        MemoryGenerator generator = new MemoryGenerator(seed);
        Random random = new Random(seed);
        try (EmbeddedStore store = EmbeddedStore.open(plain, clock)) {
            new BulkLoader(seed).load(store.store(), store.index(), generator::next, memories, clock.instant());
            List<String> ids = new ArrayList<>();
            store.store().forEach(null, m -> ids.add(m.id()));
            for (int start = 0; start < ids.size(); start += BulkLoader.BATCH) {
                List<String> batch = ids.subList(start, Math.min(ids.size(), start + BulkLoader.BATCH));
                store.store().write(tx -> {
                    for (String id : batch) tx.putEmbedding(id, new StoredEmbedding("bench-random-384", unit(random)));
                    return null;
                });
            }
            store.index().catchUp();
        }
        TempDirs.copy(plain, encrypted);
        long t0 = System.nanoTime();
        try (EmbeddedStore store = EmbeddedStore.open(encrypted, clock)) {
            store.store().encryption().orElseThrow().encrypt(KEY);
        }
        log.printf(Locale.ROOT, "encrypted-start: %d memories loaded; encrypting the copy took %.1f s%n", memories,
                (System.nanoTime() - t0) / 1e9);
    }

    List<Result> run(Path jar, Path plain, Path encrypted, String query, int runs, int warmup) {
        List<String[]> configs = List.of(new String[] {"plain store (index on disk)", plain.toString(), ""},
                new String[] {"encrypted store (index in memory, from its sealed snapshot)", encrypted.toString(), KEY});
        List<Latencies.Recorder> init = new ArrayList<>();
        List<Latencies.Recorder> recall = new ArrayList<>();
        String[] answers = new String[configs.size()];
        for (int i = 0; i < configs.size(); i++) {
            init.add(new Latencies.Recorder(runs));
            recall.add(new Latencies.Recorder(runs));
        }
        for (int round = 0; round < warmup + runs; round++) {
            for (int i = 0; i < configs.size(); i++) {
                String[] c = configs.get(i);
                List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar", jar.toString(), "--store", c[1], "mcp");
                Map<String, String> env = c[2].isEmpty() ? Map.of("ENGRAM_EMBEDDER", "none")
                        : Map.of("ENGRAM_EMBEDDER", "none", "TOON_MEMORY_KEY", c[2]);
                long t0 = System.nanoTime();
                try (McpSession session = McpSession.start(new McpSession.ServerCommand(c[0], cmd, env), serverStderr)) {
                    session.initialize();
                    long t1 = System.nanoTime();
                    McpSession.Reply r = session.call("recall", Map.of("query", query));
                    long t2 = System.nanoTime();
                    if (r.error()) throw new IllegalStateException(c[0] + ": recall failed: " + r.text());
                    answers[i] = r.results() + " results";
                    if (round >= warmup) {
                        init.get(i).add(t1 - t0);
                        recall.get(i).add(t2 - t0);
                    }
                }
            }
            log.printf(Locale.ROOT, "encrypted-start: round %d/%d done%n", round + 1, warmup + runs);
        }
        List<Result> out = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            out.add(new Result(configs.get(i)[0], init.get(i).done(), recall.get(i).done(), answers[i]));
        }
        return out;
    }

    static String table(List<Result> results, int memories, int runs, int warmup) {
        MarkdownTable t = new MarkdownTable("store (" + memories + " memories, 384-d vectors)",
                "initialize answered, median (min–max) ms", "first recall answered, median (min–max) ms", "answer",
                "vs plain (median, first recall)");
        double base = results.get(0).firstRecall().percentileNanos(50);
        for (Result r : results) {
            t.row(r.label(), r.initialize().medianAndRange(), r.firstRecall().medianAndRange(), r.answer(),
                    String.format(Locale.ROOT, "%.2f×", r.firstRecall().percentileNanos(50) / base));
        }
        return t.render() + "\n" + runs + " counted runs per store, interleaved, after " + warmup + " warm-up round(s).\n";
    }


    private static float[] unit(Random random) {
        float[] v = new float[DIMENSIONS];
        double norm = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < v.length; i++) v[i] /= (float) Math.sqrt(norm);
        return v;
    }

}
