package dev.engram.cli;

import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.TokenSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The only reader of the environment (R9). Precedence: defaults &lt; environment &lt; flags. Every
 * bad value fails here, naming the key and its source, never with a silent fallback.
 */
final class ConfigLoader {
    static final String ENGRAM_HOME = "ENGRAM_HOME";
    static final String ENGRAM_TOKENS = "ENGRAM_TOKENS";
    static final String ENGRAM_HTTP_HOST = "ENGRAM_HTTP_HOST";
    static final String ENGRAM_HTTP_PORT = "ENGRAM_HTTP_PORT";
    /** Per-user store, like ~/.m2 or ~/.npm: zero setup for the single-developer default (GUIDE §2). */
    static final String DEFAULT_STORE_DIR = ".engram";

    private final Map<String, String> env;
    private final Path cwd;
    private final Path home;

    /** Proxy settings from ENGRAM_PROXY_* (or MEMTOMEM_STM_*) variables. */
    dev.engram.proxy.config.ProxySettings proxySettings() {
        return dev.engram.proxy.config.ProxySettings.fromEnv(env);
    }

    /** The environment upstream servers pick their named variables from (never passed whole). */
    Map<String, String> environment() {
        return Map.copyOf(env);
    }

    ConfigLoader(Map<String, String> env, Path cwd, Path home) {
        this.env = env;
        this.cwd = cwd;
        this.home = home;
    }

    EngramConfig load(GlobalOptions flags) {
        return new EngramConfig(storeDir(flags), flags.zone, flags.json, flags.debug, findGitRoot().orElse(cwd.toAbsolutePath()));
    }

    private Path storeDir(GlobalOptions flags) {
        if (flags.store != null && flags.project) {
            throw new ConfigException("--store", "flag", "and --project both name a store; pass only one");
        }
        if (flags.store != null) return path("--store", "flag", flags.store);
        if (flags.project) return gitRoot().resolve(DEFAULT_STORE_DIR);
        String fromEnv = env.get(ENGRAM_HOME);
        if (fromEnv != null && !fromEnv.isBlank()) return path(ENGRAM_HOME, "environment", fromEnv);
        return home.resolve(DEFAULT_STORE_DIR);
    }

    /** The nearest folder at or above the working directory holding {@code .git} (a folder, or a file in worktrees). */
    private Path gitRoot() {
        return findGitRoot().orElseThrow(() -> new ConfigException("--project", "flag", "needs a git repository, but no folder from " + cwd.toAbsolutePath()
                + " upwards holds .git; run it inside a repository or pass --store DIR"));
    }

    private java.util.Optional<Path> findGitRoot() {
        for (Path p = cwd.toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(".git"))) return java.util.Optional.of(p);
        }
        return java.util.Optional.empty();
    }

    private Path path(String key, String source, String value) {
        try {
            return cwd.resolve(value.startsWith("~/") ? home + value.substring(1) : value).normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(key, source, "'" + value + "' is not a valid path: " + e.getReason());
        }
    }

    HttpServerSettings http(String hostFlag, Integer portFlag, Path tokensFile, boolean noAuth,
                            List<String> allowedHosts, List<String> allowedOrigins) {
        String host = HttpServerSettings.DEFAULT_HOST;
        if (env.get(ENGRAM_HTTP_HOST) != null && !env.get(ENGRAM_HTTP_HOST).isBlank()) host = env.get(ENGRAM_HTTP_HOST).strip();
        if (hostFlag != null) host = hostFlag.strip();

        int port = HttpServerSettings.DEFAULT_PORT;
        String envPort = env.get(ENGRAM_HTTP_PORT);
        if (envPort != null && !envPort.isBlank()) port = port(ENGRAM_HTTP_PORT, "environment", envPort.strip());
        if (portFlag != null) port = port("--port", "flag", String.valueOf(portFlag));

        List<String> tokens = new ArrayList<>(TokenSet.parseList(env.get(ENGRAM_TOKENS)));
        if (tokensFile != null) {
            try {
                tokens.addAll(TokenSet.readFile(tokensFile));
            } catch (IOException e) {
                throw new ConfigException("--tokens-file", "flag", "cannot be read: " + tokensFile + " (" + e.getMessage() + ")");
            }
            if (tokens.isEmpty()) {
                throw new ConfigException("--tokens-file", "flag", tokensFile + " holds no token (one per line, # comments)");
            }
        }
        return new HttpServerSettings(host, port, HttpServerSettings.DEFAULT_PATH,
                noAuth ? TokenSet.none() : TokenSet.of(tokens), noAuth, allowedHosts, allowedOrigins);
    }

    private static int port(String key, String source, String value) {
        try {
            int p = Integer.parseInt(value);
            if (p >= 0 && p <= 65_535) return p;
        } catch (NumberFormatException ignored) {
            // reported below with the allowed range
        }
        throw new ConfigException(key, source, "must be a port number 0..65535, got '" + value + "'");
    }
}
