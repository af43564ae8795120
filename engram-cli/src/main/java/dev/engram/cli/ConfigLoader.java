package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.http.HttpServerSettings;
import dev.engram.mcp.http.TokenSet;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.mcp.profile.servermemory.SearchBound;
import dev.engram.store.sqlite.DatabaseIdentity;
import dev.engram.store.sqlite.DatabaseInspector;
import java.io.IOException;
import dev.engram.store.postgres.PostgresLocation;
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
    /** A PostgreSQL store's URL (the team mode); --store URL names one too. */
    static final String ENGRAM_STORE = "ENGRAM_STORE";
    /** Under the local store directory: where a PostgreSQL store's replica keeps its search index. */
    static final String REPLICA_INDEX_DIR = "replica-index";
    static final String ENGRAM_TOKENS = "ENGRAM_TOKENS";
    /** Memento's bearer key: accepted as one more token, so a Memento client's configuration keeps working. */
    static final String MEMENTO_ACCESS_KEY = "MEMENTO_ACCESS_KEY";
    static final String ENGRAM_HTTP_HOST = "ENGRAM_HTTP_HOST";
    static final String ENGRAM_HTTP_PORT = "ENGRAM_HTTP_PORT";
    static final String ENGRAM_PROFILE = "ENGRAM_PROFILE";
    /** serve's requests per second per token ("off" or 0: no limit), its burst, the largest body, the stop's grace period. */
    static final String ENGRAM_RATE_LIMIT = "ENGRAM_RATE_LIMIT";
    static final String ENGRAM_REDIS = "ENGRAM_REDIS";
    static final String ENGRAM_REDIS_PREFIX = "ENGRAM_REDIS_PREFIX";
    static final String ENGRAM_RATE_BURST = "ENGRAM_RATE_BURST";
    static final String ENGRAM_MAX_BODY = "ENGRAM_MAX_BODY";
    static final String ENGRAM_SHUTDOWN_GRACE = "ENGRAM_SHUTDOWN_GRACE";
    /** The bearer token of {@code --remote} commands. */
    static final String ENGRAM_TOKEN = "ENGRAM_TOKEN";
    /** server-memory's own variable: its JSONL file, imported once by the server-memory profile. */
    static final String MEMORY_FILE_PATH = "MEMORY_FILE_PATH";
    /** Help of {@code --profile}, shared by the two commands that serve. */
    static final String PROFILE_HELP = "Tool profile to serve (default native, or $ENGRAM_PROFILE); `engram profiles` lists them";
    /** A per-project store's name at the git root; distinct from {@link #LEGACY_STORE_DIR}, which another tool uses too. */
    static final String PROJECT_STORE_DIR = ".engram-store";
    /** Where earlier Engram versions kept the store, in the home and at a git root; still used when it holds one of ours. */
    static final String LEGACY_STORE_DIR = ".engram";

    private final Map<String, String> env;
    private final Path cwd;
    private final Path home;
    private final Path defaultStoreDir;
    private final String osName;

    /** Proxy settings from ENGRAM_PROXY_* (or MEMTOMEM_STM_*) variables. */
    dev.engram.proxy.config.ProxySettings proxySettings() {
        return dev.engram.proxy.config.ProxySettings.fromEnv(env);
    }

    /**
     * How often a server runs the maintenance cycle: {@code ENGRAM_MAINTENANCE_INTERVAL} (6h, 30m, 1d, PT6H),
     * else the policy's own interval; empty for {@code off}.
     */
    java.util.Optional<java.time.Duration> maintenanceInterval(dev.engram.engine.lifecycle.LifecyclePolicy policy) {
        String name = dev.engram.engine.lifecycle.MaintenanceScheduler.ENV;
        try {
            return dev.engram.engine.lifecycle.MaintenanceScheduler.interval(env.get(name), policy.interval());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name, "environment", "'" + env.get(name) + "' is not an interval; send e.g. 6h, 30m, 1d,"
                    + " PT6H (at least 10 seconds) or off");
        }
    }

    /** The environment upstream servers pick their named variables from (never passed whole). */
    Map<String, String> environment() {
        return Map.copyOf(env);
    }

    /** The user's home: where agents keep their MCP configs (~/.claude.json, ~/.cursor, ~/.codex, ~/.memtomem). */
    Path home() {
        return home;
    }

    /** The directory the command runs in: project-local MCP configs (.mcp.json, .cursor/mcp.json) are read here. */
    Path cwd() {
        return cwd;
    }

    /** {@code osName} as in the {@code os.name} property: it picks the platform's default store directory. */
    ConfigLoader(Map<String, String> env, Path cwd, Path home, String osName) {
        this.env = env;
        this.cwd = cwd;
        this.home = home;
        this.defaultStoreDir = DefaultStoreDir.of(osName, env, home);
        this.osName = osName;
    }

    /** The same settings for a command run in another folder (a hook told by its host where the session works). */
    ConfigLoader at(Path otherCwd) {
        return new ConfigLoader(env, otherCwd, home, osName);
    }

    /** The platform name, as in the {@code os.name} property. */
    String osName() {
        return osName;
    }

    /** The platform's per-user Engram data folder (the default store's folder), whatever ENGRAM_HOME says. */
    Path dataDir() {
        return defaultStoreDir;
    }

    /** The project the command runs in: the git root above the working directory, else the working directory. */
    Path projectRoot() {
        return findGitRoot().orElse(cwd.toAbsolutePath());
    }

    /**
     * The configuration, once the store directory is known not to hold another program's database: every
     * command that touches the store fails here, before it reads or writes anything in that directory.
     */
    EngramConfig load(GlobalOptions flags) {
        StoreLocation store = storeLocation(flags);
        if (DatabaseInspector.inspect(store.database()) instanceof DatabaseIdentity.Foreign foreign) {
            throw new EngramUserException(store.database() + " is not an Engram database: " + foreign.explanation()
                    + ". Engram left it untouched. This store directory is " + store.why()
                    + "; choose another with --store DIR or ENGRAM_HOME=DIR (the default is " + defaultStoreDir + ").");
        }
        return new EngramConfig(store, flags.zone(), flags.json, flags.debug, findGitRoot().orElse(cwd.toAbsolutePath()));
    }

    /**
     * toon-memory keeps a project's memory in the project, and its users expect that: with the toon
     * profile, when neither --store, --project nor ENGRAM_HOME names a store, the store is the one in
     * .engram-store at the git root (else the working directory). A named store always wins.
     */
    EngramConfig perProject(EngramConfig config) {
        StoreLocation.Source source = config.store().source();
        Path root = findGitRoot().orElse(cwd.toAbsolutePath());
        if (source != StoreLocation.Source.DEFAULT && source != StoreLocation.Source.LEGACY) {
            // a store named for several projects (ENGRAM_HOME, --store): each project keeps its own memory in a zone of
            // its own, as toon-memory keeps it in the project, unless --zone names one
            if (config.zone() != null || source == StoreLocation.Source.PROJECT) return config;
            return new EngramConfig(config.store(), projectZone(root), config.json(), config.debug(), config.projectRoot());
        }
        StoreLocation store = new StoreLocation(root.resolve(PROJECT_STORE_DIR), StoreLocation.Source.PROJECT,
                "the toon profile's per-project store at " + root + " (as toon-memory keeps memory in the project;"
                        + " --store DIR or ENGRAM_HOME=DIR choose another)");
        if (DatabaseInspector.inspect(store.database()) instanceof DatabaseIdentity.Foreign foreign) {
            throw new EngramUserException(store.database() + " is not an Engram database: " + foreign.explanation()
                    + ". Engram left it untouched; choose a store with --store DIR or ENGRAM_HOME=DIR.");
        }
        createIgnored(store.dir());
        return new EngramConfig(store, config.zone(), config.json(), config.debug(), config.projectRoot());
    }

    /**
     * The toon profile's zone for a project on a shared store: {@code toon-<folder>-<6 hex of its path>}, a valid zone
     * name (at most 40 characters) that two projects of one name in other folders do not share.
     */
    static String projectZone(Path root) {
        Path abs = root.toAbsolutePath().normalize();
        String name = abs.getFileName() == null ? "root" : abs.getFileName().toString();
        String slug = name.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9._-]+", "-").replaceAll("^[-._]+|[-._]+$", "");
        if (slug.isEmpty()) slug = "project";
        if (slug.length() > 26) slug = slug.substring(0, 26);
        return "toon-" + slug + "-" + dev.engram.crypto.Sha256.hex(abs.toString(), 3);
    }

    /** Creates the per-project store folder with a .gitignore of {@code *}: a store never belongs in the project's git. */
    static void createIgnored(Path dir) {
        if (Files.isDirectory(dir)) return;
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(".gitignore"), "# Engram's per-project store: not for git\n*\n");
        } catch (java.io.IOException e) {
            throw new EngramUserException("could not create " + dir + ": " + e.getMessage()
                    + "; choose a store with --store DIR or ENGRAM_HOME=DIR");
        }
    }

    private StoreLocation storeLocation(GlobalOptions flags) {
        if (flags.store != null && flags.project) {
            throw new ConfigException("--store", "flag", "and --project both name a store; pass only one");
        }
        if (flags.store != null && PostgresLocation.isUrl(flags.store)) {
            return postgres("--store", "flag", flags.store, StoreLocation.Source.FLAG, "given by --store");
        }
        if (flags.store != null) {
            return new StoreLocation(path("--store", "flag", flags.store), StoreLocation.Source.FLAG, "given by --store");
        }
        if (flags.project) return projectStore(gitRoot());
        String url = env.get(ENGRAM_STORE);
        if (url != null && !url.isBlank()) {
            if (!PostgresLocation.isUrl(url)) {
                throw new ConfigException(ENGRAM_STORE, "environment", "'" + url + "' is not a PostgreSQL URL; send"
                        + " postgresql://user@host:5432/database (a store directory goes in ENGRAM_HOME)");
            }
            return postgres(ENGRAM_STORE, "environment", url, StoreLocation.Source.ENVIRONMENT,
                    "given by the ENGRAM_STORE environment variable");
        }
        String fromEnv = env.get(ENGRAM_HOME);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return new StoreLocation(path(ENGRAM_HOME, "environment", fromEnv), StoreLocation.Source.ENVIRONMENT,
                    "given by the ENGRAM_HOME environment variable");
        }
        return userStore();
    }

    /**
     * A PostgreSQL store: the URL is checked here, before anything connects, and this process's index
     * goes under the local store directory (ENGRAM_HOME, else the platform default).
     */
    private StoreLocation postgres(String key, String source, String url, StoreLocation.Source origin, String why) {
        PostgresLocation location;
        try {
            location = PostgresLocation.parse(url);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key, source, e.getMessage());
        }
        String fromEnv = env.get(ENGRAM_HOME);
        Path local = fromEnv != null && !fromEnv.isBlank() ? path(ENGRAM_HOME, "environment", fromEnv) : defaultStoreDir;
        return new StoreLocation(local.resolve(REPLICA_INDEX_DIR), origin,
                why + ": PostgreSQL " + location + ", this replica's index in " + local.resolve(REPLICA_INDEX_DIR), url);
    }

    /** The legacy location wins only while the new one holds no store and the legacy one holds ours. */
    private StoreLocation userStore() {
        Path legacy = home.resolve(LEGACY_STORE_DIR);
        DatabaseIdentity atLegacy = DatabaseInspector.inspect(legacy.resolve(StoreLocation.DATABASE));
        if (!Files.exists(defaultStoreDir.resolve(StoreLocation.DATABASE)) && atLegacy instanceof DatabaseIdentity.Engram) {
            return new StoreLocation(legacy, StoreLocation.Source.LEGACY, "the store an earlier Engram made in "
                    + legacy + ", still used so no memory is lost (new stores go to " + defaultStoreDir + ")");
        }
        String why = "the default for this platform";
        if (atLegacy instanceof DatabaseIdentity.Foreign) {
            why += "; " + legacy.resolve(StoreLocation.DATABASE) + " belongs to another program and is not used";
        }
        return new StoreLocation(defaultStoreDir, StoreLocation.Source.DEFAULT, why);
    }

    private StoreLocation projectStore(Path root) {
        Path current = root.resolve(PROJECT_STORE_DIR);
        Path legacy = root.resolve(LEGACY_STORE_DIR);
        if (!Files.exists(current.resolve(StoreLocation.DATABASE))
                && DatabaseInspector.inspect(legacy.resolve(StoreLocation.DATABASE)) instanceof DatabaseIdentity.Engram) {
            return new StoreLocation(legacy, StoreLocation.Source.LEGACY, "the --project store an earlier Engram made in "
                    + legacy + ", still used so no memory is lost (new project stores are named " + PROJECT_STORE_DIR + ")");
        }
        return new StoreLocation(current, StoreLocation.Source.PROJECT, "the --project store at the git root " + root);
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

    /**
     * The profile a server wears: {@code native}, else {@code ENGRAM_PROFILE}, else {@code --profile}. An
     * unknown name stops start-up here, before the server claims stdout or a port.
     */
    String profile(String flag, ProfileRegistry registry) {
        String name = ProfileRegistry.DEFAULT;
        String key = null;
        String source = null;
        String fromEnv = env.get(ENGRAM_PROFILE);
        if (fromEnv != null && !fromEnv.isBlank()) {
            name = fromEnv.strip();
            key = ENGRAM_PROFILE;
            source = "environment";
        }
        if (flag != null) {
            name = flag.strip();
            key = "--profile";
            source = "flag";
        }
        if (registry.find(name).isEmpty()) throw new ConfigException(key, source, registry.unknown(name));
        profileSettings(); // a bad profile setting also stops start-up here, before stdout is the protocol's
        return name;
    }

    /**
     * The profiles' settings, by the dotted names the profiles read ({@link ProfileContext#settings()}),
     * each checked here so a bad value stops start-up naming its variable.
     */
    Map<String, String> profileSettings() {
        Map<String, String> settings = new java.util.LinkedHashMap<>();
        String search = env.get(SearchBound.ENVIRONMENT);
        if (search != null && !search.isBlank()) {
            try {
                settings.put(SearchBound.SETTING, SearchBound.parse(search).toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(SearchBound.ENVIRONMENT, "environment", e.getMessage());
            }
        }
        // the brain profile's chat model (ENGRAM_LLM_*, else brain-tools' AI_* / GROQ_API_KEY); none is fine
        try {
            dev.engram.llm.LlmConfig.fromEnvironment(env).ifPresent(c -> settings.putAll(c.toSettings()));
        } catch (IllegalArgumentException e) {
            // LlmConfig's message starts with the variable's name; the exception names it once, with its source
            String message = e.getMessage();
            int space = message.indexOf(' ');
            throw new ConfigException(message.substring(0, space), "environment", message.substring(space + 1));
        }
        return settings;
    }

    /**
     * The toon profile's user-wide file (memory_export_global / memory_import_global): toon's
     * TOON_MEMORY_GLOBAL_FILE, else ~/.toon-memory/memory/global.toon as toon-memory has it.
     */
    Path toonGlobalFile() {
        String v = env.get("TOON_MEMORY_GLOBAL_FILE");
        if (v != null && !v.isBlank()) return path("TOON_MEMORY_GLOBAL_FILE", "environment", v);
        return home.resolve(".toon-memory").resolve("memory").resolve("global.toon");
    }

    /**
     * The session id this process's heartbeats use when the environment fixes one: ENGRAM_SESSION_ID, else
     * toon's TOON_MEMORY_SESSION_ID; null for the MCP session's own.
     */
    String sessionId() {
        for (String name : List.of("ENGRAM_SESSION_ID", "TOON_MEMORY_SESSION_ID")) {
            String v = env.get(name);
            if (v != null && !v.isBlank()) {
                if (v.strip().length() > 200 || v.chars().anyMatch(Character::isISOControl)) {
                    throw new ConfigException(name, "environment", "must be one line of at most 200 characters");
                }
                return v.strip();
            }
        }
        return null;
    }

    /** Whether session heartbeats are off: ENGRAM_NO_SESSION or toon's TOON_MEMORY_NO_SESSION set to anything but empty. */
    boolean sessionsDisabled() {
        return List.of("ENGRAM_NO_SESSION", "TOON_MEMORY_NO_SESSION").stream()
                .anyMatch(n -> env.get(n) != null && !env.get(n).isEmpty());
    }

    /** server-memory's MEMORY_FILE_PATH, resolved against the working directory, if set. */
    java.util.Optional<Path> memoryFile() {
        String v = env.get(MEMORY_FILE_PATH);
        if (v == null || v.isBlank()) return java.util.Optional.empty();
        return java.util.Optional.of(path(MEMORY_FILE_PATH, "environment", v.strip()));
    }

    HttpServerSettings http(String hostFlag, Integer portFlag, Path tokensFile, boolean noAuth,
                            List<String> allowedHosts, List<String> allowedOrigins) {
        return http(hostFlag, portFlag, tokensFile, noAuth, allowedHosts, allowedOrigins, false);
    }

    /** {@code principals}: the store holds principals ({@code engram tokens}), so no configured token is needed. */
    HttpServerSettings http(String hostFlag, Integer portFlag, Path tokensFile, boolean noAuth,
                            List<String> allowedHosts, List<String> allowedOrigins, boolean principals) {
        String host = HttpServerSettings.DEFAULT_HOST;
        if (env.get(ENGRAM_HTTP_HOST) != null && !env.get(ENGRAM_HTTP_HOST).isBlank()) host = env.get(ENGRAM_HTTP_HOST).strip();
        if (hostFlag != null) host = hostFlag.strip();

        int port = HttpServerSettings.DEFAULT_PORT;
        String envPort = env.get(ENGRAM_HTTP_PORT);
        if (envPort != null && !envPort.isBlank()) port = port(ENGRAM_HTTP_PORT, "environment", envPort.strip());
        if (portFlag != null) port = port("--port", "flag", String.valueOf(portFlag));

        List<String> tokens = new ArrayList<>(TokenSet.parseList(env.get(ENGRAM_TOKENS)));
        String mementoKey = env.get(MEMENTO_ACCESS_KEY);
        if (mementoKey != null && !mementoKey.isBlank()) tokens.add(mementoKey.strip());
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
                noAuth ? TokenSet.none() : TokenSet.of(tokens), noAuth, allowedHosts, allowedOrigins, principals);
    }

    /** The flag's value if given, else the variable's, else null; each named with its source for errors. */
    private record Setting(String key, String source, String value) {
    }

    private Setting setting(String flag, Object flagValue, String variable) {
        if (flagValue != null) return new Setting(flag, "flag", String.valueOf(flagValue).strip());
        String v = env.get(variable);
        return v == null || v.isBlank() ? null : new Setting(variable, "environment", v.strip());
    }

    /**
     * serve's limits: defaults &lt; environment &lt; flags. The rate is requests per second per token (a decimal,
     * or {@code off} / 0 for none); the burst a whole number of requests (default: twice the rate); the body a size such as 4MiB, 512KiB or
     * bytes; the grace a duration such as 10s, 500ms, 1m.
     */
    dev.engram.mcp.http.ServerLimits limits(String rateFlag, Integer burstFlag, String maxBodyFlag, String graceFlag) {
        dev.engram.mcp.http.ServerLimits limits = dev.engram.mcp.http.ServerLimits.DEFAULT;
        Setting rate = setting("--rate-limit", rateFlag, ENGRAM_RATE_LIMIT);
        Setting burst = setting("--rate-burst", burstFlag, ENGRAM_RATE_BURST);
        double r = rate == null ? limits.ratePerSecond() : rate(rate);
        int b = burst == null ? limits.burst() : wholeNumber(burst, 1, 1_000_000, "a number of requests, e.g. 100");
        if (r > 0 && burst == null && rate != null) b = Math.max(1, (int) Math.ceil(r * 2)); // two seconds' worth, as 50 / 100
        limits = limits.withRate(r, b);
        Setting body = setting("--max-body", maxBodyFlag, ENGRAM_MAX_BODY);
        if (body != null) limits = limits.withMaxBodyBytes(size(body));
        Setting grace = setting("--shutdown-grace", graceFlag, ENGRAM_SHUTDOWN_GRACE);
        if (grace != null) limits = limits.withShutdownGrace(duration(grace));
        return limits;
    }

    /**
     * serve's optional Redis (flag &lt; environment as everywhere): null without one. The key prefix lets several
     * clusters share one Redis; it must be 1-64 printable characters without spaces.
     */
    dev.engram.mcp.http.RedisLink redis(String urlFlag, String prefixFlag) {
        Setting url = setting("--redis", urlFlag, ENGRAM_REDIS);
        if (url == null) return null;
        Setting prefix = setting("--redis-prefix", prefixFlag, ENGRAM_REDIS_PREFIX);
        String p = prefix == null ? "engram:" : prefix.value();
        if (p.isEmpty() || p.length() > 64 || !p.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new ConfigException(prefix.key(), prefix.source(), "must be 1-64 printable characters without spaces,"
                    + " e.g. engram:team-a:");
        }
        try {
            return dev.engram.mcp.http.RedisLink.connect(url.value(), p);
        } catch (dev.engram.error.EngramUserException e) {
            throw new ConfigException(url.key(), url.source(), "is not usable: " + e.getMessage());
        }
    }

    private static double rate(Setting s) {
        if (s.value().equalsIgnoreCase("off")) return 0;
        try {
            double r = Double.parseDouble(s.value());
            if (r >= 0 && r <= 1_000_000) return r;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(s.key(), s.source(), "must be requests per second per token (e.g. 50 or 0.5), or off for"
                + " no limit; got '" + s.value() + "'");
    }

    private static int wholeNumber(Setting s, int min, int max, String example) {
        try {
            int n = Integer.parseInt(s.value());
            if (n >= min && n <= max) return n;
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new ConfigException(s.key(), s.source(), "must be a whole number " + min + ".." + max + " (" + example
                + "); got '" + s.value() + "'");
    }

    private static final java.util.regex.Pattern SIZE = java.util.regex.Pattern.compile("(\\d{1,10})\\s*(b|k|kb|kib|m|mb|mib)?",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Bytes from 4MiB, 512KiB, 4m, 1048576 (K and M are 1024-based, as the limit is counted). */
    static int size(Setting s) {
        var m = SIZE.matcher(s.value());
        if (m.matches()) {
            String unit = m.group(2) == null ? "b" : m.group(2).toLowerCase(java.util.Locale.ROOT);
            long factor = unit.startsWith("m") ? 1024L * 1024 : unit.startsWith("k") ? 1024 : 1;
            long bytes = Long.parseLong(m.group(1)) * factor;
            if (bytes >= dev.engram.mcp.http.ServerLimits.MIN_BODY_BYTES && bytes <= 1024L * 1024 * 1024) return (int) bytes;
        }
        throw new ConfigException(s.key(), s.source(), "must be a size from 1KiB to 1024MiB, e.g. 4MiB, 512KiB or a number"
                + " of bytes; got '" + s.value() + "'");
    }

    private static final java.util.regex.Pattern DURATION = java.util.regex.Pattern.compile("(\\d{1,6})\\s*(ms|s|m)?");

    /** A duration from 10s, 500ms, 1m or a number of seconds; at most an hour. */
    static java.time.Duration duration(Setting s) {
        var m = DURATION.matcher(s.value().toLowerCase(java.util.Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2) == null ? "s" : m.group(2);
            java.time.Duration d = switch (unit) {
                case "ms" -> java.time.Duration.ofMillis(n);
                case "m" -> java.time.Duration.ofMinutes(n);
                default -> java.time.Duration.ofSeconds(n);
            };
            if (d.compareTo(java.time.Duration.ofHours(1)) <= 0) return d;
        }
        throw new ConfigException(s.key(), s.source(), "must be a duration up to 1 hour, e.g. 10s, 500ms or 1m; got '"
                + s.value() + "'");
    }

    /** The token of a --remote command: the flag, else ENGRAM_TOKEN; null when neither is set. */
    String remoteToken(String tokenFlag) {
        Setting t = setting("--token", tokenFlag, ENGRAM_TOKEN);
        return t == null ? null : t.value();
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
