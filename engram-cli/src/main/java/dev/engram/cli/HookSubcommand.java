package dev.engram.cli;

import dev.engram.cli.hook.EntityGraphHookMemory;
import dev.engram.cli.hook.HookSettings;
import dev.engram.cli.hook.PromptHook;
import dev.engram.cli.hook.StopHook;
import dev.engram.llm.ChatModels;
import java.io.InputStream;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

/**
 * Claude Code hooks as commands: {@code engram hook prompt} (UserPromptSubmit) and {@code engram hook
 * stop} (Stop). Both read the event's JSON on stdin, exit 0 whatever happens to them (a hook must never
 * break the agent) and log their own problems to stderr.
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        description = {"Claude Code hooks: `engram hook prompt` (UserPromptSubmit) prints the memories relevant to the",
                "prompt; `engram hook stop` (Stop) saves what the turn taught, when a chat model is configured",
                "(ENGRAM_LLM_URL / ENGRAM_LLM_KEY). Zones: MEMORY_HOOK_ZONES, else --zone, else default.",
                "`engram hook capture` (PostToolUse, opt-in: ENGRAM_CAPTURE=1) logs the tool call to toon's capture log."},
        subcommands = {HookSubcommand.Prompt.class, HookSubcommand.Stop.class, HookSubcommand.Capture.class})
final class HookSubcommand implements Runnable {
    @ParentCommand
    EngramCommand root;

    /** Where the event comes from; tests replace it. */
    static InputStream stdin = System.in;

    @Override
    public void run() {
        root.spec.commandLine().getSubcommands().get("hook").usage(root.main().err());
    }

    @Command(name = "prompt", mixinStandardHelpOptions = true,
            description = "UserPromptSubmit: print <memory zone=\"…\"> blocks for the prompt on stdin (at most 10,000 characters).")
    static final class Prompt implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @Override
        public Integer call() {
            Main main = hook.root.main();
            try {
                EngramConfig config = hook.root.config();
                var env = main.configLoader().environment();
                HookSettings settings = HookSettings.from(env, config.defaultZone());
                var input = dev.engram.cli.hook.HookInputs.read(stdin, settings, main.json());
                try (Main.OpenEngine opened = main.openEngine(config)) {
                    String text = new PromptHook(new EntityGraphHookMemory(opened.engine().entities(), Clock.systemUTC()),
                            ChatModels.fromEnvironment(env, main.json()), settings, main.json(), main.err()::println).run(input);
                    if (!text.isEmpty()) main.out().print(text);
                }
            } catch (RuntimeException e) {
                main.err().println("engram hook prompt: " + e.getMessage());
            }
            return 0;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stop: with a chat model configured, save what the last turn taught; without one, do nothing.")
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @Override
        public Integer call() {
            Main main = hook.root.main();
            try {
                EngramConfig config = hook.root.config();
                var env = main.configLoader().environment();
                HookSettings settings = HookSettings.from(env, config.defaultZone());
                var model = ChatModels.fromEnvironment(env, main.json());
                if (model.isEmpty()) {
                    main.err().println("engram hook stop: no chat model is configured (ENGRAM_LLM_URL or ENGRAM_LLM_KEY); nothing saved");
                    return 0;
                }
                var input = dev.engram.cli.hook.HookInputs.read(stdin, settings, main.json());
                try (Main.OpenEngine opened = main.openEngine(config)) {
                    // what the hook saves is recorded as written by this Claude Code session
                    var graph = opened.engine().entities().by(dev.engram.mcp.tool.Caller.session("engram-hook",
                            input.text("session_id")), null);
                    StopHook.Outcome o = new StopHook(new EntityGraphHookMemory(graph, Clock.systemUTC()),
                            model, settings, main.json(), main.err()::println).run(input);
                    main.err().println(o.skipped() != null ? "engram hook stop: nothing saved: " + o.skipped()
                            : "engram hook stop: saved " + o.saved() + ", verified " + o.verified());
                }
            } catch (RuntimeException e) {
                main.err().println("engram hook stop: " + e.getMessage());
            }
            return 0;
        }
    }

    @Command(name = "capture", mixinStandardHelpOptions = true,
            description = {"PostToolUse: add the tool call on stdin to .toon-memory/memory/observations.toon (toon-memory's",
                    "capture log, read by the toon profile's memory_captured and memory_promote), secrets redacted.",
                    "Opt-in: does nothing unless ENGRAM_CAPTURE (or TOON_MEMORY_CAPTURE) is set, or the folder's",
                    "config.json says \"capture\": true. Opens no store; never fails the agent."})
    static final class Capture implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "AGENT", description = "Agent name recorded (default agent)")
        String agent;

        @Override
        public Integer call() {
            Main main = hook.root.main();
            try {
                var env = main.configLoader().environment();
                var input = dev.engram.cli.hook.HookInputs.read(stdin,
                        HookSettings.from(env, dev.engram.memory.MemoryRules.DEFAULT_ZONE), main.json());
                String cwd = input.text("cwd");
                java.nio.file.Path dir = cwd != null && !cwd.isBlank() ? java.nio.file.Path.of(cwd) : main.configLoader().cwd();
                java.nio.file.Path memory = dev.engram.mcp.profile.toon.ToonData.memoryFolder(java.util.List.of(dir));
                if (!dev.engram.mcp.profile.toon.ToonCapture.enabled(env, memory, main.json()::readObject)) return 0;
                var o = dev.engram.mcp.profile.toon.ToonCapture.observe(input.fields(), agent == null || agent.isBlank() ? "agent" : agent.strip(),
                        dev.engram.mcp.profile.toon.ToonCapture.branch(dir), java.time.Instant.now(), main.json()::write);
                if (o != null) dev.engram.mcp.profile.toon.ToonCapture.append(memory, o, java.time.Instant.now());
            } catch (java.io.IOException | RuntimeException e) {
                main.err().println("engram hook capture: " + e.getMessage());
            }
            return 0;
        }
    }
}
