package dev.engram.mcp.profile.toon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** The few read-only git facts toon's context tools print; empty when git or the repository is missing. */
final class Git {
    private Git() {
    }

    static List<String> lines(Path dir, String... args) {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "git";
        System.arraycopy(args, 0, cmd, 1, args.length);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            // the output is read beside the wait, so a git that hangs with its output open (a slow network
            // filesystem, a lock) costs the 3 s too instead of blocking the read: `engram hook capture`'s branch
            // then returns in bounded time in the hook daemon, well inside the capture log's de-duplication window
            // on a thread of its own: the common pool has one thread on a 2-core machine, so a hanging git there
            // would hold up every other caller's read (and their deadlines) behind it
            CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.getInputStream().readNBytes(64 * 1024);
                } catch (IOException e) {
                    return null;
                }
            }, Git::ownThread);
            byte[] out;
            try {
                out = read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                out = null;
            }
            if (out == null || !p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList() : List.of();
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }

    /** Runs a git output read on a daemon thread of its own, which ends when the process's output closes. */
    private static void ownThread(Runnable read) {
        Thread t = new Thread(read, "git-output");
        t.setDaemon(true);
        t.start();
    }
}
