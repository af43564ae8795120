package dev.engram.mcp.profile.toon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The few read-only git facts toon's context tools print; empty when git or the repository is missing. */
final class Git {
    private Git() {
    }

    static List<String> lines(Path dir, String... args) {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "git";
        System.arraycopy(args, 0, cmd, 1, args.length);
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(false)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(64 * 1024);
            if (!p.waitFor(3, TimeUnit.SECONDS)) {
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
}
