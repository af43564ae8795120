package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram hook post-tool} end to end in-process on a real store: a post-tool event in Claude Code's,
 * Codex's and Cursor's shapes gives the memories about the file or command, in that host's output; the
 * gates (size, rate, dedup, breaker state kept in a file between calls) print nothing when they say no;
 * a bad payload is a message on stderr and exit 1; {@code engram hook feedback} rates what was shown.
 */
class PostToolHookCommandTest {
    private static final JsonText JSON = JsonText.standard();
    private static final String BIG = "x".repeat(6000);
    @TempDir
    Path dir;

    @BeforeEach
    void seed() {
        CliRunner cli = runner(Map.of());
        assertEquals(0, cli.run("remember", "The JWT handler rejects tokens older than 15 minutes; refresh them in the client",
                "--type", "warning", "--file", "src/auth/jwt_handler.py").exitCode());
        assertEquals(0, cli.run("remember", "Deploys of the billing service need the payments migration applied first",
                "--type", "procedure", "--key", "billing-deploy").exitCode());
        assertEquals(0, cli.run("remember", "Unrelated fact about the office coffee machine schedule", "--type", "fact").exitCode());
    }

    @AfterEach
    void reset() {
        HookSubcommand.stdin = System.in;
    }

    private Map<String, String> env(Map<String, String> more) {
        Map<String, String> env = new HashMap<>(more);
        env.put("ENGRAM_HOME", dir.resolve("store").toString());
        return env;
    }

    private CliRunner runner(Map<String, String> more) {
        return new CliRunner(dir, env(more), (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null));
    }

    private CliRunner.Run postTool(String stdin, Map<String, String> more, String... extra) {
        HookSubcommand.stdin = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        String[] args = new String[2 + extra.length];
        args[0] = "hook";
        args[1] = "post-tool";
        System.arraycopy(extra, 0, args, 2, extra.length);
        return runner(more).run(args);
    }

    private static String claudeRead(String path, String content) {
        return JSON.write(Map.of("session_id", "s1", "transcript_path", "/tmp/t.jsonl", "cwd", "/repo",
                "hook_event_name", "PostToolUse", "tool_name", "Read", "tool_input", Map.of("file_path", path),
                "tool_response", Map.of("type", "text", "file", Map.of("filePath", path, "content", content))));
    }

    @SuppressWarnings("unchecked")
    private static String claudeContext(String out) {
        Map<String, Object> o = JSON.readObject(out.strip());
        Map<String, Object> specific = (Map<String, Object>) o.get("hookSpecificOutput");
        assertEquals("PostToolUse", specific.get("hookEventName"));
        return (String) specific.get("additionalContext");
    }

    @Test
    void claudeCodesReadOfAFileGivesTheMemoriesScopedToItAsAdditionalContext() {
        CliRunner.Run r = postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of());
        assertEquals(0, r.exitCode(), r.err());
        String context = claudeContext(r.out());
        assertTrue(context.contains("JWT handler rejects tokens older than 15 minutes"), context);
        assertTrue(context.contains("<surfaced-memories>"), context);
        assertTrue(context.contains("engram hook feedback "), "the feedback path: " + context);
        assertFalse(context.contains("coffee"), context);
        assertTrue(context.length() <= 10_000);
    }

    @Test
    void codexsBashEventGivesMemoriesForTheCommandInTheSameOutputShape() {
        String event = JSON.write(Map.of("session_id", "c1", "turn_id", "t7", "cwd", "/repo", "model", "gpt-5-codex",
                "hook_event_name", "PostToolUse", "tool_name", "Bash", "tool_use_id", "call_1",
                "tool_input", Map.of("command", "kubectl rollout status deploy/billing service payments migration"),
                "tool_response", BIG));
        CliRunner.Run r = postTool(event, Map.of());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(claudeContext(r.out()).contains("payments migration applied first"), r.out());
    }

    @Test
    void cursorsEventsGiveAdditionalContextAndItsMcpInputMayBeAJsonString() {
        String shell = JSON.write(Map.of("conversation_id", "conv-1", "generation_id", "g1", "workspace_roots", List.of("/repo"),
                "hook_event_name", "afterShellExecution", "command", "deploy billing service after payments migration",
                "output", BIG, "duration", 150));
        CliRunner.Run r = postTool(shell, Map.of());
        assertEquals(0, r.exitCode(), r.err());
        Map<String, Object> o = JSON.readObject(r.out().strip());
        assertTrue(((String) o.get("additional_context")).contains("payments migration applied first"), r.out());
        assertFalse(o.containsKey("hookSpecificOutput"));

        String post = JSON.write(Map.of("conversation_id", "conv-1", "workspace_roots", List.of("/repo"),
                "hook_event_name", "postToolUse", "tool_name", "read_file",
                "tool_input", "{\"target_file\": \"/repo/src/auth/jwt_handler.py\"}", "tool_output", BIG));
        CliRunner.Run p = postTool(post, Map.of());
        assertEquals(0, p.exitCode(), p.err());
        assertTrue(((String) JSON.readObject(p.out().strip()).get("additional_context")).contains("JWT handler"), p.out());
    }

    @Test
    void gatesThatSayNoPrintNothing() {
        // a small result: below the minimum size, nothing is even opened
        CliRunner.Run small = postTool(claudeRead("/repo/src/auth/jwt_handler.py", "short"), Map.of());
        assertEquals(0, small.exitCode());
        assertEquals("", small.out());
        assertFalse(Files.exists(dir.resolve("store").resolve("hook-surfacing-state.json")), "nothing opened for it");
        // a write-like tool's result is a confirmation, not context
        String edit = JSON.write(Map.of("hook_event_name", "PostToolUse", "tool_name", "Edit", "cwd", "/repo",
                "tool_input", Map.of("file_path", "/repo/src/auth/jwt_handler.py"), "tool_response", BIG));
        assertEquals("", postTool(edit, Map.of()).out());
        // surfacing off
        assertEquals("", postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG),
                Map.of("ENGRAM_PROXY_SURFACING__ENABLED", "false")).out());
    }

    @Test
    void theDedupWindowAndTheRateLimitHoldAcrossHookProcesses() {
        assertFalse(postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of()).out().isEmpty());
        // the same file read again at once: the query is a repeat within the cooldown
        assertEquals("", postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of()).out());
        // another command about the same file: a new query, but its memory was surfaced within the dedup window
        String grep = JSON.write(Map.of("hook_event_name", "PostToolUse", "tool_name", "Bash", "cwd", "/repo",
                "tool_input", Map.of("command", "grep -n refresh /repo/src/auth/jwt_handler.py tokens"), "tool_response", BIG));
        assertEquals("", postTool(grep, Map.of()).out());
        // two per minute: the slots the first and the third call took are remembered in the state file
        Map<String, String> twoPerMinute = Map.of("ENGRAM_PROXY_SURFACING__MAX_SURFACINGS_PER_MINUTE", "2");
        String billing = JSON.write(Map.of("hook_event_name", "PostToolUse", "tool_name", "Bash", "cwd", "/repo",
                "tool_input", Map.of("command", "deploy billing service payments migration"), "tool_response", BIG));
        assertEquals("", postTool(billing, twoPerMinute).out(), "the rate limit, across processes");
        assertFalse(postTool(billing, Map.of()).out().isEmpty(), "the same call under the default rate surfaces");
        assertTrue(Files.exists(dir.resolve("store").resolve("hook-surfacing-state.json")));
    }

    @Test
    void anOpenBreakerInTheStateFilePrintsNothingUntilItsReset() throws Exception {
        Path state = dir.resolve("store").resolve("hook-surfacing-state.json");
        Files.createDirectories(state.getParent());
        Files.writeString(state, "{\"slots\":[],\"recent\":[],\"breaker\":{\"failures\":3,\"opened_at\":"
                + System.currentTimeMillis() + "}}");
        assertEquals("", postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of()).out());
        Files.writeString(state, "{\"slots\":[],\"recent\":[],\"breaker\":{\"failures\":3,\"opened_at\":"
                + (System.currentTimeMillis() - 120_000) + "}}");
        CliRunner.Run probe = postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of());
        assertTrue(claudeContext(probe.out()).contains("JWT handler"), "half-open after the reset: one probe, it worked");
        assertTrue(Files.readString(state).contains("\"failures\":0"), Files.readString(state));
    }

    @Test
    void aBadPayloadIsAClearMessageAndExitOneNeverAStackTrace() {
        for (String bad : List.of("", "not json", "[1,2]", "{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Read\"}",
                "{\"hook_event_name\":\"PostToolUse\"}")) {
            CliRunner.Run r = postTool(bad, Map.of());
            assertEquals(1, r.exitCode(), bad);
            assertEquals("", r.out(), bad);
            assertTrue(r.err().startsWith("engram hook post-tool: "), r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        }
        assertTrue(postTool("{\"hook_event_name\":\"PreToolUse\"}", Map.of()).err().contains("handles PostToolUse"));
        CliRunner.Run host = postTool(claudeRead("/repo/a.py", BIG), Map.of(), "--host", "vim");
        assertEquals(1, host.exitCode());
        assertTrue(host.err().contains("--host must be claude, codex or cursor, got 'vim'"), host.err());
    }

    @Test
    void feedbackRatesTheShownMemoriesThroughTheProxysFeedbackRules() {
        String context = claudeContext(postTool(claudeRead("/repo/src/auth/jwt_handler.py", BIG), Map.of()).out());
        Matcher id = Pattern.compile("_surfacing_id: ([0-9a-f]+)_").matcher(context);
        assertTrue(id.find(), context);
        CliRunner cli = runner(Map.of());
        CliRunner.Run ok = cli.run("hook", "feedback", id.group(1), "helpful");
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.out().contains("Recorded 1 rating for " + id.group(1)), ok.out());
        CliRunner.Run unknown = cli.run("hook", "feedback", "nope", "helpful");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.err().contains("no surfacing event 'nope'"), unknown.err());
        CliRunner.Run badRating = cli.run("hook", "feedback", id.group(1), "great");
        assertEquals(1, badRating.exitCode());
        assertTrue(badRating.err().contains("must be one of"), badRating.err());
    }
}
