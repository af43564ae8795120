package dev.engram.cli;

import dev.engram.cli.hook.HookDaemon;
import dev.engram.cli.hook.HookDaemonFiles;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a hook call answered in its own JVM does next: starts the hook daemon of its data folder for
 * the calls after it when its caller, the launcher, sends calls there ({@link #callerUsesDaemon}), detached (its own session, stdin and stdout closed, stderr to
 * {@code hookd/daemon.log}), unless {@value #SWITCH} is off or one already runs. Two calls that start one
 * at once are harmless: the second daemon finds the first's lock and exits.
 */
interface HookDaemonStarter {
    /** Turns the automatic start off: {@code ENGRAM_HOOK_DAEMON=off} (also 0, false, no). */
    String SWITCH = "ENGRAM_HOOK_DAEMON";

    HookDaemonStarter NONE = (env, dataDir, err) -> { };

    /**
     * Set to 1 by the {@code engram} launcher on a hook call it runs in a JVM: it is what sends hook calls to the
     * daemon. A hook started any other way ({@code java -jar engram.jar hook …}, as {@code engram init} registers
     * hooks when no launcher is found) never talks to one, so it starts none: a daemon nobody calls only holds
     * ~135 MB for its idle timeout.
     */
    String LAUNCHER = "ENGRAM_HOOK_LAUNCHER";

    /** Whether the caller of this hook sends later calls to the daemon ({@value #LAUNCHER} is 1). */
    static boolean callerUsesDaemon(Map<String, String> env) {
        String v = env.get(LAUNCHER);
        return v != null && v.strip().equals("1");
    }

    void afterInProcessCall(Map<String, String> env, Path dataDir, PrintStream err);

    static boolean disabled(Map<String, String> env) {
        String v = env.get(SWITCH);
        return v != null && List.of("off", "0", "false", "no").contains(v.strip().toLowerCase(Locale.ROOT));
    }

    /** Starts {@code java -cp <this JVM's class path> dev.engram.cli.Main hook daemon} with {@code env} over this process's. */
    HookDaemonStarter SPAWN = (env, dataDir, err) -> {
        if (disabled(env)) return;
        HookDaemonFiles files = HookDaemonFiles.in(dataDir);
        if (HookDaemon.running(files)) return;
        try {
            files.create();
            List<String> cmd = new ArrayList<>();
            if (new File("/usr/bin/setsid").canExecute()) cmd.add("/usr/bin/setsid"); // out of the host's process group
            cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            cmd.addAll(List.of("-Xshare:auto", "-XX:+UseSerialGC", "-Xlog:disable", "-Xlog:all=warning:stderr",
                    "-Dfile.encoding=" + System.getProperty("file.encoding"),
                    // the daemon finds its data folder as this JVM did, which may have been given another home
                    "-Duser.home=" + System.getProperty("user.home"),
                    "-cp", System.getProperty("java.class.path"), Main.class.getName(), "hook", "daemon"));
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(dataDir.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File(File.separatorChar == '/' ? "/dev/null" : "NUL")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.appendTo(files.log().toFile()));
            pb.environment().putAll(env);
            // the daemon's git (the branch of `hook capture` and of toon's stop checkpoint) must find each call's
            // repository from the call's folder alone, not from the GIT_DIR & co. of whichever hook started it;
            // the launcher sends it no call whose own GIT_ variables would change that answer
            pb.environment().keySet().removeIf(name -> name.startsWith("GIT_"));
            pb.start();
        } catch (IOException | RuntimeException e) {
            err.println("engram hook: could not start the hook daemon (" + e.getMessage() + "); hooks keep running in their own process"
                    + " (" + SWITCH + "=off stops trying)");
        }
    };

    /** Whether a file of this JVM's class path (the jar) changed since {@code mtimes} were taken: the daemon is outdated. */
    static Map<Path, Long> classPathStamps() {
        Map<Path, Long> out = new java.util.HashMap<>();
        for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (entry.isBlank()) continue;
            Path p = Path.of(entry);
            if (Files.isRegularFile(p)) out.put(p, stamp(p));
        }
        return Map.copyOf(out);
    }

    static boolean changed(Map<Path, Long> stamps) {
        return stamps.entrySet().stream().anyMatch(e -> stamp(e.getKey()) != e.getValue());
    }

    private static long stamp(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis() ^ Files.size(p) * 31;
        } catch (IOException e) {
            return -1;
        }
    }
}
