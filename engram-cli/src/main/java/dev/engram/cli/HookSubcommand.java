package dev.engram.cli;

import dev.engram.cli.hook.EntityGraphHookMemory;
import dev.engram.cli.hook.HookRequest;
import dev.engram.cli.hook.HookSettings;
import dev.engram.cli.hook.PromptHook;
import dev.engram.cli.hook.StopHook;
import dev.engram.llm.ChatModels;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
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
        description = {"Agent hooks: memories into prompts and sessions, checkpoints, capture, ratings.",
                "Claude Code hooks: `engram hook prompt` (UserPromptSubmit) prints the memories relevant to the",
                "prompt; `engram hook stop` (Stop) saves what the turn taught, when a chat model is configured",
                "(ENGRAM_LLM_URL / ENGRAM_LLM_KEY). Zones: MEMORY_HOOK_ZONES, else --zone, else default.",
                "`engram hook post-tool` (Claude Code / Codex PostToolUse, Cursor postToolUse, afterFileEdit,",
                "afterShellExecution) prints memories about the file or command a native tool touched;",
                "`engram hook feedback ID RATING` rates them.",
                "`engram hook capture` (PostToolUse, opt-in: ENGRAM_CAPTURE=1) logs the tool call to toon's capture log.",
                "`engram hook session-start` (SessionStart) prints the project's briefing for the agent's context.",
                "`engram hook daemon` keeps the stores warm for the post-tool, feedback, session-start, capture, prompt",
                "and stop calls the launcher sends it (prompt and stop only without a chat model)."},
        subcommands = {HookSubcommand.Prompt.class, HookSubcommand.Stop.class, HookSubcommand.SessionStart.class, HookSubcommand.PostTool.class,
                HookSubcommand.Feedback.class, HookSubcommand.Capture.class, HookDaemonSubcommand.class})
final class HookSubcommand implements Runnable {
    @ParentCommand
    EngramCommand root;

    /** Where the event comes from; tests replace it. */
    static InputStream stdin = System.in;

    /** The event's stream: the daemon's request for a call it runs, else stdin. */
    static InputStream events(Main main) {
        return main.in() != null ? main.in() : stdin;
    }

    @Override
    public void run() {
        root.spec.commandLine().getSubcommands().get("hook").usage(root.main().err());
    }

    /**
     * One run of a hook that must never break its agent: the settings and the event are read on first
     * use, and whatever goes wrong is said on stderr under the hook's name while the hook exits 0.
     */
    static final class SoftRun {
        final Main main;
        final java.util.Map<String, String> env;
        private final HookSubcommand hook;
        private dev.engram.cli.hook.HookInput input;

        SoftRun(HookSubcommand hook) {
            this.hook = hook;
            this.main = hook.root.main();
            this.env = main.configLoader().environment();
        }

        EngramConfig config() {
            return hook.root.config();
        }

        HookSettings settings(String zone) {
            return HookSettings.from(env, zone);
        }

        /** The host's event; an unreadable one is an empty event (reading only needs the stdin timeout). */
        dev.engram.cli.hook.HookInput input() {
            if (input == null) input = dev.engram.cli.hook.HookInputs.read(events(main),
                    settings(dev.engram.memory.MemoryRules.DEFAULT_ZONE), main.json());
            return input;
        }
    }

    interface SoftHook {
        void run(SoftRun run) throws java.io.IOException;
    }

    /**
     * Whether {@code agent} is Antigravity, which decodes every hook's stdout as its own JSON message (protojson):
     * an empty or plain-text answer fails the hook, and a failed PreInvocation hook stops the model call. Its hooks
     * answer {@code {}} when they have nothing to add.
     */
    static boolean antigravity(String agent) {
        return agent != null && !agent.isBlank()
                && dev.engram.cli.install.Agents.find(agent).filter(a -> a.name().equals("antigravity")).isPresent();
    }

    /** After a hook for {@code agent} ran: Antigravity's answer when the hook printed none. */
    static int answered(Main main, String agent, boolean printed) {
        if (antigravity(agent) && !printed) main.out().println("{}");
        return 0;
    }

    /**
     * After {@code engram hook NAME} answered in this JVM: starts the resident hook daemon, so the launcher sends the
     * next calls to it (its fast path), when the launcher made this call ({@link HookDaemonStarter#callerUsesDaemon}:
     * a {@code java -jar} call never uses one) and the daemon answers this hook at all ({@link HookRequest#answers}).
     * In the daemon's own calls this starts nothing. Prints nothing on stdout.
     */
    static void startDaemon(Main main, String name) {
        Map<String, String> env = main.configLoader().environment();
        if (!HookDaemonStarter.callerUsesDaemon(env) || !HookRequest.answers(name, env)) return;
        main.out().flush();
        main.hookDaemon().afterInProcessCall(env, main.configLoader().dataDir(), main.err());
    }

    /**
     * The folder an event's {@code cwd} names when it is an existing absolute directory, else the folder the hook runs
     * in (the caller's: in the daemon that is not the process's own working folder). Hosts send an absolute cwd; a
     * relative or missing one is not a project the hook may write into (capture created
     * {@code /nonexistent/dir/.toon-memory/…} for one that named no folder).
     */
    static java.nio.file.Path eventFolder(Main main, String cwd) {
        if (cwd != null && !cwd.isBlank()) {
            try {
                java.nio.file.Path named = java.nio.file.Path.of(cwd);
                if (named.isAbsolute() && java.nio.file.Files.isDirectory(named)) return named;
            } catch (java.nio.file.InvalidPathException e) {
                // not a path: the hook's own folder
            }
        }
        return main.configLoader().cwd();
    }

    /** Runs {@code body} fail-soft: exit 0 whatever happens, its problems on stderr as {@code engram hook NAME: …}. */
    int failSoft(String name, SoftHook body) {
        SoftRun run = new SoftRun(this);
        try {
            body.run(run);
        } catch (java.io.IOException | RuntimeException e) {
            run.main.err().println("engram hook " + name + ": " + e.getMessage());
        }
        return 0;
    }

    @Command(name = "prompt", mixinStandardHelpOptions = true,
            description = "UserPromptSubmit: print <memory zone=\"…\"> blocks for the prompt on stdin (at most 10,000 characters).")
    static final class Prompt implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @Override
        public Integer call() {
            int code = hook.failSoft("prompt", run -> {
                EngramConfig config = run.config();
                HookSettings settings = run.settings(config.defaultZone());
                var input = run.input();
                try (Main.OpenEngine opened = run.main.openEngine(config)) {
                    String text = new PromptHook(new EntityGraphHookMemory(opened.engine().entities(), Clock.systemUTC()),
                            ChatModels.fromEnvironment(run.env, run.main.json()), settings, run.main.json(), run.main.err()::println).run(input);
                    if (!text.isEmpty()) run.main.out().print(text);
                }
            });
            startDaemon(hook.root.main(), "prompt");
            return code;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stop: save what the turn taught (with a chat model), toon's checkpoint.",
                "Stop: with a chat model configured, save what the last turn taught; without",
                    "one, do nothing. With the toon profile (--profile toon or ENGRAM_PROFILE=toon)",
                    "it also writes toon's session checkpoint (checkpoint-<session id>, 7 days:",
                    "date, branch, the files the turn touched) in the project's store; none when",
                    "the event names no session. The transcript is read from its last 4 MB."})
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "AGENT", description = "The agent running the hook"
                + " (antigravity: answered with {} on stdout, as it requires)")
        String agent;

        @picocli.CommandLine.Option(names = "--profile", paramLabel = "NAME", description = "The profile the agent's server runs (default native, or $ENGRAM_PROFILE)")
        String profile;

        @Override
        public Integer call() {
            hook.failSoft("stop", run -> {
                Main main = run.main;
                EngramConfig config = run.config();
                String profileName = main.configLoader().profile(profile, main.profiles());
                if (profileName.equals(dev.engram.mcp.profile.toon.ToonProfile.NAME)) checkpoint(run, main.configLoader().perProject(config));
                HookSettings settings = run.settings(config.defaultZone());
                var model = ChatModels.fromEnvironment(run.env, main.json());
                if (model.isEmpty()) {
                    main.err().println("engram hook stop: no chat model is configured (ENGRAM_LLM_URL or ENGRAM_LLM_KEY); nothing saved");
                    return;
                }
                var input = run.input();
                try (Main.OpenEngine opened = main.openEngine(config)) {
                    // what the hook saves is recorded as written by this Claude Code session
                    var graph = opened.engine().entities().by(dev.engram.mcp.tool.Caller.session("engram-hook",
                            input.text("session_id")), null);
                    StopHook.Outcome o = new StopHook(new EntityGraphHookMemory(graph, Clock.systemUTC()),
                            model, settings, main.json(), main.err()::println).run(input);
                    main.err().println(o.skipped() != null ? "engram hook stop: nothing saved: " + o.skipped()
                            : "engram hook stop: saved " + o.saved() + ", verified " + o.verified());
                }
            });
            int code = answered(hook.root.main(), agent, false);
            startDaemon(hook.root.main(), "stop");
            return code;
        }

        /** toon's checkpoint, through the toon profile's own code, in the store its MCP server uses for this project. */
        private static void checkpoint(SoftRun run, EngramConfig config) {
            Main main = run.main;
            var input = run.input();
            String sessionId = input.text("session_id");
            if (sessionId == null || sessionId.isBlank()) {
                // toon's checkpoint is named after the session: without one it would get a random name, a new
                // checkpoint at every turn, and empty or unreadable stdin would leave one too
                main.err().println("engram hook stop: the event names no session (session_id); no checkpoint written");
                return;
            }
            java.nio.file.Path dir = eventFolder(main, input.text("cwd"));
            String branch = dev.engram.mcp.profile.toon.ToonCapture.branch(dir);
            var files = dev.engram.cli.hook.Transcript.touchedFiles(input.text("transcript_path"), 400,
                    dev.engram.mcp.profile.toon.ToonCheckpoint.MAX_FILES, main.json()::readObject,
                    m -> main.err().println("engram hook stop: " + m));
            try (Main.OpenEngine opened = main.openEngine(config)) {
                var saved = dev.engram.mcp.profile.toon.ToonCheckpoint.save(opened.engine(), config.defaultZone(), java.time.Instant.now(),
                        sessionId, dev.engram.mcp.tool.Caller.session("engram-hook", sessionId), branch, null, files);
                main.err().println("engram hook stop: checkpoint " + saved.memory().key() + " saved");
            }
        }
    }

    @Command(name = "session-start", mixinStandardHelpOptions = true,
            description = {"SessionStart: print the project's briefing for the agent's context.",
                "SessionStart (Claude Code, Codex, Gemini CLI): print the project's briefing",
                    "(pinned, warnings, important and recent memories of the store the agent's",
                    "MCP server opens for the session's folder) as the host's",
                    "hookSpecificOutput.additionalContext, with the other active sessions and the files",
                    "they share, all within --budget-tokens (default 2000, or ENGRAM_HOOK_BUDGET_TOKENS;",
                    "at most 2500, the 10,000 characters Claude Code keeps of a hook's output). For antigravity (its PreInvocation event, before",
                    "every model call) as {\"injectSteps\":[{\"ephemeralMessage\": …}]}, else {}.",
                    "Always exits 0; problems go to stderr."})
    static final class SessionStart implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "AGENT", description = "The agent running the hook (claude, codex, gemini…)")
        String agent;

        @picocli.CommandLine.Option(names = "--profile", paramLabel = "NAME", description = "The profile the agent's server runs: it picks the store (toon: the project's)")
        String profile;

        @picocli.CommandLine.Option(names = "--budget-tokens", paramLabel = "N", description = "Most tokens the whole briefing may take, sessions included (50..2500: Claude Code keeps"
                + " 10,000 characters of a hook's output)")
        Integer budget;

        @Override
        public Integer call() {
            boolean[] printed = {false};
            hook.failSoft("session-start", run -> {
                Main main = run.main;
                int tokens = budgetTokens(budget, run.env, main.err());
                var input = run.input();
                String cwd = input.text("cwd");
                ConfigLoader loader = cwd != null && !cwd.isBlank() && java.nio.file.Path.of(cwd).isAbsolute()
                        && java.nio.file.Files.isDirectory(java.nio.file.Path.of(cwd))
                        ? main.configLoader().at(java.nio.file.Path.of(cwd)) : main.configLoader();
                String profileName = loader.profile(profile, main.profiles());
                EngramConfig config = loader.load(hook.root.global);
                if (profileName.equals(dev.engram.mcp.profile.toon.ToonProfile.NAME)) config = loader.perProject(config);
                String briefing;
                try (Main.OpenEngine opened = main.openEngine(config)) {
                    var text = main.renderers().text();
                    var engine = opened.engine();
                    String zone = config.defaultZone();
                    var registry = engine.sessions();
                    var active = registry.active();
                    // toon-memory processes still running on this project keep their sessions in its folder
                    if (profileName.equals(dev.engram.mcp.profile.toon.ToonProfile.NAME)) {
                        active = dev.engram.mcp.profile.toon.ToonSessionFiles.withToonSessions(active,
                                dev.engram.mcp.profile.toon.ToonData.memoryFolder(List.of(loader.cwd(), loader.projectRoot())),
                                registry.host(), java.time.Instant.now());
                    }
                    // an empty store briefs nothing: no context is spent on a header alone
                    briefing = dev.engram.cli.hook.SessionBriefing.compose(tokens, active, java.time.Instant.now(), n -> {
                        var context = engine.context(new dev.engram.engine.ContextQuery(zone, n, null), text);
                        boolean noMemories = context.pinned().isEmpty() && context.warnings().isEmpty() && context.important().isEmpty()
                                && context.recent().isEmpty() && context.relevant().isEmpty();
                        return noMemories ? "" : text.context(context);
                    });
                }
                if (briefing.isBlank()) return;
                if (antigravity(agent)) {
                    // an ephemeral step lasts one model call, and PreInvocation runs before each: the briefing stays in view
                    // without piling up in the conversation
                    main.out().println(main.json().write(java.util.Map.of("injectSteps",
                            List.of(java.util.Map.of("ephemeralMessage", briefing)))));
                } else {
                    java.util.Map<String, Object> specific = new java.util.LinkedHashMap<>();
                    specific.put("hookEventName", "SessionStart");
                    specific.put("additionalContext", briefing);
                    main.out().println(main.json().write(java.util.Map.of("hookSpecificOutput", specific)));
                }
                printed[0] = true;
            });
            int code = answered(hook.root.main(), agent, printed[0]);
            startDaemon(hook.root.main(), "session-start");
            return code;
        }

        static final int DEFAULT_BUDGET_TOKENS = 2000;

        /**
         * The flag, else ENGRAM_HOOK_BUDGET_TOKENS, else 2000; a bad value is said on stderr and the default used, one above
         * {@link dev.engram.cli.hook.SessionBriefing#MAX_TOKENS} is lowered to it: Claude Code keeps 10,000 characters of a
         * hook's output in the conversation, and a bigger budget would only send the rest to a file.
         */
        static int budgetTokens(Integer flag, java.util.Map<String, String> env, java.io.PrintStream err) {
            String source = flag != null ? "--budget-tokens" : "ENGRAM_HOOK_BUDGET_TOKENS";
            String value = flag != null ? flag.toString() : env.get("ENGRAM_HOOK_BUDGET_TOKENS");
            if (value == null || value.isBlank()) return DEFAULT_BUDGET_TOKENS;
            int max = dev.engram.cli.hook.SessionBriefing.MAX_TOKENS;
            try {
                int n = Integer.parseInt(value.strip());
                if (n >= dev.engram.cli.hook.SessionBriefing.MIN_TOKENS && n <= max) return n;
                if (n > max) {
                    err.println("engram hook session-start: " + source + " " + n + " is more than the " + max + " tokens ("
                            + dev.engram.cli.hook.SessionBriefing.MAX_CHARS + " characters) an agent keeps of a hook's output; using " + max);
                    return max;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            err.println("engram hook session-start: " + source + " '" + value + "' is not a number of tokens in "
                    + dev.engram.cli.hook.SessionBriefing.MIN_TOKENS + ".." + max + "; using " + DEFAULT_BUDGET_TOKENS);
            return DEFAULT_BUDGET_TOKENS;
        }
    }

    @Command(name = "post-tool", mixinStandardHelpOptions = true,
            description = {"PostToolUse: print memories about the file or command a tool touched.",
                "After a native tool ran: print memories about the file or command it touched, in the host's",
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
                String text = dev.engram.cli.hook.HookInputs.readText(events(main),
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
                }, main.stats());
                if (!out.isEmpty()) main.out().print(out);
            } catch (RuntimeException e) {
                // the store or the search failed: the agent goes on without memories
                main.err().println("engram hook post-tool: " + e.getMessage());
            } finally {
                if (opened[0] != null) opened[0].close();
                startDaemon(main, "post-tool");
            }
            return 0;
        }
    }

    @Command(name = "feedback", mixinStandardHelpOptions = true,
            description = {"Rate the memories a hook surfaced.",
                "Rate memories a hook surfaced (the _surfacing_id: line): helpful, partially_helpful,",
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
            description = {"PostToolUse: log the tool call to toon's capture log (opt-in).",
                "PostToolUse: add the tool call on stdin to .toon-memory/memory/observations.toon (toon-memory's",
                    "capture log, read by the toon profile's memory_captured and memory_promote), secrets redacted.",
                    "Opt-in: does nothing unless ENGRAM_CAPTURE (or TOON_MEMORY_CAPTURE) is set, or the folder's",
                    "config.json says \"capture\": true. Opens no store; never fails the agent. Through the launcher, answered",
                    "by the hook daemon when one runs."})
    static final class Capture implements Callable<Integer> {
        @ParentCommand
        HookSubcommand hook;

        @picocli.CommandLine.Parameters(arity = "0..1", paramLabel = "AGENT", description = "Agent name recorded (default agent)")
        String agent;

        @Override
        public Integer call() {
            hook.failSoft("capture", run -> {
                var input = run.input();
                java.nio.file.Path dir = eventFolder(run.main, input.text("cwd"));
                java.nio.file.Path memory = dev.engram.mcp.profile.toon.ToonData.memoryFolder(java.util.List.of(dir));
                if (!dev.engram.mcp.profile.toon.ToonCapture.enabled(run.env, memory, run.main.json()::readObject)) return;
                var o = dev.engram.mcp.profile.toon.ToonCapture.observe(input.fields(), agent == null || agent.isBlank() ? "agent" : agent.strip(),
                        dev.engram.mcp.profile.toon.ToonCapture.branch(dir), java.time.Instant.now(), run.main.json()::write);
                if (o != null) dev.engram.mcp.profile.toon.ToonCapture.append(memory, o, java.time.Instant.now());
            });
            int code = answered(hook.root.main(), agent, false);
            startDaemon(hook.root.main(), "capture");
            return code;
        }
    }
}
