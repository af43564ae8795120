package dev.engram.cli;

import dev.engram.cli.install.Agent;
import dev.engram.cli.install.Agents;
import dev.engram.cli.install.InstallManifest;
import dev.engram.cli.install.Installer;
import dev.engram.cli.install.Scope;
import dev.engram.error.EngramUserException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code engram init}: registers Engram's MCP server, and its session-start hook, with coding agents
 * in their own config files. Exit 0 when every agent took it, 1 when one was refused (a config it
 * cannot read is left untouched), 2 for a bad option.
 */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Register Engram with coding agents: the MCP server and its hooks.",
                "Register Engram as an MCP server with coding agents, and its session-start",
                "hook where the agent has hooks. Default: every agent whose config folder is",
                "found. A second run changes nothing; a config that cannot be read is refused",
                "and left as it is. `engram uninstall` takes it out again. --store, --project",
                "and --zone given here are written into the agents' command."})
final class InitSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--agent", split = ",", paramLabel = "NAME",
            description = "Agent(s) to register with, repeatable or comma-separated (default: the detected ones): ${COMPLETION-CANDIDATES}",
            completionCandidates = AgentNames.class)
    List<String> agents; // null: not given (the detected agents); given, it must name one ("--agent ," names none)

    @Option(names = "--scope", paramLabel = "local|global", defaultValue = "local",
            description = "local: the project's files (.mcp.json, .cursor/mcp.json, .vscode/mcp.json…); global: the user's under the home")
    String scope;

    @Option(names = "--profile", paramLabel = "NAME", description = "Tool profile the agents get (default native, or $ENGRAM_PROFILE)")
    String profile;

    @Option(names = "--command", paramLabel = "CMD", description = {"How agents start Engram (default: the `engram` launcher",
            "on PATH, else `java -jar` with this engram.jar, by absolute path)"})
    String command;

    @Option(names = "--hooks", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = {"Register `engram hook session-start` with agents that have hooks (Claude",
                    "Code, Codex, Gemini CLI; OpenCode through a plugin file of Engram's,",
                    ".opencode/plugins/engram.js), and with --profile toon `engram hook stop`",
                    "(toon's checkpoint at the end of each turn); default on"})
    boolean hooks;

    @Option(names = "--capture", description = "Also register `engram hook capture` after each tool call (opt-in activity log)")
    boolean capture;

    @Option(names = "--post-tool", description = {"Also register `engram hook post-tool` after each native tool call (Claude Code,",
            "Codex): memories about the file or command the tool touched, through the surfacing gates (opt-in)"})
    boolean postTool;

    @Option(names = "--dry-run", description = "Print what would be written, write nothing")
    boolean dryRun;

    @Override
    public Integer call() throws IOException {
        Main main = root.main();
        root.textOnly("init", "it prints what it writes to each agent's config, as text");
        ConfigLoader loader = main.configLoader();
        // a store the registered server would refuse (another program's database) is refused now, before any file is written
        root.config();
        Scope s = Scope.parse(scope);
        String profileName = loader.profile(profile, main.profiles());
        if (capture && !hooks) throw new EngramUserException("--capture registers a hook; it cannot go with --no-hooks");
        if (postTool && !hooks) throw new EngramUserException("--post-tool registers a hook; it cannot go with --no-hooks");
        Agent.Places places = places(loader);
        List<Agent> chosen = choose(agents, s, places);
        List<String> launch = launchCommand(command, loader.environment(), runningJar(), places.windows());
        List<String> storeArgs = new ArrayList<>();
        if (root.global.store != null) {
            storeArgs.add("--store");
            storeArgs.add(dev.engram.store.postgres.PostgresLocation.isUrl(root.global.store) ? root.global.store
                    : loader.cwd().resolve(root.global.store).toAbsolutePath().normalize().toString());
        }
        if (root.global.project) storeArgs.add("--project");
        String zone = root.global.zone();
        if (zone != null) {
            storeArgs.add("--zone");
            storeArgs.add(zone);
        }
        List<String> serverArgs = new ArrayList<>(List.of("mcp", "--profile", profileName));
        serverArgs.addAll(storeArgs);
        List<String> hookArgs = new ArrayList<>(List.of("--profile", profileName));
        hookArgs.addAll(storeArgs);
        Installer.Plan plan = new Installer.Plan(s, places, launch, serverArgs, hookArgs, storeArgs, hooks, capture, postTool,
                hooks && profileName.equals(dev.engram.mcp.profile.toon.ToonProfile.NAME), dryRun);
        boolean ok = InstallManifest.locked(loader.dataDir().resolve(InstallManifest.FILE), dryRun, main.json()::readObject,
                main.json()::write, manifest -> new Installer(manifest, main.out()).install(chosen, plan));
        return ok ? 0 : 1;
    }

    static Agent.Places places(ConfigLoader loader) {
        return new Agent.Places(loader.projectRoot(), loader.home(), loader.osName(), loader.environment());
    }

    /**
     * The named agents, or (names null: --agent not given) every detected one; an unknown name, or an --agent that
     * names none ({@code --agent ''}, {@code --agent ,}), stops the command before anything is written.
     */
    static List<Agent> choose(List<String> names, Scope scope, Agent.Places places) {
        if (names != null) {
            LinkedHashSet<Agent> out = new LinkedHashSet<>();
            for (String n : names) {
                if (n.isBlank()) continue;
                out.add(Agents.find(n).orElseThrow(() -> new EngramUserException("--agent '" + n.strip() + "' is not an agent Engram knows;"
                        + " send one of " + String.join(", ", Agents.names()))));
            }
            if (out.isEmpty()) throw new EngramUserException("--agent names no agent; send one of " + String.join(", ", Agents.names()));
            return List.copyOf(out);
        }
        List<Agent> found = Agents.ALL.stream().filter(a -> a.detected(scope, places)).toList();
        if (found.isEmpty()) {
            throw new EngramUserException("no agent's config folder was found " + (scope == Scope.LOCAL ? "in " + places.project()
                    + " (local scope)" : "under " + places.home() + " (global scope)") + "; name the agents with --agent ("
                    + String.join(", ", Agents.names()) + ")" + (scope == Scope.LOCAL ? " or use --scope global" : ""));
        }
        return found;
    }

    /**
     * What agents run: {@code --command} split into words; else this repository's {@code engram} launcher
     * (beside the running jar, or on PATH, it survives rebuilds of the jar and starts faster); else this
     * very jar through this JVM. A PATH {@code engram} that is not our launcher is passed over: the name
     * also belongs to another memory server (Gentleman-Programming/engram). Always an absolute program
     * path: agents start servers from folders of their own, often with a PATH of their own.
     */
    static List<String> launchCommand(String flag, Map<String, String> env, Path runningJar) {
        return launchCommand(flag, env, runningJar, false);
    }

    /**
     * As above; on Windows {@code --command} is split with backslashes kept ({@code "C:\Program Files\…"} as
     * cmd.exe and PowerShell users write it) and a drive or UNC path counts as absolute.
     */
    static List<String> launchCommand(String flag, Map<String, String> env, Path runningJar, boolean windows) {
        if (flag != null) {
            List<String> words = windows ? ShellWords.splitWindows(flag) : ShellWords.split(flag, "--command");
            if (words.isEmpty()) throw new EngramUserException("--command is empty; send the program that starts Engram, e.g. "
                    + "--command /usr/local/bin/engram or --command 'java -jar /opt/engram/engram.jar'");
            String program = words.get(0);
            boolean absolute = windows ? program.matches("(?s)([A-Za-z]:[\\\\/]|[\\\\/]{2}).*") : Path.of(program).isAbsolute();
            if ((program.contains("/") || program.contains("\\")) && !absolute) {
                throw new EngramUserException("--command's program '" + program + "' is a relative path; agents start servers from"
                        + " other folders: send an absolute path");
            }
            return words;
        }
        if (runningJar != null && runningJar.getParent() != null && runningJar.getParent().getParent() != null
                && runningJar.getParent().getParent().getParent() != null) {
            Path beside = runningJar.getParent().getParent().getParent().resolve("engram");
            if (ourLauncher(beside)) return List.of(beside.toAbsolutePath().normalize().toString());
        }
        String path = env.get("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isBlank() || !Path.of(dir).isAbsolute()) continue;
                Path launcher = Path.of(dir).resolve("engram");
                if (ourLauncher(launcher)) return List.of(launcher.toAbsolutePath().normalize().toString());
            }
        }
        if (runningJar != null) {
            Path java = Path.of(System.getProperty("java.home"), "bin", "java");
            // the launcher's flags for one-client commands (agents' servers and hooks): SerialGC and C1 only,
            // 0.80x the plain java -jar's start to tools/list (docs/benchmarks.md, the collector the product runs)
            return List.of(java.toString(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar",
                    runningJar.toAbsolutePath().normalize().toString());
        }
        throw new EngramUserException("cannot tell how agents should start Engram: no Engram launcher found and this is not"
                + " running from engram.jar; pass --command /path/to/engram or --command 'java -jar /path/to/engram.jar'");
    }

    /** Marks the launcher script of this repository (its second line). */
    static final String LAUNCHER_MARK = "# Engram launcher";

    /** Whether {@code p} is this repository's launcher script (a small executable file that says so), not another engram. */
    static boolean ourLauncher(Path p) {
        try {
            if (!Files.isRegularFile(p) || !Files.isExecutable(p) || Files.size(p) > 64 * 1024) return false;
            return Files.readString(p, java.nio.charset.StandardCharsets.ISO_8859_1).contains(LAUNCHER_MARK);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The engram.jar this process runs from, or null (classes from a build folder, as in tests). */
    static Path runningJar() {
        try {
            Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.toString().endsWith(".jar") && Files.isRegularFile(jar) ? jar : null;
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The agent names, for the help text. */
    static final class AgentNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Agents.names().iterator();
        }
    }
}
