package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.EffectiveConfig;
import dev.engram.proxy.stats.Report;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "config", mixinStandardHelpOptions = true, description = "Check or show proxy.json without starting anything.",
        subcommands = {ProxyConfigSubcommand.Validate.class, ProxyConfigSubcommand.Show.class})
final class ProxyConfigSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        throw new EngramUserException("proxy config: say what to do: engram proxy config validate, or engram proxy config show"
                + " (to see the upstreams: engram proxy list)");
    }

    /**
     * Reads proxy.json as the proxy would (every field type-checked) and checks what can be checked
     * without starting an upstream: that each stdio command can be found. Exit 0 when usable, 2 when not.
     */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = "Read proxy.json as `engram proxy` would and check each stdio command can be found; exit 2 on a problem.")
    static final class Validate implements Callable<Integer> {
        @ParentCommand
        ProxyConfigSubcommand config;

        @Override
        public Integer call() {
            Main main = config.proxy.root.main();
            EngramConfig cfg = config.proxy.root.config();
            ProxyConfigFile file = new ProxyConfigFile(cfg.storeDir(), main.json().mapper());
            ProxyConfig pc = file.load(); // a malformed file stops here with the field and the way out
            ProxyConfigChecks checks = ProxyConfigChecks.of(pc, main.configLoader().environment());
            List<String> problems = checks.problems();
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("file", file.path().toString());
            json.put("exists", Files.exists(file.path()));
            json.put("upstreams", pc.upstreams().size());
            json.put("problems", problems);
            json.put("warnings", checks.warnings());
            String warnings = checks.warnings().isEmpty() ? "" : "\n" + String.join("\n", checks.warnings().stream().map(w -> "warning: " + w).toList());
            String text = (problems.isEmpty()
                    ? file.path() + ": " + (Files.exists(file.path()) ? "valid, " + pc.upstreams().size() + " upstream(s)"
                    : "no file yet (no upstreams); add one with engram proxy add")
                    : file.path() + ": " + problems.size() + " problem(s)\n" + String.join("\n", problems)) + warnings;
            main.printer(cfg).print(text, json);
            return problems.isEmpty() ? 0 : 2;
        }
    }

    /** The configuration a proxy started now would use, defaults filled in, secrets hidden. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Print the effective configuration: proxy.json with its defaults, and the ENGRAM_PROXY_* settings; header values and URL credentials hidden.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        ProxyConfigSubcommand config;

        @Override
        public Integer call() {
            Main main = config.proxy.root.main();
            EngramConfig cfg = config.proxy.root.config();
            ProxyConfigFile file = new ProxyConfigFile(cfg.storeDir(), main.json().mapper());
            ConfigLoader loader = main.configLoader();
            Report r = EffectiveConfig.of(file.path(), Files.exists(file.path()), file.load(), loader.proxySettings(),
                    loader.environment());
            main.printer(cfg).print(r.text().stripTrailing(), r.data());
            return 0;
        }
    }
}
