package dev.engram.cli;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookDaemonFiles;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code engram hook daemon}: the resident hook process of this user's data folder, in the foreground
 * (a hook call answered in its own JVM starts one detached). {@code --stop} ends the running one,
 * {@code --status} says whether one runs.
 */
@Command(name = "daemon", mixinStandardHelpOptions = true,
        description = {"Keep the stores open and answer hooks the launcher sends.",
                "Keep the stores open and answer the `hook post-tool`, `feedback`, `session-start`, `capture`,",
                "`prompt` and `stop` calls that the `engram` launcher sends over 127.0.0.1 (prompt and stop only without a chat",
                "model; a secret in DATA/hookd/, readable by this user only), so a call costs milliseconds instead",
                "of a JVM start. Runs in the foreground; a hook call that finds none starts one in the background",
                "(unless ENGRAM_HOOK_DAEMON=off). It ends after --idle-timeout without calls, on --stop, or when the",
                "jar is rebuilt. One per data folder: a second start does nothing."})
final class HookDaemonSubcommand implements Callable<Integer> {
    /** The idle time without the flag: ENGRAM_HOOK_DAEMON_IDLE, else 30 minutes. */
    static final String IDLE_VARIABLE = "ENGRAM_HOOK_DAEMON_IDLE";
    static final Duration DEFAULT_IDLE = Duration.ofMinutes(30);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,6})(ms|s|m|h)");

    @ParentCommand
    HookSubcommand hook;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", description = "End after this long without a call (1s..24h, e.g. 90s, 30m, 2h; default 30m or $"
            + IDLE_VARIABLE + ")")
    String idleTimeout;

    @Option(names = "--stop", description = "End the daemon that runs for this data folder")
    boolean stop;

    @Option(names = "--status", description = "Say whether a daemon runs for this data folder, and where")
    boolean status;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Main main = hook.root.main();
        ConfigLoader loader = main.configLoader();
        HookDaemonFiles files = HookDaemonFiles.in(loader.dataDir());
        if (stop && status) throw new dev.engram.error.EngramUserException("--stop and --status are two commands; pass one");
        if (stop) return stop(main, files);
        if (status) {
            Optional<HookDaemonFiles.Endpoint> e = files.readEndpoint();
            if (HookDaemon.running(files) && e.isPresent()) {
                main.out().println("hook daemon running: pid " + e.get().pid() + ", 127.0.0.1:" + e.get().port() + " (" + files.dir() + ")");
            } else {
                main.out().println("no hook daemon runs for " + loader.dataDir());
            }
            return 0;
        }
        Duration idle = idle(idleTimeout, loader.environment());
        var stamps = HookDaemonStarter.classPathStamps();
        // the store key is each call's own (its TOON_MEMORY_KEY / ENGRAM_KEY), not this process's
        HookDaemonRunner runner = new HookDaemonRunner(loader.home(), loader.osName(), Charset.defaultCharset(),
                (cfg, storeKey) -> Main.openEmbedded(cfg, Clock.systemUTC(), null, storeKey));
        EngramConfig config;
        try {
            config = hook.root.config();
        } catch (RuntimeException e) {
            config = null; // each call reports its own store's problem
        }
        EngramConfig warm = config;
        Optional<HookDaemon> started = HookDaemon.start(files, runner, idle, () -> HookDaemonStarter.changed(stamps), main.err(),
                () -> {
                    if (warm != null) runner.warmUp(warm, loader.cwd(), loader.environment(), main.err());
                });
        if (started.isEmpty()) {
            main.err().println("engram hook daemon: one already runs for " + loader.dataDir()
                    + files.readEndpoint().map(e -> " (pid " + e.pid() + ")").orElse("") + "; nothing started");
            return 0;
        }
        HookDaemon daemon = started.get();
        Thread onSignal = new Thread(daemon::close, "engram-hookd-shutdown");
        Runtime.getRuntime().addShutdownHook(onSignal);
        main.err().println("engram hook daemon: pid " + daemon.endpoint().pid() + " on 127.0.0.1:" + daemon.endpoint().port()
                + ", ends after " + idle.toSeconds() + " s without calls (" + files.dir() + ")");
        daemon.awaitEnd();
        try {
            Runtime.getRuntime().removeShutdownHook(onSignal);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        return 0;
    }

    private static int stop(Main main, HookDaemonFiles files) throws IOException, InterruptedException {
        Optional<HookDaemonFiles.Endpoint> e = files.readEndpoint();
        if (e.isEmpty() || !HookDaemon.running(files)) {
            main.out().println("no hook daemon runs for " + files.dir().getParent());
            return 0;
        }
        String auth = Files.readString(files.auth()).strip();
        String value = auth.substring(auth.indexOf(':') + 1).strip();
        HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(2)).build();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + e.get().port() + "/stop"))
                .header("Authorization", value).timeout(Duration.ofSeconds(5)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new dev.engram.error.EngramUserException("the hook daemon (pid " + e.get().pid() + ") refused to stop: " + r.body().strip());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (HookDaemon.running(files) && System.nanoTime() < deadline) Thread.sleep(50);
        main.out().println("hook daemon pid " + e.get().pid() + " stopped");
        return 0;
    }

    /** The flag, else the variable, else 30 minutes; a malformed one is refused with what to send. */
    static Duration idle(String flag, Map<String, String> env) {
        String source = flag != null ? "--idle-timeout" : IDLE_VARIABLE;
        String value = flag != null ? flag : env.get(IDLE_VARIABLE);
        if (value == null || value.isBlank()) return DEFAULT_IDLE;
        Matcher m = DURATION.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
            if (d.compareTo(Duration.ofSeconds(1)) >= 0 && d.compareTo(Duration.ofHours(24)) <= 0) return d;
        }
        throw new ConfigException(source, flag != null ? "flag" : "environment", "must be a duration from 1s to 24h, e.g. 90s, 30m or 2h; got '"
                + value + "'");
    }
}
