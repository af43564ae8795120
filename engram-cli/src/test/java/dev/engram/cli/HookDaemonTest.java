package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookDaemonFiles;
import dev.engram.cli.hook.HookRequest;
import dev.engram.cli.hook.PostToolHook;
import dev.engram.crypto.UserKey;
import dev.engram.engine.graph.EntityDraft;
import dev.engram.engine.graph.ExistingEntity;
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
 * its gates say no as theirs do; session-start, prompt and stop answer byte for byte as in their own JVM
 * (the toon profile's per-project store, an encrypted store with and without its key), prompt and stop are
 * left to the JVM with a chat model; capture prints and logs what its own JVM does (the log's lines but their time),
 * logs a call run twice (daemon and JVM) once, and a call its launcher stopped waiting for is not run;
 * it refuses a request without its secret, ends when idle, and a second
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
        Map<String, String> env = env(store);
        // the store key of its environment, as the JVM's own opener takes it from the process's
        return new CliRunner(dir, env, (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null,
                UserKey.fromEnvironment(env).orElse(null)));
    }

    private HookDaemonFiles files() {
        return HookDaemonFiles.in(dir.resolve("engram")); // DATA is XDG_DATA_HOME/engram, XDG_DATA_HOME=dir
    }

    private HookDaemon start(Duration idle, AtomicInteger opened) throws Exception {
        HookDaemonRunner runner = new HookDaemonRunner(dir, "Linux", StandardCharsets.UTF_8, (config, storeKey) -> {
            opened.incrementAndGet();
            return Main.openEmbedded(config, Clock.systemUTC(), null, storeKey);
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

    /** A hook call in its own JVM (a fresh Main) in folder {@code cwd} with exactly {@code env}. */
    private static CliRunner.Run inProcess(Path cwd, Map<String, String> env, String stdin, HookDaemonStarter starter, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Main main = new Main(env, cwd, cwd, "Linux", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null, UserKey.fromEnvironment(env).orElse(null)),
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), null, starter,
                PostToolHook.StatsLease.PER_CALL);
        int code = main.run(args);
        return new CliRunner.Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The same call through the daemon: folder {@code cwd}, exactly {@code env}. */
    private CliRunner.Run viaDaemon(HookDaemon d, Path cwd, Map<String, String> env, String stdin, String... args) throws Exception {
        HttpResponse<byte[]> resp = post(d, "/hook", secret(), new HookRequest(cwd, List.of(args), env, stdin.getBytes(StandardCharsets.UTF_8)).encode());
        assertEquals(200, resp.statusCode(), new String(resp.body(), StandardCharsets.UTF_8));
        int exit = Integer.parseInt(resp.headers().firstValue("X-Engram-Exit").orElseThrow());
        String err = resp.headers().firstValue("X-Engram-Stderr").map(s -> new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8))
                .orElse("");
        return new CliRunner.Run(exit, new String(resp.body(), StandardCharsets.UTF_8), err);
    }

    private static void assertSame(CliRunner.Run own, CliRunner.Run served, String what) {
        assertEquals(own.exitCode(), served.exitCode(), what);
        assertEquals(own.out(), served.out(), what);
        assertEquals(own.err(), served.err(), what);
    }

    /** One call, in its own JVM on store {@code store} and through the daemon on its twin: the same bytes out. */
    private CliRunner.Run same(HookDaemon d, String stdin, String... args) throws Exception {
        CliRunner.Run own = inProcess(dir, env("store"), stdin, HookDaemonStarter.NONE, args);
        CliRunner.Run served = viaDaemon(d, dir, env("twin"), stdin, args);
        assertSame(own, served, String.join(" ", args) + " on " + stdin);
        return own;
    }

    @Test
    void sessionStartPromptAndStopAnswerAsInTheirOwnJvm() throws Exception {
        for (int i = 0; i < 6; i++) { // more than a 120-token briefing holds
            assertEquals(0, runner("store").run("remember", "Service " + i + " reads its settings from the environment first, "
                    + "then from config/service-" + i + ".yaml, and refuses to start when neither names a database", "--type", "fact").exitCode());
        }
        // the prompt hook recalls entities (brain-tools' shape)
        try (Main.OpenEngine opened = Main.openEmbedded(new ConfigLoader(env("store"), dir, dir, "Linux").load(new GlobalOptions()),
                Clock.systemUTC(), null)) {
            opened.engine().entities().create("default", List.of(new EntityDraft("billing-service", "Project",
                    List.of("deploys after the payments migration", "runs on Kubernetes"))), ExistingEntity.MERGE);
        }
        copy(dir.resolve("store"), dir.resolve("twin"));
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        String claude = JSON.write(Map.of("session_id", "s1", "cwd", dir.toString(), "hook_event_name", "SessionStart", "source", "startup"));
        String antigravity = JSON.write(Map.of("conversationId", "c1", "workspacePaths", List.of(dir.toString()),
                "hookEventName", "PreInvocation"));
        // an agent named, then none: the daemon's reused command line keeps no option or argument of the call before
        CliRunner.Run steps = same(d, antigravity, "hook", "session-start", "antigravity");
        assertTrue(steps.out().startsWith("{\"injectSteps\":[{\"ephemeralMessage\":") && steps.out().contains("payments migration"), steps.out());
        CliRunner.Run brief = same(d, claude, "hook", "session-start", "claude", "--budget-tokens", "120");
        assertTrue(brief.out().startsWith("{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":"), brief.out());
        assertTrue(same(d, claude, "hook", "session-start").out().length() > brief.out().length(), "the budget of the call before is gone");
        same(d, "", "hook", "session-start"); // no event: the caller's folder
        same(d, "not json", "hook", "session-start", "antigravity");
        settings.put("ENGRAM_HOOK_BUDGET_TOKENS", "lots");
        assertTrue(same(d, claude, "hook", "session-start").err().contains("'lots' is not a number of tokens"));
        settings.remove("ENGRAM_HOOK_BUDGET_TOKENS");

        String prompt = JSON.write(Map.of("session_id", "s1", "cwd", dir.toString(), "hook_event_name", "UserPromptSubmit",
                "prompt", "How do we deploy the billing service without breaking the payments migration?"));
        CliRunner.Run memories = same(d, prompt, "hook", "prompt");
        assertTrue(memories.out().contains("<memory zone=\"default\">\n  - **billing-service** (Project)"), memories.out() + memories.err());
        assertEquals("", same(d, JSON.write(Map.of("prompt", "ok thanks")), "hook", "prompt").out(), "an acknowledgement recalls nothing");

        String stop = JSON.write(Map.of("session_id", "s1", "cwd", dir.toString(), "hook_event_name", "Stop"));
        assertTrue(same(d, stop, "hook", "stop").err().contains("no chat model is configured"));
        assertEquals("{}\n", same(d, stop, "hook", "stop", "antigravity").out());
        assertEquals("", same(d, stop, "hook", "stop").out(), "no {} for the agent of the call before");
    }

    @Test
    void theToonProfilesHooksOpenTheProjectsStoreAsTheirOwnJvmDoes() throws Exception {
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        // two copies of one project, each with its own per-project store (toon keeps memory in the project)
        for (String project : List.of("own", "served")) {
            Path root = dir.resolve(project);
            Files.createDirectories(root);
            assertEquals(0, new CliRunner(dir, Map.of("ENGRAM_HOME", root.resolve(".engram-store").toString()),
                    (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null))
                    .run("remember", "Release builds are signed with the key in the team vault", "--type", "procedure").exitCode());
        }
        Map<String, String> toon = Map.of("ENGRAM_PROFILE", "toon", "XDG_DATA_HOME", dir.resolve("data").toString());
        for (String[] args : List.of(new String[] {"hook", "session-start", "claude"}, new String[] {"hook", "stop"})) {
            CliRunner.Run own = inProcess(dir.resolve("own"), toon, event(dir.resolve("own"), "s1"), HookDaemonStarter.NONE, args);
            CliRunner.Run served = viaDaemon(d, dir.resolve("served"), toon, event(dir.resolve("served"), "s1"), args);
            assertSame(own, served, String.join(" ", args));
        }
        CliRunner.Run brief = viaDaemon(d, dir.resolve("served"), toon, event(dir.resolve("served"), "s2"), "hook", "session-start");
        assertTrue(brief.out().contains("signed with the key in the team vault"), "the project's store: " + brief.out() + brief.err());
        assertTrue(brief.out().contains("checkpoint-s1"), "the checkpoint the stop hook wrote through the daemon: " + brief.out());
        assertFalse(Files.exists(dir.resolve("data").resolve("engram")), "not the user's default store");
    }

    private static String event(Path cwd, String session) {
        return JSON.write(Map.of("session_id", session, "cwd", cwd.toString(), "hook_event_name", "SessionStart"));
    }

    @Test
    void aStoreKeptOpenWithItsKeyAnswersACallWithoutItAsTheJvmDoes() throws Exception {
        String key = "0f".repeat(32);
        try (Main.OpenEngine e = Main.openEmbedded(new ConfigLoader(env("store"), dir, dir, "Linux").load(new GlobalOptions()),
                Clock.systemUTC(), null, null)) {
            e.engine().encryption().orElseThrow().encrypt(key);
        }
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        String claude = JSON.write(Map.of("session_id", "s1", "hook_event_name", "SessionStart"));
        for (String given : new String[] {key, null, "a1".repeat(32), key}) {
            if (given == null) settings.remove("TOON_MEMORY_KEY");
            else settings.put("TOON_MEMORY_KEY", given);
            CliRunner.Run own = inProcess(dir, env("store"), claude, HookDaemonStarter.NONE, "hook", "session-start");
            CliRunner.Run served = viaDaemon(d, dir, env("store"), claude, "hook", "session-start");
            assertSame(own, served, given == null ? "no key" : given.equals(key) ? "the key" : "another key");
            assertEquals(given != null && given.equals(key), served.out().contains("payments migration"), served.out() + served.err());
        }
    }

    @Test
    void promptAndStopWithAChatModelAreLeftToTheJvm() throws Exception {
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        settings.put("ENGRAM_LLM_URL", "http://127.0.0.1:9/v1");
        for (String hook : List.of("prompt", "stop")) {
            HttpResponse<byte[]> r = post(d, "/hook", secret(), new HookRequest(dir, List.of("hook", hook), env("store"),
                    "{}".getBytes(StandardCharsets.UTF_8)).encode());
            assertEquals(400, r.statusCode(), hook);
        }
        assertEquals(200, post(d, "/hook", secret(), new HookRequest(dir, List.of("hook", "session-start"), env("store"),
                new byte[0]).encode()).statusCode(), "the briefing asks no model");
        for (String model : List.of("ENGRAM_LLM_URL", "ENGRAM_LLM_KEY", "AI_API_BASE", "AI_API_KEY", "GROQ_API_KEY")) {
            assertFalse(HookRequest.answers("prompt", Map.of(model, "x")), model);
            assertFalse(HookRequest.answers("stop", Map.of(model, "x")), model);
            assertTrue(HookRequest.answers("session-start", Map.of(model, "x")), model);
        }
        assertTrue(HookRequest.answers("prompt", Map.of("ENGRAM_LLM_URL", " ")), "a blank variable configures nothing");
        assertTrue(HookRequest.answers("capture", Map.of("ENGRAM_LLM_URL", "x")), "capture asks no model");
        assertFalse(HookRequest.answers("daemon", Map.of()));
        assertFalse(HookRequest.answers("install", Map.of()));
    }

    @Test
    void aHookAnsweredInItsOwnJvmStartsTheDaemonWhenTheDaemonCouldAnswerIt() {
        List<String> started = new ArrayList<>();
        HookDaemonStarter recording = (env, dataDir, err) -> started.add(dataDir.toString());
        String event = JSON.write(Map.of("session_id", "s1", "prompt", "How do we deploy the billing service?"));
        Map<String, String> launched = new HashMap<>(env("store"));
        launched.put(HookDaemonStarter.LAUNCHER, "1"); // the engram launcher ran it: it sends the next calls to the daemon
        for (String hook : List.of("session-start", "prompt", "stop", "capture")) {
            started.clear();
            CliRunner.Run r = inProcess(dir, launched, event, recording, "hook", hook);
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(List.of(dir.resolve(".local/share/engram").toString()), started, hook);
        }
        Map<String, String> withModel = new HashMap<>(launched);
        withModel.put("AI_API_KEY", "k");
        withModel.put("AI_API_BASE", "http://127.0.0.1:9/v1");
        withModel.put("MEMORY_HOOK_AI_TIMEOUT", "200");
        withModel.put("MEMORY_SAVE_AI_TIMEOUT", "200");
        for (String hook : List.of("prompt", "stop")) {
            started.clear();
            inProcess(dir, withModel, event, recording, "hook", hook);
            assertEquals(List.of(), started, hook + " with a chat model: a daemon would not answer it");
        }
    }

    @Test
    void aHookNotRunByTheLauncherStartsNoDaemonItWouldNeverCall() {
        List<String> started = new ArrayList<>();
        HookDaemonStarter recording = (env, dataDir, err) -> started.add(dataDir.toString());
        String event = JSON.write(Map.of("session_id", "s1", "prompt", "How do we deploy the billing service?"));
        Map<String, String> other = new HashMap<>(env("store"));
        other.put(HookDaemonStarter.LAUNCHER, "0");
        for (Map<String, String> env : List.of(env("store"), other)) {
            for (String hook : List.of("session-start", "prompt", "stop", "capture", "post-tool")) {
                CliRunner.Run r = inProcess(dir, env, event, recording, "hook", hook);
                assertTrue(r.exitCode() <= 1, r.err());
            }
        }
        assertEquals(List.of(), started, "java -jar engram.jar hook …: no daemon (~135 MB for 30 minutes) that nothing calls");
    }

    /** {@code git ARGS} in {@code dir}; the test is skipped where there is no git. */
    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@example.com"));
        cmd.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(false, "no git: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
    }

    /** A project folder that is a git repository on branch feature/capture. */
    private Path repository(String name) throws Exception {
        Path root = dir.resolve(name);
        Files.createDirectories(root);
        git(root, "init", "-q");
        git(root, "commit", "-q", "--allow-empty", "-m", "start");
        git(root, "checkout", "-q", "-b", "feature/capture");
        return root;
    }

    /** The capture log of {@code project}, each line without its time (the one thing the two runs differ in). */
    private static List<String> captured(Path project) {
        return dev.engram.mcp.profile.toon.ToonCapture.read(project.resolve(".toon-memory/memory")).stream().map(o -> {
            assertTrue(o.instant() != null, "a time: " + o);
            return String.join("|", o.session(), o.agent(), o.branch(), o.tool(), o.hash(), o.file(), o.summary());
        }).toList();
    }

    @Test
    void captureLogsTheCallAsItsOwnJvmDoes() throws Exception {
        Path own = repository("own");
        Path served = repository("served");
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        String secret = "sk-" + "a".repeat(30);
        // an event per project: {cwd} is the project's folder, {rel} its name (relative to the caller's parent folder)
        List<Object[]> calls = List.of(
                new Object[] {"{\"session_id\":\"s1\",\"cwd\":\"{cwd}\",\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Bash\","
                        + "\"tool_input\":{\"command\":\"curl -H 'Authorization: Bearer abc.def-123' https://api && export OPENAI_API_KEY="
                        + secret + "\"}}", new String[] {"hook", "capture", "claude"}},
                new Object[] {"{\"session_id\":\"s1\",\"cwd\":\"{cwd}\",\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"src/app.py\","
                        + "\"new_string\":\"password = 'hunter2hunter2'\"}}", new String[] {"hook", "capture", "antigravity"}},
                // the same call again: the log skips it (five minutes), in the daemon as in the JVM
                new Object[] {"{\"session_id\":\"s1\",\"cwd\":\"{cwd}\",\"tool_name\":\"Edit\",\"tool_input\":{\"file_path\":\"src/app.py\","
                        + "\"new_string\":\"password = 'hunter2hunter2'\"}}", new String[] {"hook", "capture"}},
                // a relative cwd names no folder: the caller's, not the daemon process's, nor one relative to either
                new Object[] {"{\"session_id\":\"s2\",\"cwd\":\"{rel}\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"README.md\"}}",
                        new String[] {"hook", "capture", "codex"}},
                new Object[] {"{\"session_id\":\"s2\",\"tool_name\":\"Grep\",\"tool_input\":{\"pattern\":\"TODO\"}}", new String[] {"hook", "capture"}},
                new Object[] {"{\"session_id\":\"s2\",\"cwd\":\"{cwd}\"}", new String[] {"hook", "capture"}},
                new Object[] {"not json", new String[] {"hook", "capture", "antigravity"}},
                new Object[] {"", new String[] {"hook", "capture"}});
        Map<String, String> on = new HashMap<>(Map.of("ENGRAM_CAPTURE", "1", "XDG_DATA_HOME", dir.resolve("data").toString()));
        for (String key : new String[] {null, "0f".repeat(32)}) { // a store key changes nothing: capture opens no store
            if (key != null) on.put("TOON_MEMORY_KEY", key);
            for (Object[] call : calls) {
                String event = (String) call[0];
                String[] args = (String[]) call[1];
                // the hook runs in the project's folder
                CliRunner.Run a = inProcess(own, on, event.replace("{cwd}", own.toString()).replace("{rel}", "own"), HookDaemonStarter.NONE, args);
                CliRunner.Run b = viaDaemon(d, served, on, event.replace("{cwd}", served.toString()).replace("{rel}", "served"), args);
                String what = String.join(" ", args) + " on " + event;
                assertSame(a, b, what);
                assertEquals(captured(own), captured(served), what);
            }
        }
        List<String> log = captured(served);
        assertEquals(4, log.size(), "Bash, Edit (once), Read, Grep: " + log);
        assertTrue(log.stream().allMatch(l -> l.contains("|feature/capture|")), "the branch of the event's folder: " + log);
        String bash = log.get(3);
        assertTrue(bash.startsWith("s1|claude|feature/capture|Bash|") && bash.contains("Bearer <redacted>")
                && bash.contains("OPENAI_API_KEY=<redacted>") && !bash.contains(secret), bash);
        assertTrue(log.get(2).contains("|antigravity|feature/capture|Edit|") && log.get(2).contains("|src/app.py|password = '<redacted>"),
                log.get(2));
        assertTrue(log.get(1).startsWith("s2|codex|feature/capture|Read|"), log.get(1));
        assertFalse(Files.exists(Path.of("served", ".toon-memory")), "nothing in the daemon process's own folder");
        assertFalse(Files.exists(served.resolve("served")) || Files.exists(own.resolve("own")), "no folder made from a relative cwd");
        assertEquals("{}\n", viaDaemon(d, served, on, "{}", "hook", "capture", "antigravity").out(), "Antigravity's answer");

        // off: nothing logged, in the daemon as in the JVM; toon's config.json turns it on
        Map<String, String> off = Map.of("XDG_DATA_HOME", dir.resolve("data").toString());
        String grep = "{\"session_id\":\"s3\",\"cwd\":\"{cwd}\",\"tool_name\":\"Glob\",\"tool_input\":{\"pattern\":\"**/*.java\"}}";
        for (String config : new String[] {null, "{\"capture\": true}"}) {
            for (Path p : List.of(own, served)) {
                if (config != null) Files.writeString(p.resolve(".toon-memory/memory/config.json"), config);
            }
            assertSame(inProcess(own, off, grep.replace("{cwd}", own.toString()), HookDaemonStarter.NONE, "hook", "capture"),
                    viaDaemon(d, served, off, grep.replace("{cwd}", served.toString()), "hook", "capture"), "config " + config);
            assertEquals(captured(own), captured(served), "config " + config);
            assertEquals(config == null ? 4 : 5, captured(served).size(), "config " + config);
        }
    }

    @Test
    void aCaptureRunInTheDaemonAndAgainInItsJvmIsLoggedOnce() throws Exception {
        Path project = repository("project");
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        Map<String, String> on = Map.of("ENGRAM_CAPTURE", "1");
        for (int i = 0; i < 2; i++) {
            // the launcher stopped waiting, its JVM ran the call too: in either order
            String event = "{\"session_id\":\"s1\",\"cwd\":\"" + project + "\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make test " + i + "\"}}";
            if (i == 0) {
                viaDaemon(d, project, on, event, "hook", "capture");
                inProcess(project, on, event, HookDaemonStarter.NONE, "hook", "capture");
            } else {
                inProcess(project, on, event, HookDaemonStarter.NONE, "hook", "capture");
                viaDaemon(d, project, on, event, "hook", "capture");
            }
            assertEquals(i + 1, captured(project).size(), captured(project).toString());
        }
    }

    @Test
    void aCallItsLauncherStoppedWaitingForIsNotRun() throws Exception {
        Path project = repository("project");
        HookDaemon d = start(Duration.ofMinutes(5), new AtomicInteger());
        Map<String, String> on = new HashMap<>(Map.of("ENGRAM_CAPTURE", "1"));
        String event = "{\"session_id\":\"s1\",\"cwd\":\"" + project + "\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"make\"}}";
        java.util.function.Function<Double, Integer> sentAgo = seconds -> {
            try {
                String sent = String.format(java.util.Locale.ROOT, "%.6f", System.currentTimeMillis() / 1000.0 - seconds);
                return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + d.endpoint().port() + "/hook"))
                        .header("Authorization", secret()).header(HookRequest.SENT_HEADER, sent)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new HookRequest(project, List.of("hook", "capture"), on,
                                event.getBytes(StandardCharsets.UTF_8)).encode())).build(), HttpResponse.BodyHandlers.ofString()).statusCode();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        assertEquals(503, sentAgo.apply(2.5), "sent 2.5 s ago, and the launcher waits 2 s");
        assertEquals(List.of(), captured(project), "not run");
        on.put("ENGRAM_HOOK_DAEMON_TIMEOUT", "10");
        assertEquals(200, sentAgo.apply(2.5), "the launcher waits 10 s");
        assertEquals(1, captured(project).size());
        on.remove("ENGRAM_HOOK_DAEMON_TIMEOUT");
        assertEquals(200, sentAgo.apply(0.0));

        long now = 1_000_000_000_000L;
        assertFalse(HookRequest.givenUp(null, Map.of(), now), "a client that says nothing");
        assertFalse(HookRequest.givenUp("999999998.5", Map.of(), now));
        assertTrue(HookRequest.givenUp("999999997.9", Map.of(), now));
        assertTrue(HookRequest.givenUp("999999997,9", Map.of(), now), "a locale's decimal comma");
        assertFalse(HookRequest.givenUp("999999997", Map.of("ENGRAM_HOOK_DAEMON_TIMEOUT", "3.5"), now));
        assertFalse(HookRequest.givenUp("soon", Map.of(), now));
        assertFalse(HookRequest.givenUp("999999990", Map.of("ENGRAM_HOOK_DAEMON_TIMEOUT", "lots"), now), "the launcher's read fails on it");
    }
}
