package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookDaemonFiles;
import dev.engram.cli.hook.HookRequest;
import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook daemon in process, over its real HTTP endpoint: it answers what the in-process hook answers
 * for Claude Code's, Codex's and Cursor's events (a copy of the same store, so the state is the same),
 * its gates say no as theirs do, it refuses a request without its secret, ends when idle, and a second
 * start for the same data folder does nothing.
 */
class HookDaemonTest {
    private static final JsonText JSON = JsonText.standard();
    private static final String BIG = "x".repeat(6000);
    private static final Pattern ID = Pattern.compile("_surfacing_id: ([0-9a-f]+)_");
    private final HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    private final List<HookDaemon> daemons = new ArrayList<>();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    @TempDir
    Path dir;

    @BeforeEach
    void seed() {
        CliRunner cli = runner("store");
        assertEquals(0, cli.run("remember", "The JWT handler rejects tokens older than 15 minutes; refresh them in the client",
                "--type", "warning", "--file", "src/auth/jwt_handler.py").exitCode());
        assertEquals(0, cli.run("remember", "Deploys of the billing service need the payments migration applied first",
                "--type", "procedure", "--key", "billing-deploy").exitCode());
    }

    @AfterEach
    void stop() throws Exception {
        for (HookDaemon d : daemons) d.close();
        HookSubcommand.stdin = System.in;
    }

    /** Settings the calls of a test send besides the store. */
    private final Map<String, String> settings = new HashMap<>();

    private Map<String, String> env(String store) {
        Map<String, String> env = new HashMap<>(settings);
        env.put("ENGRAM_HOME", dir.resolve(store).toString());
        return env;
    }

    private CliRunner runner(String store) {
        return new CliRunner(dir, env(store), (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    private HookDaemonFiles files() {
        return HookDaemonFiles.in(dir.resolve("engram")); // DATA is XDG_DATA_HOME/engram, XDG_DATA_HOME=dir
    }

    private HookDaemon start(Duration idle, AtomicInteger opened) throws Exception {
        HookDaemonRunner runner = new HookDaemonRunner(dir, "Linux", StandardCharsets.UTF_8, (config, embedding) -> {
            opened.incrementAndGet();
            return Main.openEmbedded(config, Clock.systemUTC(), null);
        });
        HookDaemon d = HookDaemon.start(files(), runner, idle, () -> false, new PrintStream(log, true)).orElseThrow();
        daemons.add(d);
        return d;
    }

    private HttpResponse<byte[]> post(HookDaemon d, String path, String authorization, byte[] body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + d.endpoint().port() + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (authorization != null) b.header("Authorization", authorization);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private String secret() throws Exception {
        String line = Files.readString(files().auth()).strip();
        assertTrue(line.startsWith("Authorization: Bearer "), line);
        return line.substring("Authorization: ".length());
    }

    private CliRunner.Run viaDaemon(HookDaemon d, String store, String stdin, String... args) throws Exception {
        HookRequest r = new HookRequest(dir, List.of(args), env(store), stdin.getBytes(StandardCharsets.UTF_8));
        HttpResponse<byte[]> resp = post(d, "/hook", secret(), r.encode());
        assertEquals(200, resp.statusCode(), new String(resp.body(), StandardCharsets.UTF_8));
        int exit = Integer.parseInt(resp.headers().firstValue("X-Engram-Exit").orElseThrow());
        String err = resp.headers().firstValue("X-Engram-Stderr").map(s -> new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8))
                .orElse("");
        return new CliRunner.Run(exit, new String(resp.body(), StandardCharsets.UTF_8), err);
    }

    private CliRunner.Run inProcess(String store, String stdin, String... args) {
        HookSubcommand.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        return runner(store).run(args);
    }

    /** The surfacing id is random per call: the one thing two equal answers may differ in. */
    private static String masked(String out) {
        Matcher m = ID.matcher(out);
        return m.find() ? out.replace(m.group(1), "ID") : out;
    }

    private static String claudeRead(String path, String content) {
        return JSON.write(Map.of("session_id", "s1", "cwd", "/repo", "hook_event_name", "PostToolUse", "tool_name", "Read",
                "tool_input", Map.of("file_path", path), "tool_response", Map.of("type", "text", "file",
                        Map.of("filePath", path, "content", content))));
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else if (!p.getFileName().toString().endsWith(".lock")) Files.copy(p, t);
            }
        }
    }

    @Test
    void theDaemonAnswersWhatTheInProcessHookAnswersForEachHost() throws Exception {
        copy(dir.resolve("store"), dir.resolve("twin"));
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        List<String> events = List.of(
                claudeRead("/repo/src/auth/jwt_handler.py", BIG),
                JSON.write(Map.of("session_id", "c1", "turn_id", "t7", "cwd", "/repo", "model", "gpt-5-codex",
                        "hook_event_name", "PostToolUse", "tool_name", "Bash", "tool_use_id", "call_1",
                        "tool_input", Map.of("command", "kubectl rollout status deploy/billing service payments migration"),
                        "tool_response", BIG)),
                JSON.write(Map.of("conversation_id", "conv-1", "generation_id", "g1", "workspace_roots", List.of("/repo"),
                        "hook_event_name", "afterShellExecution", "command", "grep jwt handler tokens refresh client",
                        "output", BIG, "duration", 150)),
                claudeRead("/repo/src/auth/jwt_handler.py", BIG), // a repeat: the cooldown says no in both
                claudeRead("/repo/src/auth/jwt_handler.py", "short"), // too small: nothing
                "not json");
        for (String e : events) {
            CliRunner.Run own = inProcess("store", e, "hook", "post-tool");
            CliRunner.Run served = viaDaemon(d, "twin", e, "hook", "post-tool");
            assertEquals(own.exitCode(), served.exitCode(), e);
            assertEquals(masked(own.out()), masked(served.out()), e);
            assertEquals(own.err(), served.err(), e);
        }
        assertTrue(inProcess("store", events.get(0), "hook", "post-tool").out().isEmpty(), "state kept in process");
        CliRunner.Run first = viaDaemon(d, "twin", claudeRead("/repo/src/auth/other.py", BIG), "hook", "post-tool");
        assertEquals("", first.out(), "the dedup window holds in the daemon too");
        assertTrue(Files.exists(dir.resolve("twin").resolve("hook-surfacing-state.json")), "the gates' state is the store's file");
    }

    @Test
    void theDaemonSeesWhatOtherProcessesWriteAndFeedbackRatesWhatItShowed() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        HookDaemon d = start(Duration.ofMinutes(5), opened);
        settings.put("ENGRAM_PROXY_SURFACING__COOLDOWN_SECONDS", "0"); // the same file is read twice
        assertFalse(viaDaemon(d, "store", claudeRead("/repo/src/pay/ledger.py", BIG), "hook", "post-tool").out().contains("cents"));
        // another process (another CLI on the same store) writes while the daemon keeps the store open
        assertEquals(0, runner("store").run("remember", "The ledger module rounds to cents before summing, never after",
                "--type", "warning", "--file", "src/pay/ledger.py").exitCode());
        CliRunner.Run r = viaDaemon(d, "store", claudeRead("/repo/src/pay/ledger.py", BIG + "!"), "hook", "post-tool");
        assertTrue(r.out().contains("rounds to cents"), r.out() + r.err());
        assertEquals(1, opened.get(), "the store stayed open between calls");
        Matcher id = ID.matcher(r.out());
        assertTrue(id.find(), r.out());
        CliRunner.Run rated = viaDaemon(d, "store", "", "hook", "feedback", id.group(1), "helpful");
        assertEquals(0, rated.exitCode(), rated.err());
        assertTrue(rated.out().contains("Recorded 1 rating for " + id.group(1)), rated.out());
        CliRunner.Run unknown = viaDaemon(d, "store", "", "hook", "feedback", "nope", "helpful");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.err().contains("no surfacing event 'nope'"), unknown.err());
    }

    @Test
    void oneCallsOptionsDoNotLeakIntoTheNext() throws Exception {
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        settings.put("ENGRAM_PROXY_SURFACING__COOLDOWN_SECONDS", "0");
        settings.put("ENGRAM_PROXY_SURFACING__DEDUP_TTL_SECONDS", "1");
        CliRunner.Run cursor = viaDaemon(d, "store", claudeRead("/repo/src/auth/jwt_handler.py", BIG), "hook", "post-tool", "--host", "cursor");
        assertTrue(cursor.out().startsWith("{\"additional_context\":"), cursor.out() + cursor.err());
        Thread.sleep(1100); // past the dedup window
        CliRunner.Run told = viaDaemon(d, "store", claudeRead("/repo/src/auth/jwt_handler.py", BIG), "hook", "post-tool");
        assertTrue(told.out().startsWith("{\"hookSpecificOutput\":"), "the host is told from the event again: " + told.out() + told.err());
        CliRunner.Run bad = viaDaemon(d, "store", claudeRead("/repo/a.py", BIG), "hook", "post-tool", "--host", "vim");
        assertEquals(1, bad.exitCode());
        assertTrue(bad.err().contains("--host must be claude, codex or cursor, got 'vim'"), bad.err());
    }

    @Test
    void aRequestWithoutTheSecretIsRefusedAndRunsNothing() throws Exception {
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        byte[] body = new HookRequest(dir, List.of("hook", "post-tool"), env("store"),
                claudeRead("/repo/src/auth/jwt_handler.py", BIG).getBytes(StandardCharsets.UTF_8)).encode();
        for (String bad : new String[] {null, "Bearer 00", secret() + "0", secret().toUpperCase()}) {
            HttpResponse<byte[]> r = post(d, "/hook", bad, body);
            assertEquals(401, r.statusCode(), bad);
            assertTrue(new String(r.body(), StandardCharsets.UTF_8).contains("secret"));
            assertEquals(401, post(d, "/stop", bad, new byte[0]).statusCode(), "nor stops it: " + bad);
        }
        assertFalse(Files.exists(dir.resolve("store").resolve("hook-surfacing-state.json")), "no call ran");
        // and only the hook commands: anything else is the JVM's job
        HttpResponse<byte[]> other = post(d, "/hook", secret(), new HookRequest(dir, List.of("forget", "x"), env("store"), new byte[0]).encode());
        assertEquals(400, other.statusCode());
        assertEquals(400, post(d, "/hook", secret(), "5:junk,".getBytes(StandardCharsets.UTF_8)).statusCode());
        // loopback only, files for this user only
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files().dir())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files().auth())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(files().endpoint())));
    }

    @Test
    void aSecondStartForTheSameDataFolderDoesNothing() throws Exception {
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        String endpoint = Files.readString(files().endpoint());
        HookDaemonRunner unused = new HookDaemonRunner(dir, "Linux", StandardCharsets.UTF_8, (c, e) -> {
            throw new AssertionError("the second daemon opened a store");
        });
        assertTrue(HookDaemon.start(files(), unused, Duration.ofMinutes(5), () -> false, new PrintStream(log)).isEmpty());
        // the command says so and exits 0
        CliRunner.Run again = new CliRunner(dir, Map.of("ENGRAM_HOME", dir.resolve("store").toString(), "XDG_DATA_HOME",
                dir.toString()), (c, e) -> {
                    throw new AssertionError("opened");
                }).run("hook", "daemon");
        assertTrue(again.err().contains("one already runs for " + dir.resolve("engram")), again.err());
        assertEquals(0, again.exitCode(), again.err());
        assertEquals(endpoint, Files.readString(files().endpoint()), "the running daemon's endpoint is untouched");
        assertTrue(HookDaemon.running(files()));
        d.close();
        assertFalse(HookDaemon.running(files()));
        assertFalse(Files.exists(files().endpoint()), "no endpoint left behind");
        assertFalse(Files.exists(files().auth()), "no secret left behind");
    }

    @Test
    void anIdleDaemonEndsByItselfAndAStopRequestEndsIt() throws Exception {
        HookDaemon idle = start(Duration.ofSeconds(1), new AtomicInteger());
        assertTrue(idle.awaitEnd(Duration.ofSeconds(10)), "ended after 1 s without calls");
        assertFalse(HookDaemon.running(files()));
        assertFalse(Files.exists(files().endpoint()));
        HookDaemon busy = start(Duration.ofMinutes(5), new AtomicInteger());
        assertEquals(200, post(busy, "/stop", secret(), new byte[0]).statusCode());
        assertTrue(busy.awaitEnd(Duration.ofSeconds(10)));
        assertTrue(log.toString().contains("asked to stop"), log.toString());
    }

    @Test
    void anIdleTimeoutThatIsNotADurationIsRefusedWithWhatToSend() {
        assertEquals(Duration.ofMinutes(30), HookDaemonSubcommand.idle(null, Map.of()));
        assertEquals(Duration.ofSeconds(90), HookDaemonSubcommand.idle("90s", Map.of()));
        assertEquals(Duration.ofHours(2), HookDaemonSubcommand.idle(null, Map.of("ENGRAM_HOOK_DAEMON_IDLE", "2h")));
        for (String bad : List.of("soon", "0s", "25h", "-5m")) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> HookDaemonSubcommand.idle(bad, Map.of()));
            assertTrue(e.getMessage().contains("must be a duration from 1s to 24h, e.g. 90s, 30m or 2h; got '" + bad + "'"), e.getMessage());
        }
    }
}
