package dev.engram.cli;

import dev.engram.analysis.ProjectVocabulary;
import dev.engram.analysis.TagVocabulary;
import dev.engram.engine.Engine;
import dev.engram.engine.RecallSettings;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ProfileRegistry;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.nativeprofile.NativeRenderers;
import dev.engram.mcp.profile.servermemory.ServerMemoryData;
import dev.engram.mcp.profile.servermemory.ServerMemoryProfile;
import dev.engram.mcp.profile.toon.ToonData;
import dev.engram.mcp.profile.toon.ToonProfile;
import dev.engram.memory.MemoryRules;
import dev.engram.spi.Embedder;
import dev.engram.store.EmbeddedStore;
import dev.engram.store.postgres.PostgresLocation;
import dev.engram.store.postgres.PostgresStore;
import dev.engram.store.IndexCheck;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * Entry point and the only composition root (R8): config → EmbeddedStore → Engine → profile →
 * transport are wired here and nowhere else. Commands ask this class for what they need.
 */
public final class Main {
    /** Exit code of a command that keeps serving after it returns (the JVM lives on its threads). */
    static final int SERVING = -1;

    private final ConfigLoader configLoader;
    private final PrintStream out;
    private final PrintStream err;
    // the CLI prints the native face: its text and --json are the native profile's presentation
    private final NativeRenderers renderers = NativeRenderers.standard();
    private final ProfileRegistry profiles = ProfileRegistry.standard();
    // the SDK's Jackson mapper takes ~0.4 s to build: made on first use, never for a plain `version`
    private JsonText json;

    private final BiFunction<EngramConfig, Embedding, OpenEngine> opener;
    // what the hook commands read as their event: null for this process's own stdin
    private final InputStream in;
    private final HookDaemonStarter hookDaemon;
    private final dev.engram.cli.hook.PostToolHook.StatsLease stats;

    /**
     * Whether a command gets the configured embedding model. Only long-running servers and reindex do:
     * a one-shot command would pay ~1 s to load a model it rarely gets to use, and exiting while the
     * model's native runtime is still initialising crashes the JVM.
     */
    enum Embedding { NONE, CONFIGURED, AFTER_HANDSHAKE }

    /** A stdio server's client finishes its handshake well within this (docs/benchmarks.md §3, §9). */
    static final Duration MODEL_LOAD_DELAY = Duration.ofMillis(1500);

    Main(Map<String, String> env, Path cwd, Path home, String osName, PrintStream out, PrintStream err,
         BiFunction<EngramConfig, Embedding, OpenEngine> opener) {
        this(env, cwd, home, osName, out, err, opener, null, null, HookDaemonStarter.NONE,
                dev.engram.cli.hook.PostToolHook.StatsLease.PER_CALL);
    }

    /**
     * A hook daemon's call: {@code in} is the event, {@code json} the daemon's mapper (built once);
     * {@code hookDaemon} is what a hook answered in this process starts for the next calls, {@code stats}
     * how a post-tool call gets the proxy's stats database.
     */
    Main(Map<String, String> env, Path cwd, Path home, String osName, PrintStream out, PrintStream err,
         BiFunction<EngramConfig, Embedding, OpenEngine> opener, InputStream in, JsonText json, HookDaemonStarter hookDaemon,
         dev.engram.cli.hook.PostToolHook.StatsLease stats) {
        this.configLoader = new ConfigLoader(env, cwd, home, osName);
        this.out = out;
        this.err = err;
        this.opener = opener;
        this.in = in;
        this.json = json;
        this.hookDaemon = hookDaemon;
        this.stats = stats;
    }

    public static void main(String[] args) {
        Clock clock = Clock.systemUTC();
        // UTF-8 whatever the locale: an MCP client starts servers with a bare environment (no LANG), where Java 17 would
        // print every Korean or Chinese character of a recall, an export or a log line as '?'
        System.setOut(utf8(java.io.FileDescriptor.out));
        System.setErr(utf8(java.io.FileDescriptor.err));
        Main main = new Main(System.getenv(), Path.of("").toAbsolutePath(), dev.engram.platform.UserHome.current(),
                System.getProperty("os.name"), System.out, System.err, standardOpener(clock), null, null, HookDaemonStarter.SPAWN,
                dev.engram.cli.hook.PostToolHook.StatsLease.PER_CALL);
        if (!installerDryRun(args)) NativeLibraries.useCacheIn(main.configLoader.dataDir().resolve("native"));
        int code = main.run(args);
        if (code != SERVING) {
            System.exit(code);
        }
    }

    private static PrintStream utf8(java.io.FileDescriptor fd) {
        return new PrintStream(new java.io.BufferedOutputStream(new java.io.FileOutputStream(fd), 8192), true,
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Whether this is {@code engram init --dry-run} or {@code engram uninstall --dry-run}: they open no store and promise
     * to write nothing, so the native libraries are not copied into the data folder (which would create it) for them.
     */
    static boolean installerDryRun(String[] args) {
        List<String> words = List.of(args);
        return words.contains("--dry-run") && (words.contains("init") || words.contains("uninstall"));
    }

    /** How the CLI opens a store: the configured embedding model only for the commands that get one. */
    static BiFunction<EngramConfig, Embedding, OpenEngine> standardOpener(Clock clock) {
        return (config, embedding) -> openEmbedded(config, clock,
                embedding == Embedding.NONE ? null : EmbedderSettings.from(System.getenv())
                        .start(embedding == Embedding.AFTER_HANDSHAKE ? MODEL_LOAD_DELAY : Duration.ZERO),
                dev.engram.crypto.UserKey.fromEnvironment(System.getenv()).orElse(null));
    }

    /** The hook event: the daemon's request body, else null (this process's stdin). */
    InputStream in() {
        return in;
    }

    /** How a post-tool call gets the proxy's stats database (the daemon keeps it open). */
    dev.engram.cli.hook.PostToolHook.StatsLease stats() {
        return stats;
    }

    HookDaemonStarter hookDaemon() {
        return hookDaemon;
    }

    int run(String... args) {
        return run(EngramCommand.commandLine(new EngramCommand(this), args), args);
    }

    /**
     * Runs on a command line built before (the hook daemon builds one: picocli's model of every command
     * costs more than a hook call), now answering to this Main; picocli resets every option before parsing.
     */
    int run(CommandLine cli, String... args) {
        ((EngramCommand) cli.getCommand()).use(this);
        cli.setExecutionExceptionHandler(new ErrorReporter(err));
        cli.setParameterExceptionHandler(new ErrorReporter(err));
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        return cli.execute(args);
    }

    EngramConfig config(GlobalOptions options) {
        return configLoader.load(options);
    }

    ConfigLoader configLoader() {
        return configLoader;
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    NativeRenderers renderers() {
        return renderers;
    }

    synchronized JsonText json() {
        if (json == null) json = JsonText.standard();
        return json;
    }

    Printer printer(EngramConfig config) {
        return new Printer(out, config.json(), this::json);
    }

    /** Opens the configured store and the engine on it; close the result when done. */
    OpenEngine openEngine(EngramConfig config) {
        return opener.apply(config, Embedding.NONE);
    }

    /** The engine with the configured embedding model, loading in the background. */
    OpenEngine openSemanticEngine(EngramConfig config) {
        return opener.apply(config, Embedding.CONFIGURED);
    }

    /**
     * The engine of a long-running server: with the model, and with the backfill that embeds what
     * was written without one (by this process while the model loaded, or by other processes).
     */
    OpenEngine openServerEngine(EngramConfig config, Embedding embedding) {
        OpenEngine open = opener.apply(config, embedding);
        if (open.embedder() == null) return open;
        EmbeddingBackfillLoop backfill = EmbeddingBackfillLoop.start(open.engine());
        return new OpenEngine(open.engine(), open.indexCheck(), () -> {
            try (open) { // the store closes after the loop's last batch
                backfill.close();
            }
        }, open.embedder());
    }

    /** A server's first maintenance check waits this long, so starting stays quick and short-lived servers do none. */
    static final java.time.Duration FIRST_MAINTENANCE = java.time.Duration.ofMinutes(5);

    /**
     * Starts the in-process maintenance schedule of a server ({@code engram mcp}, {@code engram serve}) with the
     * profile's lifecycle policy; returns what to close, or nothing when ENGRAM_MAINTENANCE_INTERVAL=off.
     */
    AutoCloseable startMaintenance(String profileName, Engine engine) {
        dev.engram.engine.lifecycle.LifecyclePolicy policy = dev.engram.engine.lifecycle.LifecyclePolicy.forProfile(profileName);
        java.util.Optional<java.time.Duration> interval = configLoader.maintenanceInterval(policy);
        if (interval.isEmpty()) return () -> { };
        java.time.Duration first = interval.get().compareTo(FIRST_MAINTENANCE) < 0 ? interval.get() : FIRST_MAINTENANCE;
        useJudge(engine);
        return dev.engram.engine.lifecycle.MaintenanceScheduler.start(engine.maintenance(), policy, interval.get(), first);
    }

    /** Hands the configured chat model to the engine's maintenance as its contradiction judge, when there is one. */
    void useJudge(Engine engine) {
        dev.engram.llm.ChatContradictionJudge.fromSettings(configLoader.profileSettings(), json())
                .ifPresent(j -> engine.maintenance().useJudge(j));
    }

    /** The embedded store (SQLite + Lucene) in the configured directory, created if missing. */
    static OpenEngine openEmbedded(EngramConfig config, Clock clock, Embedder embedder) {
        return openEmbedded(config, clock, embedder, null);
    }

    /**
     * As above, with the store key (TOON_MEMORY_KEY / ENGRAM_KEY, null when unset) that opens a store
     * encrypted at rest; an encrypted store without it, or with another key, fails closed here.
     */
    static OpenEngine openEmbedded(EngramConfig config, Clock clock, Embedder embedder, String storeKey) {
        if (config.store().postgres()) return openPostgres(config, clock, embedder);
        try {
            Files.createDirectories(config.storeDir());
        } catch (IOException e) {
            throw new ConfigException("store", config.storeDir().toString(), "cannot be created: " + e.getMessage());
        }
        EmbeddedStore store = EmbeddedStore.open(config.storeDir(), clock, storeKey);
        try {
            TagVocabulary vocabulary = TagVocabulary.withProject(ProjectVocabulary.scan(config.projectRoot()));
            Engine engine = new Engine(store.store(), store.index(), clock, vocabulary, embedder, RecallSettings.defaults());
            return new OpenEngine(engine, store::check, store, embedder);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * The team mode: the record on PostgreSQL (shared by every replica), this process's own Lucene index
     * under the local store directory, caught up from the record's change feed.
     */
    static OpenEngine openPostgres(EngramConfig config, Clock clock, Embedder embedder) {
        PostgresStore store = PostgresStore.open(PostgresLocation.parse(config.store().url()), config.storeDir());
        try {
            TagVocabulary vocabulary = TagVocabulary.withProject(ProjectVocabulary.scan(config.projectRoot()));
            Engine engine = new Engine(store.store(), store.index(), clock, vocabulary, embedder, RecallSettings.defaults());
            return new OpenEngine(engine, store::check, store, embedder);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The proxy's object graph (engram proxy): upstreams, pipeline, cache, stats, surfacing over the store. */
    dev.engram.proxy.ProxyRuntime proxyRuntime(EngramConfig config, Supplier<Engine> engine) {
        return ProxyWiring.runtime(config, configLoader.proxySettings(), configLoader.environment(), json(), version(),
                Clock.systemUTC(), engine);
    }

    ProfileRegistry profiles() {
        return profiles;
    }

    /** Every registered profile, built to count what it offers; building one never calls the engine. */
    List<ToolProfile> registeredProfiles() {
        Supplier<Engine> none = () -> {
            throw new IllegalStateException("a profile built for listing has no engine");
        };
        ProfileContext context = new ProfileContext(none, MemoryRules.DEFAULT_ZONE);
        return profiles.names().stream().map(n -> profiles.create(n, context, json())).toList();
    }

    /** The named profile over the engine; the name comes from {@link ConfigLoader#profile}, so it exists. */
    /** The faces of a profile a request header picks over HTTP: Memento's mode presets; none for the others. */
    static dev.engram.mcp.http.ProfileVariants variants(String name, ToolProfile profile) {
        return name.equals(dev.engram.mcp.profile.memento.MementoProfile.NAME)
                ? new dev.engram.mcp.http.ProfileVariants(dev.engram.mcp.profile.memento.MementoModes.HEADER,
                        dev.engram.mcp.profile.memento.MementoModes.variants(profile))
                : dev.engram.mcp.http.ProfileVariants.NONE;
    }

    ToolProfile profile(String name, EngramConfig config, Supplier<Engine> engine) {
        Supplier<Engine> engines = engine;
        java.util.Optional<java.nio.file.Path> memoryFile = configLoader.memoryFile();
        dev.engram.mcp.profile.servermemory.ImportAtStart memoryImport = null;
        if (name.equals(ServerMemoryProfile.NAME) && memoryFile.isPresent()) {
            // a server-memory user switching keeps MEMORY_FILE_PATH set: their graph comes along, once
            memoryImport = new ServerMemoryData(json()).importingOnce(engine, config.defaultZone(), memoryFile.get(), err);
            engines = memoryImport;
        }
        java.util.Map<String, String> settings = configLoader.profileSettings();
        dev.engram.mcp.profile.toon.ToonFollower follower = null;
        if (name.equals(ToonProfile.NAME)) {
            // a toon-memory user switching keeps their .toon-memory folder's memories: imported once, into an empty store
            // toon keeps .toon-memory at its working directory: that first, then the git root
            java.util.List<java.nio.file.Path> folders = java.util.List.of(configLoader.cwd(), config.projectRoot());
            follower = ToonData.importingOnce(engines, config.defaultZone(), folders, err);
            engines = follower;
            settings = new java.util.HashMap<>(settings);
            settings.put(ToonProfile.PROJECT_SETTING, config.projectRoot().toString());
            settings.put(ToonProfile.GLOBAL_FILE_SETTING, configLoader.toonGlobalFile().toString());
            settings.put(ToonProfile.MEMORY_DIR_SETTING, ToonData.memoryFolder(folders).toString());
            String key = ToonData.vaultKey(configLoader.environment());
            if (key != null) settings.put(ToonProfile.VAULT_KEY_SETTING, key);
            java.util.Map<String, String> env = configLoader.environment();
            if (env.get("GITHUB_TOKEN") != null) settings.put(ToonProfile.GITHUB_TOKEN_SETTING, env.get("GITHUB_TOKEN"));
            if (env.get("ENGRAM_GIST_API") != null) settings.put(ToonProfile.GIST_API_SETTING, env.get("ENGRAM_GIST_API"));
            String sessionId = configLoader.sessionId();
            if (sessionId != null) settings.put(ToonProfile.SESSION_ID_SETTING, sessionId);
        }
        ToolProfile profile = profiles.create(name, new ProfileContext(engines, config.defaultZone())
                .withSettings(settings), json());
        // an import that failed is told to the agent too, not only on stderr
        if (memoryImport != null) profile = memoryImport.noting(profile);
        // the followed data.toon gets every write back, so toon and its hooks keep seeing the memory
        return follower == null ? profile : follower.mirroring(profile);
    }

    /**
     * Opens a stdio server's engine on another thread: the server answers initialize and tools/list
     * (which need no store) meanwhile, so opening SQLite and catching the index up does not add to cold
     * start; the model starts loading once the handshake is likely done.
     */
    CompletableFuture<OpenEngine> openEngineInBackground(EngramConfig config) {
        CompletableFuture<OpenEngine> opening = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                opening.complete(openServerEngine(config, Embedding.AFTER_HANDSHAKE));
            } catch (RuntimeException e) {
                opening.completeExceptionally(e);
            }
        }, "engram-store-open");
        t.setDaemon(true);
        t.start();
        return opening;
    }

    /** The engine once opened; an opening failure is rethrown as itself, so user errors stay user errors. */
    static Supplier<Engine> engineWhenOpen(CompletableFuture<OpenEngine> opening) {
        return () -> {
            try {
                return opening.join().engine();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException cause) throw cause;
                throw e;
            }
        };
    }

    /** The version the build wrote into engram-version.properties. */
    static String version() {
        Properties p = new Properties();
        try (InputStream in = Main.class.getResourceAsStream("/engram-version.properties")) {
            if (in != null) p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version", "dev");
    }

    /** An engine, the index check of the store under it, and what to close when done. */
    /** An open store and its engine; {@code embedder} is null when recall is lexical only. */
    record OpenEngine(Engine engine, Supplier<IndexCheck> indexCheck, AutoCloseable resources, Embedder embedder)
            implements AutoCloseable {
        OpenEngine(Engine engine, Supplier<IndexCheck> indexCheck, AutoCloseable resources) {
            this(engine, indexCheck, resources, null);
        }

        @Override
        public void close() {
            try {
                resources.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the store failed", e);
            }
        }
    }
}
