package dev.engram.cli;

import dev.engram.mcp.server.StdioServer;
import dev.engram.proxy.ProxyRuntime;
import dev.engram.proxy.ProxyServer;
import dev.engram.proxy.ProxyConfigWatcher;
import dev.engram.proxy.config.ProxyConfigFile;
import dev.engram.proxy.upstream.Exposure;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

@Command(name = "proxy", mixinStandardHelpOptions = true, description = {"Serve MCP over stdio in front of other MCP servers: their tools as prefix__tool,"
        + " results cleaned, compressed and followed by relevant memories.", "Configure upstreams with the subcommands."},
        subcommands = {ProxyAddSubcommand.class, ProxyListSubcommand.class, ProxyRemoveSubcommand.class,
                ProxyStatsSubcommand.class, ProxyHealthSubcommand.class, ProxyTuneSubcommand.class,
                ProxyProposalsSubcommand.class, ProxyConfigSubcommand.class, ProxyImportSubcommand.class, ProxyDoctorSubcommand.class,
                ProxySurfacingSubcommand.class})
final class ProxySubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Override
    public Integer call() {
        root.textOnly("proxy", "stdout carries the MCP protocol, which is JSON-RPC already");
        // first of all: from here on stdout carries JSON-RPC only (SDK gotcha 6)
        OutputStream protocol = StdioServer.claimStdout();
        Main main = root.main();
        EngramConfig config = root.config();
        CompletableFuture<Main.OpenEngine> opening = main.openEngineInBackground(config);
        ProxyRuntime runtime = main.proxyRuntime(config, Main.engineWhenOpen(opening));
        // a slow or hung upstream must not hold the agent's initialize: serve after a short wait with those
        // that are up; the others join when they connect (the agent gets tools/list_changed)
        Exposure exposure = runtime.connectAll(ProxyRuntime.STARTUP_WAIT);
        long connecting = runtime.upstreams().stream().filter(u -> u.connecting()).count();
        main.err().println("engram proxy: " + exposure.tools().size() + " upstream tools exposed from "
                + exposure.servers().size() + " servers" + (connecting == 0 ? ""
                : "; " + connecting + " still connecting, added when up"));
        AtomicReference<McpSyncServer> serving = new AtomicReference<>();
        AtomicReference<ProxyConfigWatcher> watching = new AtomicReference<>();
        RunOnce stop = new RunOnce(() -> {
            ProxyConfigWatcher w = watching.get();
            if (w != null) w.close();
            McpSyncServer s = serving.get();
            if (s != null) s.closeGracefully();
            runtime.close();
            opening.thenAccept(Main.OpenEngine::close);
        });
        McpSyncServer server = StdioServer.start(main.json().mapper(),
                ProxyServer.forwardingSubscriptions(stopOnEof(System.in, runtime, stop), runtime, main.json().mapper()), protocol,
                spec -> ProxyServer.build(spec, runtime, Main.version()), runtime.agentRequests());
        serving.set(server);
        runtime.agentRequests().serving(server);
        // from here on: upstream list changes and proxy.json edits reach the agent's tool list
        ProxyServer.follow(server, runtime);
        watching.set(ProxyConfigWatcher.start(new ProxyConfigFile(config.storeDir(), main.json().mapper()), runtime,
                main.err()::println));
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "engram-proxy-shutdown"));
        return Main.SERVING;
    }

    /**
     * Upstream clients keep non-daemon threads alive, so the JVM would outlive the agent's stdin. At EOF, wait
     * (bounded) for calls in flight, then stop (upstreams, store) and halt, as {@code engram mcp} does
     * ({@link RunOnce#runThenHalt}).
     */
    private static InputStream stopOnEof(InputStream in, ProxyRuntime runtime, RunOnce stop) {
        return new FilterInputStream(in) {
            private boolean exiting;

            @Override
            public int read() throws IOException {
                return eof(super.read());
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return eof(super.read(b, off, len));
            }

            private int eof(int n) {
                if (n < 0 && !exiting) {
                    exiting = true;
                    Thread t = new Thread(() -> {
                        long deadline = System.nanoTime() + 30_000_000_000L;
                        try {
                            do {
                                Thread.sleep(200); // lets the last answer reach stdout
                            } while (runtime.gateway().inFlight() > 0 && System.nanoTime() < deadline);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt(); // stop at once, upstreams included
                        }
                        stop.runThenHalt();
                    }, "engram-proxy-eof");
                    t.setDaemon(true);
                    t.start();
                }
                return n;
            }
        };
    }
}
