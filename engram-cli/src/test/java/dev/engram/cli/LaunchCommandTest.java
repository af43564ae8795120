package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.error.EngramUserException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code engram init} writes as the command when {@code --command} is not given. */
class LaunchCommandTest {
    @TempDir
    Path dir;

    private Path executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, Set.of(java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                java.nio.file.attribute.PosixFilePermission.OWNER_WRITE, java.nio.file.attribute.PosixFilePermission.OWNER_EXECUTE));
        return file;
    }

    @Test
    void theLauncherBesideTheRunningJarWins() throws IOException {
        Path launcher = executable(dir.resolve("repo/engram"), "#!/usr/bin/env bash\n" + InitSubcommand.LAUNCHER_MARK + ": builds\n");
        Path jar = Files.createDirectories(dir.resolve("repo/engram-cli/target")).resolve("engram.jar");
        Files.writeString(jar, "");
        assertEquals(List.of(launcher.toString()), InitSubcommand.launchCommand(null, Map.of(), jar));
    }

    @Test
    void anotherProgramCalledEngramOnPathIsPassedOver() throws IOException {
        executable(dir.resolve("bin/engram"), "\u007fELF a Go binary of another memory server");
        Path ours = executable(dir.resolve("tools/engram"), "#!/usr/bin/env bash\n" + InitSubcommand.LAUNCHER_MARK + "\n");
        Map<String, String> env = Map.of("PATH", dir.resolve("bin") + ":" + dir.resolve("tools"));
        assertEquals(List.of(ours.toString()), InitSubcommand.launchCommand(null, env, null));
        Path jar = dir.resolve("x/y/engram.jar");
        List<String> fallback = InitSubcommand.launchCommand(null, Map.of("PATH", dir.resolve("bin").toString()), jar);
        assertEquals(List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString()), fallback.subList(1, 5),
                "the launcher's flags for a one-client command");
        assertTrue(Path.of(fallback.get(0)).isAbsolute() && fallback.get(0).endsWith("java"), fallback.get(0));
    }

    @Test
    void anExplicitCommandIsSplitLikeAShellAndMustBeAbsolute() {
        assertEquals(List.of("/opt/java/bin/java", "-jar", "/opt/my engram/engram.jar"),
                InitSubcommand.launchCommand("/opt/java/bin/java -jar '/opt/my engram/engram.jar'", Map.of(), null));
        assertEquals(List.of("engram"), InitSubcommand.launchCommand("engram", Map.of(), null));
        EngramUserException e = assertThrows(EngramUserException.class, () -> InitSubcommand.launchCommand("./engram mcp", Map.of(), null));
        assertTrue(e.getMessage().contains("'./engram' is a relative path"), e.getMessage());
        assertThrows(EngramUserException.class, () -> InitSubcommand.launchCommand("  ", Map.of(), null));
        EngramUserException none = assertThrows(EngramUserException.class, () -> InitSubcommand.launchCommand(null, Map.of(), null));
        assertTrue(none.getMessage().contains("pass --command"), none.getMessage());
    }
}
