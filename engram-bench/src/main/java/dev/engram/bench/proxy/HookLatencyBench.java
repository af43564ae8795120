package dev.engram.bench.proxy;

import dev.engram.cli.hook.PostToolEvent;
import dev.engram.cli.hook.PostToolHook;
import dev.engram.engine.Engine;
import dev.engram.engine.RememberCommand;
import dev.engram.mcp.json.JsonText;
import dev.engram.memory.MemoryType;
import dev.engram.proxy.config.ProxySettings;
import dev.engram.proxy.config.SurfacingSettings;
import dev.engram.store.EmbeddedStore;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code engram hook post-tool} adds to a native tool call, on a warm embedded store of
 * {@code memories} memories (one per source file, plus the same number of unscoped ones):
 * <ol>
 * <li>in process: {@link PostToolHook#surface} with the engine open (what the hook does after the JVM
 *     has started and the store is open): the gates, the stats database, the state file, the search, the
 *     block; a call whose memories the gates let through, and one they refuse (a small result);
 * <li>the whole process as the host runs it: {@code java … -jar engram.jar hook post-tool} with the
 *     event on stdin, the launcher's flags, until it exits.
 * </ol>
 * The rate limit is lifted for the run (every call reaches the search); each call reads another file, so
 * neither the cooldown nor the dedup window short-circuits it.
 * <pre>java -cp … dev.engram.bench.proxy.HookLatencyBench engram-cli/target/engram.jar [memories] [in-process runs] [process runs]</pre>
 */
public final class HookLatencyBench {
    private static final JsonText JSON = JsonText.standard();
    private static final String BIG = "x".repeat(6000);

    private HookLatencyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "engram-cli/target/engram.jar");
        int memories = args.length > 1 ? Integer.parseInt(args[1]) : 2000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 400;
        int processRuns = args.length > 3 ? Integer.parseInt(args[3]) : 30;
        Path home = Files.createTempDirectory("engram-hookbench");
        Path store = home.resolve("store");
        Files.createDirectories(store);
        Map<String, String> env = Map.of("ENGRAM_PROXY_SURFACING__MAX_SURFACINGS_PER_MINUTE", "1000000");
        SurfacingSettings settings = ProxySettings.fromEnv(env).surfacing();
        AtomicLong ids = new AtomicLong();
        try (EmbeddedStore embedded = EmbeddedStore.open(store, Clock.systemUTC())) {
            Engine engine = new Engine(embedded.store(), embedded.index(), Clock.systemUTC());
            for (int i = 0; i < memories; i++) {
                engine.remember(RememberCommand.builder("The handler in module " + i + " retries webhook deliveries "
                        + (i % 7 + 2) + " times and logs to channel " + (i % 13)).type(MemoryType.WARNING)
                        .file("src/module" + i + "/handler_" + i + ".py").build());
                engine.remember(RememberCommand.builder("Service " + i + " deploys after migration " + (i % 11)
                        + " and needs the feature flag rollout-" + i).type(MemoryType.PROCEDURE).build());
            }
            long[] hit = new long[runs];
            long[] refused = new long[runs];
            int printed = 0;
            for (int i = 0; i < runs; i++) {
                int m = i % memories;
                PostToolEvent e = PostToolEvent.parse(read("/repo/src/module" + m + "/handler_" + m + ".py", BIG + i), null,
                        JSON::readObject);
                long t = System.nanoTime();
                String out = PostToolHook.surface(store, settings, () -> engine, "default", e, JSON, Clock.systemUTC(),
                        () -> Long.toHexString(ids.incrementAndGet()));
                hit[i] = System.nanoTime() - t;
                if (!out.isEmpty()) printed++;
                PostToolEvent small = PostToolEvent.parse(read("/repo/src/module" + m + "/handler_" + m + ".py", "short"),
                        null, JSON::readObject);
                t = System.nanoTime();
                PostToolHook.surface(store, settings, () -> engine, "default", small, JSON, Clock.systemUTC(),
                        () -> Long.toHexString(ids.incrementAndGet()));
                refused[i] = System.nanoTime() - t;
            }
            System.out.printf(Locale.ROOT, "Store: %d memories (%d file-scoped). In process, engine open, %d calls each,"
                    + " second half after warm-up:%n%n", 2 * memories, memories, runs);
            System.out.println("| call | p50 ms | p95 ms | p99 ms | printed memories |");
            System.out.println("|---|---:|---:|---:|---:|");
            row("Read of a 6,000-char file, memories found", hit, printed + "/" + runs);
            row("Read of a small file (gates say no)", refused, "0/" + runs);
        }
        if (Files.isRegularFile(jar)) process(jar, home, processRuns, runs, memories);
        else System.out.println("\n(no " + jar + ": the whole-process run needs `mvn -o -B -pl engram-cli -am -DskipTests package`)");
    }

    private static void process(Path jar, Path home, int runs, int inProcessRuns, int memories)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-jar", jar.toString(),
                "hook", "post-tool"));
        long[] hit = new long[runs];
        long[] refused = new long[runs];
        int printed = 0;
        for (int i = 0; i < runs; i++) {
            int m = (inProcessRuns + i) % memories; // files the in-process calls did not read (their memories are new)
            hit[i] = spawn(cmd, home, read("/repo/src/module" + m + "/handler_" + m + ".py", BIG), i);
            if (lastOut.contains("additionalContext")) printed++;
            refused[i] = spawn(cmd, home, read("/repo/src/module" + m + "/handler_" + m + ".py", "short"), i);
        }
        System.out.printf(Locale.ROOT, "%nWhole process (`java -XX:TieredStopAtLevel=1 -Xshare:auto -jar engram.jar hook"
                + " post-tool`, no AppCDS archive), %d runs each, second half:%n%n", runs);
        System.out.println("| call | p50 ms | p95 ms | p99 ms | printed memories |");
        System.out.println("|---|---:|---:|---:|---:|");
        row("Read of a 6,000-char file, memories found", hit, printed + "/" + runs);
        row("Read of a small file (gates say no)", refused, "0/" + runs);
    }

    private static String lastOut = "";

    private static long spawn(List<String> cmd, Path home, String stdin, int i) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("ENGRAM_HOME", home.resolve("store").toString());
        pb.environment().put("ENGRAM_PROXY_SURFACING__MAX_SURFACINGS_PER_MINUTE", "1000000");
        long t = System.nanoTime();
        Process p = pb.start();
        try (OutputStream os = p.getOutputStream()) {
            os.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        lastOut = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("hook run " + i + " did not end in 60 s");
        }
        return System.nanoTime() - t;
    }

    private static String read(String path, String content) {
        return JSON.write(Map.of("session_id", "bench", "cwd", "/repo", "hook_event_name", "PostToolUse", "tool_name", "Read",
                "tool_input", Map.of("file_path", path), "tool_response", Map.of("type", "text", "file",
                        Map.of("filePath", path, "content", content))));
    }

    private static void row(String label, long[] nanos, String printed) {
        long[] m = Arrays.copyOfRange(nanos, nanos.length / 2, nanos.length);
        Arrays.sort(m);
        System.out.printf(Locale.ROOT, "| %s | %.2f | %.2f | %.2f | %s |%n", label, m[m.length / 2] / 1e6,
                m[Math.min(m.length - 1, (int) Math.ceil(m.length * 0.95) - 1)] / 1e6,
                m[Math.min(m.length - 1, (int) Math.ceil(m.length * 0.99) - 1)] / 1e6, printed);
    }
}
