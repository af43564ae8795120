package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram hook capture}: where it writes toon's capture log. */
class CaptureHookTest {
    @TempDir
    Path tmp;

    @AfterEach
    void restore() {
        HookSubcommand.stdin = System.in;
    }

    private CliRunner.Run capture(Path cwd, String event) {
        HookSubcommand.stdin = new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8));
        return new CliRunner(cwd, Map.of("ENGRAM_CAPTURE", "1", "ENGRAM_HOME", tmp.resolve("store").toString()),
                (config, embedding) -> Main.openEmbedded(config, Clock.systemUTC(), null)).run("hook", "capture", "claude");
    }

    private static String event(String cwd, String file) {
        return "{\"session_id\":\"s1\",\"cwd\":\"" + cwd + "\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"" + file + "\"}}";
    }

    @Test
    void theEventsCwdIsUsedOnlyWhenItIsAnExistingAbsoluteFolder() throws IOException {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Path missing = tmp.resolve("nonexistent/dir");
        assertEquals(0, capture(project, event(other.toString(), "a.md")).exitCode());
        assertEquals(0, capture(project, event(missing.toString(), "b.md")).exitCode());
        assertEquals(0, capture(project, event("sub", "c.md")).exitCode());
        assertFalse(Files.exists(tmp.resolve("nonexistent")), "no project folder is made for a cwd that names none");
        assertFalse(Files.exists(project.resolve("sub")), "a relative cwd is not resolved against the hook's folder");
        String log = Files.readString(other.resolve(".toon-memory/memory/observations.toon"));
        assertTrue(log.contains("|a.md|"), log);
        String own = Files.readString(project.resolve(".toon-memory/memory/observations.toon"));
        assertTrue(own.contains("|b.md|") && own.contains("|c.md|"), "the hook's own folder instead:\n" + own);
    }

    @Test
    void theCaptureLogIsKeptOutOfTheProjectsGitButData_toonIsNot() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("project"));
        assertEquals(0, capture(project, event(project.toString(), "a.md")).exitCode());
        Path memory = project.resolve(".toon-memory/memory");
        Files.writeString(memory.resolve("data.toon"), "version: 1\n");
        Files.writeString(memory.resolve("observations.toon.lock"), "");
        Files.writeString(memory.resolve("observations.toon.123.tmp"), "");
        String ignore = Files.readString(memory.resolve(".gitignore"));
        assertEquals(java.util.List.of(".gitignore", "observations.toon", "observations.toon.lock", "observations.toon.*.tmp"),
                ignore.lines().filter(l -> !l.startsWith("#")).toList());
        git(project, "init", "-q");
        String status = git(project, "status", "--porcelain", "--untracked-files=all");
        org.junit.jupiter.api.Assumptions.assumeTrue(status != null, "no git here");
        assertEquals(".toon-memory/memory/data.toon", status.strip().replaceFirst("^\\?\\? ", ""), "git add -A takes data.toon only");
    }

    @Test
    void aGitignoreAlreadyInTheMemoryFolderIsLeftAsItIs() throws IOException {
        Path project = Files.createDirectories(tmp.resolve("project"));
        Path memory = Files.createDirectories(project.resolve(".toon-memory/memory"));
        Files.writeString(memory.resolve(".gitignore"), "secrets.toon\n");
        assertEquals(0, capture(project, event(project.toString(), "a.md")).exitCode());
        assertEquals("secrets.toon\n", Files.readString(memory.resolve(".gitignore")));
    }

    /** {@code git ARGS} in {@code dir}: its stdout, null when git cannot run here. */
    private static String git(Path dir, String... args) {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("git"));
        cmd.addAll(java.util.List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? out : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
