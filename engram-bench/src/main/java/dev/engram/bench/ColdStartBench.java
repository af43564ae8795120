package dev.engram.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cold start as an agent's host sees it: spawn the server, {@code initialize} answered, then
 * {@code tools/list} answered. Configurations run interleaved (A B C, A B C, …) so drift in the
 * machine's load spreads over all of them instead of biasing the last one.
 */
final class ColdStartBench {
    /** A configuration to start; {@code dir} is its store directory (or the peer's file folder). */
    record Config(String label, McpSession.ServerCommand command, Path dir) {
    }

    /** Milliseconds to initialize and to tools/list, one entry per counted run. */
    record Result(String label, Latencies initialize, Latencies toolsList, int tools) {
    }

    private final PrintStream log;
    private final PrintStream serverStderr;

    ColdStartBench(PrintStream log, PrintStream serverStderr) {
        this.log = log;
        this.serverStderr = serverStderr;
    }

    List<Result> run(List<Config> configs, int runs, int warmup) {
        Map<String, Latencies.Recorder> init = new LinkedHashMap<>();
        Map<String, Latencies.Recorder> list = new LinkedHashMap<>();
        Map<String, Integer> tools = new LinkedHashMap<>();
        for (Config c : configs) {
            init.put(c.label(), new Latencies.Recorder(runs));
            list.put(c.label(), new Latencies.Recorder(runs));
        }
        for (int round = 0; round < warmup + runs; round++) {
            for (Config c : configs) {
                long t0 = System.nanoTime();
                try (McpSession session = McpSession.start(c.command(), serverStderr)) {
                    session.initialize();
                    long t1 = System.nanoTime();
                    int n = session.listTools().size();
                    long t2 = System.nanoTime();
                    tools.put(c.label(), n);
                    if (round >= warmup) {
                        init.get(c.label()).add(t1 - t0);
                        list.get(c.label()).add(t2 - t0);
                    }
                }
            }
            log.printf(Locale.ROOT, "coldstart: round %d/%d done%n", round + 1, warmup + runs);
        }
        List<Result> out = new ArrayList<>();
        for (Config c : configs) {
            out.add(new Result(c.label(), init.get(c.label()).done(), list.get(c.label()).done(), tools.get(c.label())));
        }
        return out;
    }

    /**
     * Creates a dynamic AppCDS archive for the jar by running one realistic session (initialize,
     * tools/list, a remember and a recall) under {@code -XX:ArchiveClassesAtExit}; the JVM writes the
     * archive when it exits. The archive is tied to the exact jar: rebuild the jar, recreate it.
     */
    void trainArchive(McpSession.ServerCommand training, Path archive) throws Exception {
        Files.deleteIfExists(archive);
        try (McpSession session = McpSession.start(training, serverStderr)) {
            session.initialize();
            session.listTools();
            session.call("remember", Map.of("content", "Use zod for request validation; joi was dropped."));
            session.call("recall", Map.of("query", "request validation"));
        }
        // the JVM dumps the archive on its way out, after the client has closed the pipe
        for (int i = 0; i < 100 && !Files.exists(archive); i++) Thread.sleep(100);
        if (!Files.exists(archive)) throw new IllegalStateException("no CDS archive was written to " + archive);
        log.printf(Locale.ROOT, "coldstart: AppCDS archive %s (%.1f MB)%n", archive, Files.size(archive) / 1e6);
    }

    static String table(List<Result> results, int runs, int warmup) {
        MarkdownTable t = new MarkdownTable("server and flags", "initialize answered, median (min–max) ms",
                "tools/list answered, median (min–max) ms", "tools", "vs plain java -jar (median)");
        double base = results.get(0).toolsList().percentileNanos(50);
        for (Result r : results) {
            t.row(r.label(), r.initialize().medianAndRange(), r.toolsList().medianAndRange(), r.tools(),
                    String.format(Locale.ROOT, "%.2f×", r.toolsList().percentileNanos(50) / base));
        }
        return t.render() + "\n" + runs + " counted runs per configuration, interleaved, after " + warmup + " warm-up round(s).\n";
    }

}
