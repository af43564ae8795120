package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.RememberCommand;
import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram hook session-start} and the toon checkpoint of {@code engram hook stop}, on real stores. */
class SessionStartHookTest {
    @TempDir
    Path tmp;
    Path project;
    private final JsonText json = JsonText.standard();

    record Run(int code, String out, String err) {
    }

    @BeforeEach
    void dirs() throws IOException {
        project = Files.createDirectories(tmp.resolve("project"));
        Files.createDirectories(project.resolve(".git"));
    }

    @AfterEach
    void restore() {
        HookSubcommand.stdin = System.in;
    }

    private Map<String, String> env(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.putIfAbsent("ENGRAM_HOME", tmp.resolve("store").toString());
        return env;
    }

    private Run engram(String stdin, Map<String, String> env, String... args) {
        HookSubcommand.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(env(env), tmp, tmp, "Linux", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null)).run(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private void seed(int extra) {
        EngramConfig config = new ConfigLoader(env(Map.of()), tmp, tmp, "Linux").load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            opened.engine().remember(remember("We deploy with Kubernetes on GKE every Friday afternoon", "deploy-day"));
            for (int i = 0; i < extra; i++) {
                opened.engine().remember(remember("Module " + i + " owns the billing export path and its retry rules number " + i,
                        "module-" + i));
            }
        }
    }

    private static RememberCommand remember(String content, String key) {
        return new RememberCommand(content, key, null, null, "default", null, null, null, null, null, null, false, null, null);
    }

    private String context(Run run) {
        Map<String, Object> root = json.readObject(run.out().strip());
        @SuppressWarnings("unchecked")
        Map<String, Object> specific = (Map<String, Object>) root.get("hookSpecificOutput");
        assertEquals("SessionStart", specific.get("hookEventName"));
        return (String) specific.get("additionalContext");
    }

    @Test
    void printsTheProjectsMemoriesAsAdditionalContext() {
        seed(0);
        Run run = engram("{\"session_id\":\"abc\",\"cwd\":\"" + project + "\",\"source\":\"startup\",\"future_field\":[1]}", Map.of(),
                "hook", "session-start", "claude");
        assertEquals(0, run.code(), run.err());
        assertTrue(context(run).contains("deploy-day: We deploy with Kubernetes on GKE every Friday afternoon"), run.out());
    }

    @Test
    void theBriefingNamesTheOtherActiveSessionsAndTheFilesTwoOfThemTouched() {
        seed(0);
        EngramConfig config = new ConfigLoader(env(Map.of()), tmp, tmp, "Linux").load(new GlobalOptions());
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            var registry = opened.engine().sessions();
            long pid = ProcessHandle.current().pid(); // alive, so never pruned
            registry.beat(new dev.engram.engine.session.Heartbeat("s1", "claude-code", registry.host(), pid, "feature/auth",
                    java.util.Set.of("src/auth.ts", "src/types.ts")));
            registry.beat(new dev.engram.engine.session.Heartbeat("s2", "codex", registry.host(), pid, "feature/db",
                    java.util.Set.of("src/types.ts")));
        }
        String briefing = context(engram("{}", Map.of(), "hook", "session-start", "claude"));
        assertTrue(briefing.contains("deploy-day"), briefing);
        assertTrue(briefing.contains("Active sessions (2, seen in the last 10 min):"), briefing);
        assertTrue(briefing.contains("- claude-code@feature/auth (pid "), briefing);
        assertTrue(briefing.contains("- codex@feature/db (pid "), briefing);
        assertTrue(briefing.contains("Files touched by more than one session:\n- src/types.ts (2 sessions)"), briefing);
    }

    @Test
    void theBriefingKeepsToTheTokenBudget() {
        seed(60);
        String big = context(engram("{}", Map.of(), "hook", "session-start"));
        String small = context(engram("{}", Map.of("ENGRAM_HOOK_BUDGET_TOKENS", "120"), "hook", "session-start"));
        String flag = context(engram("{}", Map.of("ENGRAM_HOOK_BUDGET_TOKENS", "5000"), "hook", "session-start", "--budget-tokens", "120"));
        assertTrue(small.length() < big.length(), small);
        assertEquals(small, flag, "the flag wins over the environment");
        // a token is about four characters: 120 tokens cannot print more than a few short lines
        assertTrue(small.length() <= 120 * 4 + 200, small.length() + " characters:\n" + small);
        assertTrue(big.lines().filter(l -> l.startsWith("- ")).count() > small.lines().filter(l -> l.startsWith("- ")).count());
    }

    /** The toon profile's project store, with {@code count} memories of about {@code chars} characters each. */
    private void seedProject(int count, int chars) {
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", "");
        ConfigLoader loader = new ConfigLoader(env, project, tmp, "Linux");
        try (Main.OpenEngine opened = Main.openEmbedded(loader.perProject(loader.load(new GlobalOptions())), Clock.systemUTC(), null)) {
            for (int i = 0; i < count; i++) {
                StringBuilder content = new StringBuilder("Module " + i + " owns");
                while (content.length() < chars) content.append(" the billing export path ").append(content.length());
                opened.engine().remember(remember(content.toString(), "module-" + i));
            }
        }
    }

    private void toonSessions(int count, int files) throws IOException {
        Path sessions = Files.createDirectories(project.resolve(".toon-memory/memory/sessions"));
        java.time.Instant now = java.time.Instant.now();
        for (int i = 0; i < count; i++) {
            StringBuilder touched = new StringBuilder();
            for (int j = 0; j < files; j++) {
                touched.append(j == 0 ? "" : ",").append("\"src/main/java/com/example/module").append(j).append("/Service").append(j)
                        .append(".java\":\"").append(now).append('"');
            }
            Files.writeString(sessions.resolve("toon-" + i + ".json"), "{\"id\":\"toon-" + i + "\",\"agent\":\"claude\",\"pid\":"
                    + (1000 + i) + ",\"branch\":\"feature/" + "x".repeat(50) + "\",\"startedAt\":\"" + now + "\",\"lastSeen\":\"" + now
                    + "\",\"files\":{" + touched + "}}");
        }
    }

    private Run toonStart(Map<String, String> more, String... args) {
        Map<String, String> env = new HashMap<>(more);
        env.put("ENGRAM_HOME", "");
        List<String> all = new ArrayList<>(List.of("hook", "session-start", "claude", "--profile", "toon"));
        all.addAll(List.of(args));
        return engram("{\"cwd\":\"" + project + "\"}", env, all.toArray(String[]::new));
    }

    @Test
    void sessionsAndTheFilesTheyShareAreCutToTheBudgetWithTheMemories() throws IOException {
        seedProject(3, 100);
        toonSessions(2, 800); // two sessions sharing 800 files printed 54,000 characters
        String two = context(toonStart(Map.of()));
        assertTrue(two.length() <= 2000 * 4, two.length() + " characters for a 2000-token budget");
        assertTrue(two.contains("module-0: Module 0 owns"), "the memories keep their place:\n" + two);
        assertTrue(two.contains("Active sessions (2, seen in the last 10 min):\n- claude (toon-memory)@feature/"), two);
        assertTrue(two.matches("(?s).*\nFiles touched by more than one session:\n- src/.*\n- … and \\d+ more files"), two);

        toonSessions(200, 8);
        String many = context(toonStart(Map.of(), "--budget-tokens", "300"));
        assertTrue(many.length() <= 300 * 4, many.length() + " characters for a 300-token budget:\n" + many);
        assertTrue(many.contains("Active sessions (200, seen in the last 10 min):"), many);
        assertTrue(many.contains("\n- … and "), many);
        assertTrue(many.lines().allMatch(l -> l.length() <= 240), "no one line takes the section:\n" + many);
    }

    @Test
    void noBudgetPrintsMoreThanTheTenThousandCharactersClaudeCodeKeepsInline() throws IOException {
        seedProject(12, 1500);
        toonSessions(20, 8);
        Run env = toonStart(Map.of("ENGRAM_HOOK_BUDGET_TOKENS", "20000"));
        assertTrue(context(env).length() <= 10_000, context(env).length() + " characters");
        assertTrue(context(env).length() > 8_000, "the cap, not the default: " + context(env).length());
        assertTrue(env.err().contains("ENGRAM_HOOK_BUDGET_TOKENS 20000 is more than the 2500 tokens (10000 characters) an agent keeps of a"
                + " hook's output; using 2500"), env.err());
        Run flag = toonStart(Map.of(), "--budget-tokens", "999999");
        assertEquals(context(env), context(flag));
        assertTrue(flag.err().contains("--budget-tokens 999999 is more than the 2500 tokens"), flag.err());
    }

    @Test
    void badInputExitsZeroWithNothingHarmfulPrinted() {
        seed(0);
        for (String stdin : List.of("not json{", "", "[1,2]", "{\"cwd\": 42}", "{\"cwd\": \"/does/not/exist\"}")) {
            Run run = engram(stdin, Map.of(), "hook", "session-start", "claude");
            assertEquals(0, run.code(), stdin);
            // stdout is either nothing or the one JSON object the host reads
            if (!run.out().isBlank()) assertTrue(context(run).contains("deploy-day"), stdin + " → " + run.out());
        }
        Run badBudget = engram("{}", Map.of("ENGRAM_HOOK_BUDGET_TOKENS", "lots"), "hook", "session-start");
        assertEquals(0, badBudget.code());
        assertTrue(badBudget.err().contains("ENGRAM_HOOK_BUDGET_TOKENS 'lots' is not a number of tokens in 50..2500; using 2000"),
                badBudget.err());
        Run badStore = engram("{}", Map.of("ENGRAM_STORE", "mysql://nope"), "hook", "session-start");
        assertEquals(0, badStore.code());
        assertEquals("", badStore.out());
        assertTrue(badStore.err().startsWith("engram hook session-start: "), badStore.err());
    }

    @Test
    void forAntigravityTheBriefingIsAnEphemeralStepAndEveryHookAnswersJson() throws IOException {
        seed(0);
        // Antigravity's PreInvocation event: flat, camelCase, the workspace as a list
        String event = "{\"conversationId\":\"c-0042\",\"workspacePaths\":[\"" + project + "\"],\"transcriptPath\":\""
                + tmp.resolve("none.jsonl") + "\",\"invocationNum\":0,\"initialNumSteps\":3}";
        for (String agent : List.of("antigravity", "agy")) {
            Run run = engram(event, Map.of(), "hook", "session-start", agent);
            assertEquals(0, run.code(), run.err());
            Map<String, Object> root = json.readObject(run.out().strip());
            assertEquals(java.util.Set.of("injectSteps"), root.keySet(), run.out());
            List<?> steps = (List<?>) root.get("injectSteps");
            assertEquals(1, steps.size(), run.out());
            Map<?, ?> step = (Map<?, ?>) steps.get(0);
            assertEquals(java.util.Set.of("ephemeralMessage"), step.keySet(), "nothing its protojson decoder would refuse");
            assertTrue(((String) step.get("ephemeralMessage")).contains("deploy-day: We deploy with Kubernetes on GKE every Friday afternoon"),
                    run.out());
        }
        // nothing to brief, or a failure: {} (an empty answer fails the hook, and a failed PreInvocation stops the model call)
        assertEquals("{}\n", engram(event, Map.of("ENGRAM_HOME", tmp.resolve("empty").toString()), "hook", "session-start", "antigravity").out());
        Run bad = engram(event, Map.of("ENGRAM_STORE", "mysql://nope"), "hook", "session-start", "antigravity");
        assertEquals("{}\n", bad.out());
        assertTrue(bad.err().startsWith("engram hook session-start: "), bad.err());
        assertEquals("{}\n", engram("not json{", Map.of(), "hook", "stop", "antigravity").out());
        assertEquals("", engram("{}", Map.of(), "hook", "stop").out(), "other agents' stop hook prints nothing, as before");
        // the workspace is the event's workspacePaths[0]: the toon profile's per-project store opens there
        Map<String, String> perProject = new HashMap<>();
        perProject.put("ENGRAM_HOME", "");
        assertEquals("{}\n", engram(event, perProject, "hook", "session-start", "antigravity", "--profile", "toon").out());
        assertTrue(Files.isDirectory(project.resolve(".engram-store")), "the store of the event's workspace, not of the hook's folder");
        // PostToolUse: the tool call is read from toolCall {name, args}
        String tool = "{\"conversationId\":\"c-0042\",\"workspacePaths\":[\"" + project + "\"],\"toolCall\":{\"name\":\"run_command\","
                + "\"args\":{\"command\":\"npm test\"}}}";
        Run capture = engram(tool, Map.of("ENGRAM_CAPTURE", "1"), "hook", "capture", "antigravity");
        assertEquals("{}\n", capture.out(), capture.err());
        String log = Files.readString(project.resolve(".toon-memory/memory/observations.toon"));
        assertTrue(log.contains("|c-0042|antigravity|") && log.contains("|run_command|") && log.contains("|npm test"), log);
    }

    @Test
    void anEmptyStorePrintsNothing() {
        Run run = engram("{}", Map.of(), "hook", "session-start", "claude");
        assertEquals(0, run.code());
        assertEquals("", run.out());
    }

    @Test
    void withTheToonProfileTheBriefingComesFromTheProjectStore() {
        seed(0); // the user store: not the toon profile's
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", ""); // toon's per-project store applies only when no store is named
        Run empty = engram("{\"cwd\":\"" + project + "\"}", env, "hook", "session-start", "claude", "--profile", "toon");
        assertEquals(0, empty.code(), empty.err());
        assertEquals("", empty.out(), "the project's store is empty");
        assertTrue(Files.isDirectory(project.resolve(".engram-store")));
    }

    @Test
    void withTheToonProfileTheBriefingAlsoNamesSessionsToonMemoryRecordsInItsFolder() throws IOException {
        Path sessions = Files.createDirectories(project.resolve(".toon-memory/memory/sessions"));
        java.time.Instant now = java.time.Instant.now();
        Files.writeString(sessions.resolve("t1.json"), "{\"id\":\"t1\",\"agent\":\"gemini\",\"pid\":9,\"branch\":\"main\","
                + "\"startedAt\":\"" + now + "\",\"lastSeen\":\"" + now + "\",\"ended\":false,\"files\":{\"src/a.ts\":\"" + now + "\"}}");
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", "");
        String briefing = context(engram("{\"cwd\":\"" + project + "\"}", env, "hook", "session-start", "claude", "--profile", "toon"));
        assertTrue(briefing.contains("Active sessions (1, seen in the last 10 min):\n- gemini (toon-memory)@main (pid 9, now, files: src/a.ts)"),
                briefing);
        // the native profile has no toon folder to read
        assertEquals("", engram("{\"cwd\":\"" + project + "\"}", Map.of(), "hook", "session-start", "claude").out());
    }

    /** {@code engram hook stop} with the toon profile in the project, {@code stdin} as the event. */
    private Run toonStop(String stdin) {
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", "");
        env.put("ENGRAM_PROFILE", "toon");
        HookSubcommand.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new Main(env, project, tmp, "Linux", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null)).run("hook", "stop");
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private List<String> projectKeys() {
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", "");
        ConfigLoader loader = new ConfigLoader(env, project, tmp, "Linux");
        List<String> keys = new ArrayList<>();
        try (Main.OpenEngine opened = Main.openEmbedded(loader.perProject(loader.load(new GlobalOptions())), Clock.systemUTC(), null)) {
            opened.engine().export(null, r -> keys.add(r.memory().key()));
        }
        return keys;
    }

    @Test
    void stopWithTheToonProfileWritesNoCheckpointWithoutASessionAndReadsNoEndlessTranscript() {
        for (String stdin : List.of("", "not json{", "{}", "{\"session_id\":\"  \"}")) {
            Run run = toonStop(stdin);
            assertEquals(0, run.code(), run.err());
            assertTrue(run.err().contains("the event names no session (session_id); no checkpoint written"), stdin + ": " + run.err());
        }
        assertEquals(List.of(), projectKeys(), "no checkpoint-<random> for a turn no session owns");
        // /dev/zero never ends: read whole, it ran the JVM out of memory after 20 s
        Run zero = toonStop("{\"session_id\":\"5f3c9a21-77aa\",\"transcript_path\":\"/dev/zero\"}");
        assertEquals(0, zero.code(), zero.err());
        assertTrue(zero.err().contains("engram hook stop: the transcript /dev/zero is not a regular file; going on without it"), zero.err());
        assertTrue(zero.err().contains("checkpoint checkpoint-5f3c9a21 saved"), zero.err());
        assertEquals(List.of("checkpoint-5f3c9a21"), projectKeys());
    }

    @Test
    void stopWithTheToonProfileWritesTheSessionCheckpoint() throws IOException {
        Path transcript = tmp.resolve("t.jsonl");
        Files.writeString(transcript, String.join("\n",
                "{\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"name\":\"Edit\",\"input\":{\"file_path\":\"src/a.ts\"}}]}}",
                "{\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"name\":\"Read\",\"input\":{\"file_path\":\"src/b.ts\"}}]}}"));
        Map<String, String> env = new HashMap<>();
        env.put("ENGRAM_HOME", "");
        env.put("ENGRAM_PROFILE", "toon");
        // the hook runs in the project, as agents run their hooks
        HookSubcommand.stdin = new ByteArrayInputStream(("{\"session_id\":\"5f3c9a21-77aa\",\"cwd\":\"" + project
                + "\",\"transcript_path\":\"" + transcript + "\"}").getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Map<String, String> full = new HashMap<>(env);
        int code = new Main(full, project, tmp, "Linux", new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null)).run("hook", "stop");
        assertEquals(0, code);
        assertTrue(err.toString().contains("checkpoint checkpoint-5f3c9a21 saved"), err.toString());
        ConfigLoader loader = new ConfigLoader(full, project, tmp, "Linux");
        EngramConfig config = loader.perProject(loader.load(new GlobalOptions()));
        List<dev.engram.memory.Memory> found = new ArrayList<>();
        try (Main.OpenEngine opened = Main.openEmbedded(config, Clock.systemUTC(), null)) {
            opened.engine().export(null, r -> found.add(r.memory()));
        }
        assertEquals(1, found.size());
        dev.engram.memory.Memory m = found.get(0);
        assertEquals("checkpoint-5f3c9a21", m.key());
        assertTrue(m.content().contains("Files touched: src/a.ts, src/b.ts"), m.content());
        assertTrue(m.expiresAt() != null && m.expiresAt().isAfter(java.time.Instant.now().plus(java.time.Duration.ofDays(6))));
        assertFalse(m.tags().isEmpty());
    }
}
