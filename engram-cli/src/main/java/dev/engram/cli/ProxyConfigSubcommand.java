package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "config", mixinStandardHelpOptions = true, description = "Check proxy.json without starting anything.",
        subcommands = {ProxyConfigSubcommand.Validate.class})
final class ProxyConfigSubcommand implements Callable<Integer> {
    @ParentCommand
    ProxySubcommand proxy;

    @Override
    public Integer call() {
        throw new EngramUserException("proxy config: say what to do: engram proxy config validate"
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
            List<String> problems = new ArrayList<>();
            for (UpstreamConfig u : pc.upstreams()) {
                if (u.transport() instanceof UpstreamTransport.Stdio s && !onPath(s.command())) {
                    problems.add("upstream '" + u.name() + "': command '" + s.command() + "' is not found"
                            + (s.command().contains("/") ? "" : " on PATH") + "; install it or give its full path");
                }
            }
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("file", file.path().toString());
            json.put("exists", Files.exists(file.path()));
            json.put("upstreams", pc.upstreams().size());
            json.put("problems", problems);
            String text = problems.isEmpty()
                    ? file.path() + ": " + (Files.exists(file.path()) ? "valid, " + pc.upstreams().size() + " upstream(s)"
                    : "no file yet (no upstreams); add one with engram proxy add")
                    : file.path() + ": " + problems.size() + " problem(s)\n" + String.join("\n", problems);
            main.printer(cfg).print(text, json);
            return problems.isEmpty() ? 0 : 2;
        }

        private static boolean onPath(String command) {
            if (command.contains("/")) return Files.isExecutable(Path.of(command));
            String path = System.getenv("PATH");
            if (path == null) return false;
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, command))) return true;
            }
            return false;
        }
    }
}
