package dev.engram.cli;

import dev.engram.proxy.config.ProxyConfig;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What can be checked in proxy.json without starting anything, for `config validate` and `doctor`:
 * problems stop an upstream from starting (its command is not found); warnings may (a variable it
 * should get is not set in this environment, so the server starts without it).
 */
record ProxyConfigChecks(List<String> problems, List<String> warnings) {
    static ProxyConfigChecks of(ProxyConfig config, Map<String, String> env) {
        List<String> problems = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        for (UpstreamConfig u : config.upstreams()) {
            if (!(u.transport() instanceof UpstreamTransport.Stdio s)) continue;
            if (!onPath(s.command(), env.get("PATH"))) {
                problems.add("upstream '" + u.name() + "': command '" + s.command() + "' is not found"
                        + (s.command().contains("/") ? "" : " on PATH") + "; install it or give its full path");
            }
            List<String> unset = s.passEnv().stream().filter(n -> !env.containsKey(n)).toList();
            if (!unset.isEmpty()) {
                warnings.add("upstream '" + u.name() + "': " + String.join(", ", unset) + (unset.size() == 1 ? " is" : " are")
                        + " not set in this environment, so the server starts without " + (unset.size() == 1 ? "it" : "them"));
            }
        }
        return new ProxyConfigChecks(problems, warnings);
    }

    private static boolean onPath(String command, String path) {
        if (command.contains("/")) return executable(command);
        if (path == null) path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && executable(dir + File.separator + command)) return true;
        }
        return false;
    }

    /** A name that is no path at all (a NUL in it) is simply not found: the check must report, never crash. */
    private static boolean executable(String file) {
        try {
            return Files.isExecutable(Path.of(file));
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
