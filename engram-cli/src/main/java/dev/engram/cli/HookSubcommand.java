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
 * Hooks as commands: {@code engram hook prompt} (Claude Code's UserPromptSubmit), {@code engram hook
 * stop} (Stop), {@code engram hook post-tool} (Claude Code's, Codex's and Cursor's post-tool events) and
 * {@code engram hook feedback}. Prompt and stop exit 0 whatever happens to them (a hook must never break
 * the agent) and log their own problems to stderr; post-tool exits 1 with a message on stderr for an
 * event it cannot read (all three hosts treat 1 as a non-blocking error) and 0 otherwise.
 */
@Command(name = "hook", mixinStandardHelpOptions = true,
        description = {"Claude Code hooks: `engram hook prompt` (UserPromptSubmit) prints the memories relevant to the",
                "prompt; `engram hook stop` (Stop) saves what the turn taught, when a chat model is configured",
                "(ENGRAM_LLM_URL / ENGRAM_LLM_KEY). Zones: MEMORY_HOOK_ZONES, else --zone, else default.",
                "`engram hook post-tool` (Claude Code / Codex PostToolUse, Cursor postToolUse, afterFileEdit,",
                "afterShellExecution) prints memories about the file or command a native tool touched;",
                "`engram hook feedback ID RATING` rates them.",
                "`engram hook capture` (PostToolUse, opt-in: ENGRAM_CAPTURE=1) logs the tool call to toon's capture log."},
        subcommands = {HookSubcommand.Prompt.class, HookSubcommand.Stop.class, HookSubcommand.PostTool.class,
                HookSubcommand.Feedback.class, HookSubcommand.Capture.class})
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

    @Command(name = "post-tool", mixinStandardHelpOptions = true,
            description = {"After a native tool ran: print memories about the file or command it touched, in the host's",
                    "hook output, when the proxy's surfacing gates allow (ENGRAM_PROXY_SURFACING__* settings). Nothing",
                    "printed when they do not. Exit 0; 1 with a message on stderr when stdin is not a post-tool event."})
    static final class PostTool implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Option(names = "--host", description = "claude, codex or cursor (default: told from the event)")
        String host;

        @Override
        public Integer call() {
            Main main = hook.root.main();
            dev.engram.cli.hook.PostToolEvent event;
            EngramConfig config;
            dev.engram.proxy.config.ProxySettings proxy;
            try {
                // the store or a setting is wrong: said on stderr, and the agent goes on (exit 0, as the other hooks)
                config = hook.root.config();
                proxy = dev.engram.proxy.config.ProxySettings.fromEnv(main.configLoader().environment());
            } catch (RuntimeException e) {
                main.err().println("engram hook post-tool: " + e.getMessage());
                return 0;
            }
            try {
                // what the host sent cannot be read: exit 1, a non-blocking error for all three hosts
                String text = dev.engram.cli.hook.HookInputs.readText(stdin,
                        HookSettings.from(main.configLoader().environment(), config.defaultZone()));
                event = dev.engram.cli.hook.PostToolEvent.parse(text,
                        host == null ? null : dev.engram.cli.hook.PostToolEvent.Host.parse(host), main.json()::readObject);
            } catch (RuntimeException e) {
                main.err().println("engram hook post-tool: " + e.getMessage());
                return 1;
            }
            Main.OpenEngine[] opened = new Main.OpenEngine[1];
            try {
                String zone = proxy.surfacing().zone() != null ? proxy.surfacing().zone() : config.defaultZone();
                java.security.SecureRandom random = new java.security.SecureRandom();
                String out = dev.engram.cli.hook.PostToolHook.surface(config.storeDir(), proxy.surfacing(), () -> {
                    opened[0] = main.openEngine(config);
                    return opened[0].engine();
                }, zone, event, main.json(), Clock.systemUTC(), () -> {
                    byte[] b = new byte[6];
                    random.nextBytes(b);
                    return java.util.HexFormat.of().formatHex(b);
                });
                if (!out.isEmpty()) main.out().print(out);
            } catch (RuntimeException e) {
                // the store or the search failed: the agent goes on without memories
                main.err().println("engram hook post-tool: " + e.getMessage());
            } finally {
                if (opened[0] != null) opened[0].close();
            }
            return 0;
        }
    }

    @Command(name = "feedback", mixinStandardHelpOptions = true,
            description = {"Rate memories a hook surfaced (the _surfacing_id: line): helpful, partially_helpful,",
                    "not_relevant or already_known; the gates tune their minimum score from the ratings, as the proxy's do."})
    static final class Feedback implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Parameters(index = "0", paramLabel = "SURFACING_ID")
        String surfacingId;

        @picocli.CommandLine.Parameters(index = "1", paramLabel = "RATING")
        String rating;

        @picocli.CommandLine.Option(names = "--memory-id", description = "rate one memory of that event instead of all")
        String memoryId;

        @Override
        public Integer call() {
            Main main = hook.root.main();
            EngramConfig config = hook.root.config(); // a store it must not use is refused as every command refuses it
            try {
                var settings = dev.engram.proxy.config.ProxySettings.fromEnv(main.configLoader().environment()).surfacing();
                try (var stats = new dev.engram.proxy.stats.ProxyStats(config.storeDir(), Clock.systemUTC());
                     var surfacer = new dev.engram.proxy.surfacing.Surfacer(settings, (q, n) -> java.util.List.of(),
                             Clock.systemUTC(), new dev.engram.proxy.surfacing.ThresholdTuner(settings, stats), stats, () -> "")) {
                    var tool = new dev.engram.proxy.tools.SurfacingFeedbackTool(stats, surfacer);
                    java.util.Map<String, Object> args = new java.util.LinkedHashMap<>();
                    args.put("surfacing_id", surfacingId);
                    args.put("rating", rating);
                    if (memoryId != null) args.put("memory_id", memoryId);
                    main.out().println(tool.call(dev.engram.mcp.tool.ToolArgs.of(tool.definition(), args)).text());
                }
                return 0;
            } catch (RuntimeException e) {
                main.err().println("engram hook feedback: " + e.getMessage());
                return 1;
            }
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
