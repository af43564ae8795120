package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.memento.MementoModes;
import dev.engram.mcp.profile.memento.MementoProfile;
import dev.engram.mcp.profile.toon.ToonProfile;
import dev.engram.mcp.server.SessionHeartbeat;
import dev.engram.mcp.server.StdioServer;
import dev.engram.mcp.tool.ProjectBranch;
import io.modelcontextprotocol.server.McpSyncServer;
import java.io.OutputStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

@Command(name = "mcp", mixinStandardHelpOptions = true, description = "Serve MCP over stdio (what agents spawn).")
final class McpSubcommand implements Callable<Integer> {
    @ParentCommand
    EngramCommand root;

    @Option(names = "--profile", paramLabel = "NAME", description = ConfigLoader.PROFILE_HELP)
    String profile;

    @Option(names = "--mode", paramLabel = "PRESET", description = "With --profile memento: serve only a mode preset's tools"
            + " (recall-only, write-only, onboarding, audit), as Memento's X-Memento-Mode header does over HTTP")
    String mode;

    @Override
    public Integer call() {
        Main main = root.main();
        root.textOnly("mcp", "stdout carries the MCP protocol, which is JSON-RPC already");
        // checked while stdout is still ours, so an unknown name is reported and nothing is served
        String profileName = main.configLoader().profile(profile, main.profiles());
        if (mode != null && !profileName.equals(MementoProfile.NAME)) {
            throw new EngramUserException("--mode picks one of Memento's mode presets; it needs --profile memento (the profile is "
                    + profileName + ")");
        }
        if (mode != null && !MementoModes.names().contains(mode.strip().toLowerCase(java.util.Locale.ROOT))) {
            throw new EngramUserException("--mode '" + mode + "' is not a mode preset; send one of " + String.join(", ", MementoModes.names()));
        }
        // a bad ENGRAM_MAINTENANCE_INTERVAL is reported now too, while stderr and the exit code still reach the user
        main.configLoader().maintenanceInterval(dev.engram.engine.lifecycle.LifecyclePolicy.forProfile(profileName));
        // and a bad session id, as early (TOON_MEMORY_SESSION_ID / ENGRAM_SESSION_ID)
        String sessionId = main.configLoader().sessionId();
        // from here on stdout carries JSON-RPC only (SDK gotcha 6)
        OutputStream protocol = StdioServer.claimStdout();
        EngramConfig config = root.config();
        if (profileName.equals(ToonProfile.NAME)) config = main.configLoader().perProject(config);
        CompletableFuture<Main.OpenEngine> opening = main.openEngineInBackground(config);
        CompletableFuture<AutoCloseable> maintenance = opening.thenApply(o -> main.startMaintenance(profileName, o.engine()));
        ToolProfile served = main.profile(profileName, config, Main.engineWhenOpen(opening));
        if (mode != null) served = MementoModes.variant(served, mode);
        // every tool call records this process's session in the store, so sessions of all processes see each other
        if (!main.configLoader().sessionsDisabled()) {
            served = new SessionHeartbeat(Main.engineWhenOpen(opening), sessionId,
                    ProjectBranch.workingDirectory(), java.time.Clock.systemUTC()).around(served);
        }
        java.util.concurrent.atomic.AtomicReference<McpSyncServer> serving = new java.util.concurrent.atomic.AtomicReference<>();
        RunOnce stop = new RunOnce(() -> {
            McpSyncServer s = serving.get();
            if (s != null) s.closeGracefully();
            maintenance.thenAccept(m -> {
                try {
                    m.close();
                } catch (Exception e) {
                    System.err.println("stopping the maintenance schedule failed: " + e);
                }
            });
            opening.thenAccept(Main.OpenEngine::close);
        });
        // When the agent closes stdin (every request answered), everything is closed in order at once and the process
        // ends. A plain exit would wait for a model still loading (its load thread is not a daemon, see LazyEmbedder):
        // seconds, after which clients signal the server (the TypeScript SDK does 2 s after closing stdin). Halting
        // skips only the hooks that would wait for that load or release the model's memory.
        McpSyncServer server = StdioServer.start(served, Main.version(), main.json().mapper(), System.in, protocol,
                () -> new Thread(stop::runThenHalt, "engram-input-ended").start());
        serving.set(server);
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "engram-shutdown"));
        // a signal stops at once, writing nothing (see StopSignal)
        StopSignal.haltOnSignal();
        // the transport's reader thread keeps the JVM alive; it exits when the agent closes stdin
        return Main.SERVING;
    }
}
