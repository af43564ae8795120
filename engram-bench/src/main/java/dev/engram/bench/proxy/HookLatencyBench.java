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
 * <li>the hook command as the host runs it, the {@code engram} launcher with the event on stdin until it
 *     exits: every call in its own JVM ({@code ENGRAM_HOOK_DAEMON=off}), and every call sent to a warm
 *     {@code engram hook daemon} (what the launcher does once one runs), with their ratio.
 * </ol>
 * The rate limit is lifted for the run (every call reaches the search); each call reads another file, so
 * neither the cooldown nor the dedup window short-circuits it.
 * <pre>java -cp … dev.engram.bench.proxy.HookLatencyBench engram-cli/target/engram.jar [memories] [in-process runs] [JVM runs] [daemon runs]</pre>
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
        int daemonRuns = args.length > 4 ? Integer.parseInt(args[4]) : 200;
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
        if (Files.isRegularFile(jar)) process(jar, home, processRuns, daemonRuns, runs, memories);
        else System.out.println("\n(no " + jar + ": the whole-process run needs `mvn -o -B -pl engram-cli -am -DskipTests package`)");
    }

    /**
     * The hook command as the host runs it: the {@code engram} launcher (a copy beside a link to the jar,
     * so it never rebuilds), first with {@code ENGRAM_HOOK_DAEMON=off} (every call a JVM: the cold path,
     * and what a call without a daemon costs), then with a warm daemon (`engram hook daemon` started first,
     * each call sent to it with curl).
     */
    private static void process(Path jar, Path home, int runs, int daemonRuns, int inProcessRuns, int memories)
            throws IOException, InterruptedException {
        Path launcherSource = jar.toAbsolutePath().getParent().getParent().getParent().resolve("engram");
        if (!Files.isRegularFile(launcherSource)) {
            System.out.println("\n(no launcher at " + launcherSource + ": the whole-process runs need the repository's `engram` script)");
            return;
        }
        Path root = home.resolve("launcher");
        Files.createDirectories(root.resolve("engram-cli").resolve("target"));
        Path launcher = Files.copy(launcherSource, root.resolve("engram"));
        Files.createSymbolicLink(root.resolve("engram-cli").resolve("target").resolve("engram.jar"), jar.toAbsolutePath());
        List<String> cmd = List.of(launcher.toString(), "hook", "post-tool");
        Map<String, String> env = new java.util.HashMap<>(Map.of("ENGRAM_HOME", home.resolve("store").toString(),
                "XDG_DATA_HOME", home.resolve("data").toString(), "ENGRAM_PROXY_SURFACING__MAX_SURFACINGS_PER_MINUTE", "1000000",
                "JAVA_HOME", System.getProperty("java.home")));
        env.put("ENGRAM_HOOK_DAEMON", "off");
        int next = inProcessRuns;
        Result jvm = calls(cmd, env, home, runs, next, memories);
        next += runs;
        env.remove("ENGRAM_HOOK_DAEMON");
        ProcessBuilder daemonCommand = new ProcessBuilder(launcher.toString(), "hook", "daemon")
                .redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(ProcessBuilder.Redirect.DISCARD).directory(home.toFile());
        daemonCommand.environment().putAll(env);
        Process daemon = daemonCommand.start();
        Result served;
        try {
            Path endpoint = home.resolve("data").resolve("engram").resolve("hookd").resolve("endpoint");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!Files.exists(endpoint) && System.nanoTime() < deadline) Thread.sleep(50);
            if (!Files.exists(endpoint)) throw new IllegalStateException("the hook daemon did not start within 120 s");
            served = calls(cmd, env, home, daemonRuns, next, memories);
        } finally {
            ProcessBuilder stop = new ProcessBuilder(launcher.toString(), "hook", "daemon", "--stop").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            stop.environment().putAll(env);
            stop.start().waitFor(60, TimeUnit.SECONDS);
            if (!daemon.waitFor(30, TimeUnit.SECONDS)) daemon.destroyForcibly();
        }
        System.out.printf(Locale.ROOT, "%nThe hook command as the host runs it (the `engram` launcher, event on stdin, until it"
                + " exits), second half of each run:%n%n");
        System.out.println("| path | call | runs | p50 ms | p95 ms | p99 ms | printed memories |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|");
        row("JVM (ENGRAM_HOOK_DAEMON=off) | memories found | " + runs, jvm.hit, jvm.printed + "/" + runs);
        row("JVM (ENGRAM_HOOK_DAEMON=off) | gates say no | " + runs, jvm.refused, "0/" + runs);
        row("warm daemon (launcher over /dev/tcp) | memories found | " + daemonRuns, served.hit, served.printed + "/" + daemonRuns);
        row("warm daemon (launcher over /dev/tcp) | gates say no | " + daemonRuns, served.refused, "0/" + daemonRuns);
        System.out.printf(Locale.ROOT, "%nJVM / daemon, memories found: p50 %.1fx, p95 %.1fx; gates say no: p50 %.1fx, p95 %.1fx%n",
                pct(jvm.hit, 0.5) / pct(served.hit, 0.5), pct(jvm.hit, 0.95) / pct(served.hit, 0.95),
                pct(jvm.refused, 0.5) / pct(served.refused, 0.5), pct(jvm.refused, 0.95) / pct(served.refused, 0.95));
    }

    private record Result(long[] hit, long[] refused, int printed) {
    }

    private static Result calls(List<String> cmd, Map<String, String> env, Path home, int runs, int first, int memories)
            throws IOException, InterruptedException {
        long[] hit = new long[runs];
        long[] refused = new long[runs];
        int printed = 0;
        for (int i = 0; i < runs; i++) {
            int m = (first + i) % memories; // files no call before read (their memories are new to the dedup window)
            hit[i] = spawn(cmd, env, home, read("/repo/src/module" + m + "/handler_" + m + ".py", BIG), i);
            if (lastOut.contains("additionalContext")) printed++;
            refused[i] = spawn(cmd, env, home, read("/repo/src/module" + m + "/handler_" + m + ".py", "short"), i);
        }
        return new Result(hit, refused, printed);
    }

    private static String lastOut = "";

    private static long spawn(List<String> cmd, Map<String, String> env, Path home, String stdin, int i)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).directory(home.toFile());
        pb.environment().putAll(env);
        if (!env.containsKey("ENGRAM_HOOK_DAEMON")) pb.environment().remove("ENGRAM_HOOK_DAEMON");
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

    private static double pct(long[] nanos, double q) {
        long[] m = Arrays.copyOfRange(nanos, nanos.length / 2, nanos.length);
        Arrays.sort(m);
        // the same sample the table's columns print: p50 is the upper median, as in row()
        return (q == 0.5 ? m[m.length / 2] : m[Math.min(m.length - 1, (int) Math.ceil(m.length * q) - 1)]) / 1e6;
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
