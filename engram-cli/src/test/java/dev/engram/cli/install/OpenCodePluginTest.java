package dev.engram.cli.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Engram's OpenCode plugin run as OpenCode runs it: the module is imported by Node (OpenCode's own runtime is Bun;
 * both load it as an ES module), its plugin function called with OpenCode's input, and its hooks called with the
 * events OpenCode sends. A stand-in {@code engram} script records each command line and what it got on stdin.
 * Skipped where no {@code node} is on the PATH, or on Windows (the stand-in is a shell script).
 */
class OpenCodePluginTest {
    @TempDir
    Path tmp;
    Path engram;
    Path calls;

    private static final String BRIEFING = "Pinned: the build needs Java 17";

    @BeforeEach
    void standIn() throws IOException {
        Assumptions.assumeFalse(System.getProperty("os.name").toLowerCase().startsWith("windows"), "the stand-in is a POSIX script");
        Assumptions.assumeTrue(node(), "node is not on the PATH");
        calls = tmp.resolve("calls.log");
        engram = tmp.resolve("bin with space").resolve("engram");
        Files.createDirectories(engram.getParent());
        Files.writeString(engram, """
                #!/bin/sh
                input=$(cat)
                printf '%s\\t%s\\n' "$*" "$input" >> "$(dirname "$0")/../calls.log"
                case "$1 $2" in
                  "hook session-start") printf '%s\\n' '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"BRIEFING"}}' ;;
                esac
                """.replace("BRIEFING", BRIEFING));
        assertTrue(engram.toFile().setExecutable(true));
    }

    private static boolean node() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Imports the plugin, drives one session through it, and returns what the harness printed (JSON). */
    private Map<String, Object> drive(String plugin) throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Files.writeString(tmp.resolve("plugin.mjs"), plugin);
        Files.writeString(tmp.resolve("harness.mjs"), """
                const module = await import("./plugin.mjs")
                const plugin = await module.EngramMemory({ directory: process.argv[2], worktree: process.argv[2] })
                const out = { exports: Object.keys(module), hooks: Object.keys(plugin).sort() }
                await plugin.event({ event: { type: "session.created", properties: { info: { id: "ses_1" } } } })
                out.first = { system: ["base"] }
                await plugin["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, out.first)
                out.second = { system: ["base"] }
                await plugin["experimental.chat.system.transform"]({ sessionID: "ses_1", model: {} }, out.second)
                out.noSession = { system: ["base"] }
                await plugin["experimental.chat.system.transform"]({ model: {} }, out.noSession)
                if (plugin["tool.execute.before"]) {
                  await plugin["tool.execute.before"]({ tool: "edit", sessionID: "ses_1", callID: "c1" },
                    { args: { filePath: "/p/src/App.java", oldString: "a", newString: "b" } })
                  await plugin["tool.execute.after"]({ tool: "edit", sessionID: "ses_1", callID: "c1" }, { title: "", output: "", metadata: {} })
                  await plugin["tool.execute.after"]({ tool: "bash", sessionID: "ses_1", callID: "c2", args: { command: "mvn test" } },
                    { title: "", output: "", metadata: {} })
                }
                await plugin.event({ event: { type: "session.idle", properties: { sessionID: "ses_1" } } })
                await plugin.event({ event: { type: "message.updated", properties: {} } })
                console.log(JSON.stringify(out))
                """);
        Process p = new ProcessBuilder("node", tmp.resolve("harness.mjs").toString(), project.toString())
                .directory(tmp.toFile()).redirectErrorStream(true).start();
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), printed);
        assertEquals(0, p.exitValue(), printed);
        Map<String, Object> out = dev.engram.mcp.json.JsonText.standard()
                .readObject(printed.lines().reduce((a, b) -> b).orElse("{}"));
        return out;
    }

    /** The recorded calls once {@code n} have arrived (hooks that are not awaited finish on their own time). */
    private List<String> calls(int n) throws Exception {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> lines = List.of();
        while (System.nanoTime() < until) {
            lines = Files.exists(calls) ? Files.readAllLines(calls) : List.of();
            if (lines.size() >= n) break;
            Thread.sleep(50);
        }
        Thread.sleep(300); // and no more than that
        return Files.exists(calls) ? Files.readAllLines(calls) : List.of();
    }

    @Test
    void theBriefingJoinsTheSystemPromptOnceASessionAndCaptureAndStopRunTheirHooks() throws Exception {
        String plugin = OpenCodePlugin.text(List.of(engram.toString()), List.of("hook", "session-start", "opencode", "--profile", "toon"),
                List.of("hook", "capture", "opencode"), List.of("hook", "stop", "--profile", "toon"));
        Map<String, Object> out = drive(plugin);
        assertEquals(List.of("EngramMemory"), out.get("exports"), "OpenCode calls every export as a plugin: one only");
        assertEquals(Map.of("system", List.of("base", BRIEFING)), out.get("first"));
        assertEquals(Map.of("system", List.of("base", BRIEFING)), out.get("second"));
        assertEquals(Map.of("system", List.of("base")), out.get("noSession"));
        List<String> lines = calls(4);
        String project = tmp.resolve("project").toString();
        List<String> starts = new ArrayList<>(lines.stream().filter(l -> l.startsWith("hook session-start")).toList());
        assertEquals(1, starts.size(), "one session-start per session, whatever the number of model calls: " + lines);
        assertTrue(starts.get(0).startsWith("hook session-start opencode --profile toon\t{"), starts.get(0));
        Map<String, Object> event = json(starts.get(0));
        assertEquals("ses_1", event.get("session_id"));
        assertEquals(project, event.get("cwd"));
        assertEquals("SessionStart", event.get("hook_event_name"));
        List<Map<String, Object>> captures = lines.stream().filter(l -> l.startsWith("hook capture opencode\t")).map(OpenCodePluginTest::json).toList();
        assertEquals(2, captures.size(), lines.toString());
        Map<String, Object> edit = captures.stream().filter(c -> "edit".equals(c.get("tool_name"))).findFirst().orElseThrow();
        @SuppressWarnings("unchecked") Map<String, Object> input = (Map<String, Object>) edit.get("tool_input");
        assertEquals("/p/src/App.java", input.get("file_path"), "OpenCode's filePath reaches capture as Claude Code's file_path");
        assertEquals("b", input.get("new_string"));
        assertEquals("ses_1", edit.get("session_id"));
        Map<String, Object> bash = captures.stream().filter(c -> "bash".equals(c.get("tool_name"))).findFirst().orElseThrow();
        assertEquals(Map.of("command", "mvn test"), bash.get("tool_input"));
        List<String> stops = lines.stream().filter(l -> l.startsWith("hook stop --profile toon\t")).toList();
        assertEquals(1, stops.size(), lines.toString());
        assertEquals("ses_1", json(stops.get(0)).get("session_id"));
        assertEquals(4, lines.size(), lines.toString());
    }

    @Test
    void withoutCaptureOrStopOnlyTheBriefingRuns() throws Exception {
        String plugin = OpenCodePlugin.text(List.of(engram.toString()), List.of("hook", "session-start", "opencode", "--profile", "native"),
                null, null);
        Map<String, Object> out = drive(plugin);
        assertEquals(List.of("event", "experimental.chat.system.transform"), out.get("hooks"));
        assertEquals(Map.of("system", List.of("base", BRIEFING)), out.get("first"));
        List<String> lines = calls(1);
        assertEquals(1, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("hook session-start opencode --profile native\t"), lines.get(0));
    }

    @Test
    void aHookThatFailsOrCannotStartAddsNothingAndNeverThrows() throws Exception {
        Files.writeString(engram, "#!/bin/sh\ncat > /dev/null\necho 'not json'\nexit 3\n");
        Map<String, Object> broken = drive(OpenCodePlugin.text(List.of(engram.toString()), List.of("hook", "session-start", "opencode"),
                List.of("hook", "capture", "opencode"), List.of("hook", "stop")));
        assertEquals(Map.of("system", List.of("base")), broken.get("first"));
        Map<String, Object> missing = drive(OpenCodePlugin.text(List.of(tmp.resolve("no-such-engram").toString()),
                List.of("hook", "session-start", "opencode"), List.of("hook", "capture", "opencode"), List.of("hook", "stop")));
        assertEquals(Map.of("system", List.of("base")), missing.get("first"));
    }

    private static Map<String, Object> json(String line) {
        return dev.engram.mcp.json.JsonText.standard().readObject(line.substring(line.indexOf('\t') + 1));
    }
}
