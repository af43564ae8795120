package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.importing.AgentConfigs;
import dev.engram.proxy.config.importing.Found;
import dev.engram.proxy.config.importing.ImportPlan;
import dev.engram.proxy.config.importing.MemtomemConfig;
import java.io.Console;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

@Command(name = "import", mixinStandardHelpOptions = true, description = {
        "Bring upstream servers over from memtomem-stm's stm_proxy.json or from the MCP servers an agent has registered.",
        "Prints the plan (what is added, what is kept, what cannot be carried over); writes only with --yes.",
        "  --from memtomem [FILE]  (default $MEMTOMEM_STM_PROXY__CONFIG_PATH, else ~/.memtomem/stm_proxy.json)",
        "  --from claude [FILE]    (~/.claude.json: user and this project's servers, and ./.mcp.json)",
        "  --from cursor [FILE]    (~/.cursor/mcp.json and ./.cursor/mcp.json)",
        "  --from codex [FILE]     ($CODEX_HOME/config.toml, else ~/.codex/config.toml, and ./.codex/config.toml)"})
final class ProxyImportSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Option(names = "--from", required = true, paramLabel = "SOURCE", description = "memtomem, claude, cursor or codex")
    String from;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "Read this file instead of the default")
    Path file;

    @Option(names = "--yes", description = "Write the plan to proxy.json without asking")
    boolean yes;

    @Option(names = "--dry-run", description = "Print the plan only; never writes (even with --yes)")
    boolean dryRun;

    @Option(names = "--allow-project-configs", description = "Also add servers from files under the current directory"
            + " (.mcp.json, .cursor/mcp.json, .codex/config.toml): a repository can ship those, and they start commands")
    boolean allowProject;

    @Override
    public Integer call() {
        Main main = proxy.root.main();
        EngramConfig config = proxy.root.config();
        ConfigLoader loader = main.configLoader();
        Map<String, String> env = loader.environment();
        Path home = loader.home();
        Path cwd = loader.cwd();
        Path given = file == null ? null : cwd.resolve(file.toString().startsWith("~/") ? home + file.toString().substring(1)
                : file.toString()).normalize();
        AgentConfigs agents = new AgentConfigs(main.json().mapper(), home, cwd);
        Found found = switch (from.toLowerCase(Locale.ROOT)) {
            case "memtomem", "memtomem-stm", "stm" -> new MemtomemConfig(main.json().mapper()).read(given != null ? given : memtomemFile(env, home));
            case "claude", "claude-code" -> agents.claude(given);
            case "cursor" -> agents.cursor(given);
            case "codex" -> agents.codex(given, env.get("CODEX_HOME") == null ? null : Path.of(env.get("CODEX_HOME")));
            default -> throw new ConfigException("--from", from, "is not a source; use memtomem, claude, cursor or codex");
        };
        ProxyConfigFile target = new ProxyConfigFile(config.storeDir(), main.json().mapper());
        ProxyConfig existing = target.load();
        ImportPlan plan = ImportPlan.of(existing, found);
        Printer printer = main.printer(config);
        if (dryRun || plan.add().isEmpty()) {
            Map<String, Object> data = new java.util.LinkedHashMap<>(plan.data());
            data.put("written", false);
            printer.print(plan.text() + (plan.add().isEmpty() ? "Nothing written." : "Dry run: nothing written."), data);
            return 0;
        }
        if (!plan.projectLocal().isEmpty() && !allowProject) {
            main.out().print(plan.text());
            throw new EngramUserException("not written: " + plan.projectLocal().stream().map(c -> c.upstream().name()).toList()
                    + " come from files under " + cwd + ", which a repository checkout can ship (their commands would run as you);"
                    + " check them, then add --allow-project-configs");
        }
        boolean confirmed = yes || ask(plan);
        if (!confirmed) {
            Map<String, Object> data = new java.util.LinkedHashMap<>(plan.data());
            data.put("written", false);
            printer.print(plan.text() + "Nothing written. To add " + (plan.add().size() == 1 ? "it" : "these " + plan.add().size())
                    + ": engram proxy import --from " + from + (file == null ? "" : " " + file) + " --yes", data);
            return 0;
        }
        target.save(plan.applyTo(existing));
        Map<String, Object> data = new java.util.LinkedHashMap<>(plan.data());
        data.put("written", true);
        data.put("file", target.path().toString());
        printer.print(plan.text() + "Added " + plan.add().size() + " upstream(s) to " + target.path()
                + ". Check them with: engram proxy doctor" + nextStep(), data);
        return 0;
    }

    /** After fronting an agent's servers: the agent should talk to the proxy instead, or it sees every tool twice. */
    private String nextStep() {
        String agent = from.toLowerCase(Locale.ROOT);
        String how = switch (agent) {
            case "claude", "claude-code" -> "claude mcp add engram-proxy -- engram proxy";
            case "codex" -> "codex mcp add engram-proxy -- engram proxy";
            case "cursor" -> "an \"engram-proxy\" entry with \"command\": \"engram\", \"args\": [\"proxy\"] in ~/.cursor/mcp.json";
            default -> null;
        };
        if (how == null) return "";
        return "\nNext: point " + agent + " at the proxy (" + how + ") and remove the imported servers from its own config,"
                + " or it sees each of their tools twice.";
    }

    /** Asks on the terminal when there is one; without a terminal (a script, a test) the answer is no. */
    private boolean ask(ImportPlan plan) {
        Console console = System.console();
        if (console == null) return false;
        console.printf("%s", plan.text());
        String answer = console.readLine("Add %d upstream(s) to proxy.json? [y/N] ", plan.add().size());
        return answer != null && answer.strip().toLowerCase(Locale.ROOT).startsWith("y");
    }

    private static Path memtomemFile(Map<String, String> env, Path home) {
        String configured = env.get("MEMTOMEM_STM_PROXY__CONFIG_PATH");
        if (configured != null && !configured.isBlank()) return Path.of(configured);
        String dataDir = env.get("MEMTOMEM_STM_DATA_DIR");
        return (dataDir != null && !dataDir.isBlank() ? Path.of(dataDir) : home.resolve(".memtomem")).resolve("stm_proxy.json");
    }
}
