package dev.engram.cli;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookRequest;
import dev.engram.crypto.Sha256;
import dev.engram.crypto.UserKey;
import dev.engram.mcp.json.JsonText;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hook daemon's calls: each runs the CLI's own command on a fresh {@link Main} with the caller's
 * folder, environment and stdin, so the daemon's answer is the in-process hook's; what stays between
 * calls is the JSON mapper and the open stores, at most {@link #MAX_STORES} of them (the least recently
 * used closes first). The stores see other processes' writes as any open engine does: a search first
 * catches the index up to the store's change sequence.
 * <p>A store is opened with the caller's store key (TOON_MEMORY_KEY / ENGRAM_KEY of the request), as the
 * hook's own JVM opens it with its environment's: a store kept open with one key is closed and opened again
 * for a call with another or none, so an encrypted store answers a call without its key as the JVM does
 * (it fails closed) instead of from the copy the daemon holds open.
 */
final class HookDaemonRunner implements HookDaemon.Runner {
    static final int MAX_STORES = 4;

    /** Opens a store as the CLI does, with the store key given (null: none). */
    interface StoreOpener {
        Main.OpenEngine open(EngramConfig config, String storeKey);
    }

    /** An open store and the digest of the key it was opened with (empty for none). */
    private record Opened(Main.OpenEngine engine, String keyDigest) {
    }

    private final Path home;
    private final String osName;
    private final Charset charset;
    private final JsonText json = JsonText.standard();
    private final StoreOpener opener;
    private final Map<String, Opened> open = new LinkedHashMap<>(8, 0.75f, true);
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
    HookDaemonRunner(Path home, String osName, Charset charset, StoreOpener opener) {
        this.home = home;
        this.osName = osName;
        this.charset = charset;
        this.opener = opener;
    }

    @Override
    public synchronized HookDaemon.Reply run(HookRequest request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String storeKey = UserKey.fromEnvironment(request.env()).orElse(null);
        Main main = new Main(request.env(), request.cwd(), home, osName, new PrintStream(out, true, charset),
                new PrintStream(err, true, charset), (config, embedding) -> engine(config, storeKey),
                new ByteArrayInputStream(request.stdin()), json, HookDaemonStarter.NONE, stats);
        if (cli == null) cli = EngramCommand.commandLine(new EngramCommand(main));
        int code = main.run(cli, request.args().toArray(String[]::new));
        return new HookDaemon.Reply(code, out.toByteArray(), err.toByteArray());
    }

    /**
     * The store's engine opened with {@code storeKey}, kept open for the next calls: closing it is the daemon's
     * business. The hooks' recall is lexical (no embedding model), as in their own process.
     */
    private synchronized Main.OpenEngine engine(EngramConfig config, String storeKey) {
        String where = config.storeDir() + "|" + (config.store().url() == null ? "" : config.store().url());
        String digest = digest(storeKey);
        Opened o = open.get(where);
        if (o != null && !o.keyDigest().equals(digest)) {
            // one store open once: a second engine on its directory would wait on the first one's index lock
            open.remove(where);
            o.engine().close();
            o = null;
        }
        if (o == null) {
            o = new Opened(opener.open(config, storeKey), digest);
            open.put(where, o);
            while (open.size() > MAX_STORES) {
                Iterator<Opened> eldest = open.values().iterator();
                Opened gone = eldest.next();
                eldest.remove();
                gone.engine().close();
            }
        }
        Main.OpenEngine e = o.engine();
        return new Main.OpenEngine(e.engine(), e.indexCheck(), () -> { }, e.embedder());
    }

    /** What tells two store keys apart without keeping a second copy of either: their SHA-256. */
    private static String digest(String storeKey) {
        return storeKey == null ? "" : Sha256.hex(storeKey);
    }

    /**
     * Before the first call: opens {@code config}'s store (most calls go to it: the daemon was started
     * by a hook call with the same settings) and runs a call the gates refuse, which loads the CLI's and
     * the JSON mapper's classes without touching any state. A failure here is only logged.
     */
    synchronized void warmUp(EngramConfig config, Path cwd, Map<String, String> env, PrintStream log) {
        try {
            Main.OpenEngine e = engine(config, UserKey.fromEnvironment(env).orElse(null));
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
        for (Opened o : open.values()) {
            try {
                o.engine().close();
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
