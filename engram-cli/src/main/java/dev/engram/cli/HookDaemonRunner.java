package dev.engram.cli;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookRequest;
import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The hook daemon's calls: each runs the CLI's own command on a fresh {@link Main} with the caller's
 * folder, environment and stdin, so the daemon's answer is the in-process hook's; what stays between
 * calls is the JSON mapper and the open stores, at most {@link #MAX_STORES} of them (the least recently
 * used closes first). The stores see other processes' writes as any open engine does: a search first
 * catches the index up to the store's change sequence.
 */
final class HookDaemonRunner implements HookDaemon.Runner {
    static final int MAX_STORES = 4;

    private final Path home;
    private final String osName;
    private final Charset charset;
    private final JsonText json = JsonText.standard();
    private final BiFunction<EngramConfig, Main.Embedding, Main.OpenEngine> opener;
    private final Map<String, Main.OpenEngine> open = new LinkedHashMap<>(8, 0.75f, true);
    // each store's proxy-stats.db, kept open as the store is (SQLite: other processes' writes are seen)
    private final Map<Path, dev.engram.proxy.stats.ProxyStats> statsByStore = new LinkedHashMap<>(8, 0.75f, true);
    private final dev.engram.cli.hook.PostToolHook.StatsLease stats = new dev.engram.cli.hook.PostToolHook.StatsLease() {
        @Override
        public dev.engram.proxy.stats.ProxyStats open(Path storeDir, java.time.Clock clock) {
            synchronized (HookDaemonRunner.this) {
                var s = statsByStore.computeIfAbsent(storeDir, d -> new dev.engram.proxy.stats.ProxyStats(d, clock));
                while (statsByStore.size() > MAX_STORES) {
                    var eldest = statsByStore.entrySet().iterator();
                    var gone = eldest.next().getValue();
                    eldest.remove();
                    gone.close();
                }
                return s;
            }
        }

        @Override
        public void release(dev.engram.proxy.stats.ProxyStats s) {
            // kept for the next call
        }
    };
    // built once: picocli's model of every command took 26 ms to build per call under load, more than the call
    private picocli.CommandLine cli;

    /** {@code opener} opens a store as the CLI does; {@code charset} is what the CLI's stdout would encode with. */
    HookDaemonRunner(Path home, String osName, Charset charset, BiFunction<EngramConfig, Main.Embedding, Main.OpenEngine> opener) {
        this.home = home;
        this.osName = osName;
        this.charset = charset;
        this.opener = opener;
    }

    @Override
    public synchronized HookDaemon.Reply run(HookRequest request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Main main = new Main(request.env(), request.cwd(), home, osName, new PrintStream(out, true, charset),
                new PrintStream(err, true, charset), this::engine, new ByteArrayInputStream(request.stdin()), json, HookDaemonStarter.NONE, stats);
        if (cli == null) cli = new picocli.CommandLine(new EngramCommand(main));
        int code = main.run(cli, request.args().toArray(String[]::new));
        return new HookDaemon.Reply(code, out.toByteArray(), err.toByteArray());
    }

    /** The store's engine, kept open for the next calls: closing it is the daemon's business. */
    private synchronized Main.OpenEngine engine(EngramConfig config, Main.Embedding embedding) {
        String key = config.storeDir() + "|" + (config.store().url() == null ? "" : config.store().url());
        Main.OpenEngine e = open.get(key);
        if (e == null) {
            e = opener.apply(config, Main.Embedding.NONE); // the hooks' recall is lexical, as in their own process
            open.put(key, e);
            while (open.size() > MAX_STORES) {
                Iterator<Main.OpenEngine> eldest = open.values().iterator();
                Main.OpenEngine gone = eldest.next();
                eldest.remove();
                gone.close();
            }
        }
        return new Main.OpenEngine(e.engine(), e.indexCheck(), () -> { }, e.embedder());
    }

    /**
     * Before the first call: opens {@code config}'s store (most calls go to it: the daemon was started
     * by a hook call with the same settings) and runs a call the gates refuse, which loads the CLI's and
     * the JSON mapper's classes without touching any state. A failure here is only logged.
     */
    synchronized void warmUp(EngramConfig config, Path cwd, Map<String, String> env, PrintStream log) {
        try {
            Main.OpenEngine e = engine(config, Main.Embedding.NONE);
            // a search the way the gates' search runs, file-scoped and not: the first real call finds the JIT warm
            var source = new dev.engram.proxy.surfacing.EngineMemorySource(e::engine, config.defaultZone());
            for (int i = 0; i < 20; i++) {
                source.search("zqxwarmup zqxdaemon" + i, 3); // words no memory holds: no recall is recorded on a memory
                source.search("zqxwarmup zqxfile" + i, 3, "zqxwarm/up" + i + ".py");
            }
            Map<String, String> forwarded = new java.util.HashMap<>();
            env.forEach((k, v) -> {
                if (HookRequest.forwarded(k)) forwarded.put(k, v);
            });
            byte[] small = ("{\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"/warm-up\"},"
                    + "\"tool_response\":\"warm-up\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            run(new HookRequest(cwd, java.util.List.of("hook", "post-tool"), forwarded, small));
        } catch (RuntimeException e) {
            log.println("engram hook daemon: warming up " + config.storeDir() + " failed (" + e.getMessage() + "); the first call opens it");
        }
    }

    synchronized int openStores() {
        return open.size();
    }

    @Override
    public synchronized void close() {
        RuntimeException failure = null;
        for (Main.OpenEngine e : open.values()) {
            try {
                e.close();
            } catch (RuntimeException ex) {
                failure = ex;
            }
        }
        open.clear();
        for (var s : statsByStore.values()) {
            try {
                s.close();
            } catch (RuntimeException ex) {
                failure = ex;
            }
        }
        statsByStore.clear();
        if (failure != null) throw failure;
    }
}
