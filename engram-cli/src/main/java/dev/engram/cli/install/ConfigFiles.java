package dev.engram.cli.install;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/** Reading and replacing agents' config files: whole-file atomic replacement, the owner's permissions kept. */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    /** The file's text, or null when it does not exist. */
    public static String read(Path file) throws IOException {
        if (!Files.exists(file)) return null;
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /**
     * Writes {@code text} to a temporary file beside {@code file} and renames it over the file, so a crash
     * leaves the old file or the new one, never half of one. The old file's POSIX permissions carry over
     * (~/.claude.json is private to its owner).
     */
    public static void write(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".engram-" + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
                ch.force(true);
            }
            if (Files.exists(file)) {
                try {
                    Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: the platform's defaults apply
                }
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The folders above {@code file} that do not exist yet, deepest first (those a write would create). */
    public static List<Path> missingFolders(Path file) {
        List<Path> out = new ArrayList<>();
        for (Path d = file.toAbsolutePath().getParent(); d != null && !Files.exists(d); d = d.getParent()) out.add(d);
        return out;
    }

    /**
     * A line diff of two texts: the lines both share at the start and the end are left out, the rest
     * shown as {@code -} and {@code +} lines under the line number where they start.
     */
    public static String diff(String before, String after) {
        List<String> a = before == null ? List.of() : before.lines().toList();
        List<String> b = after == null ? List.of() : after.lines().toList();
        int head = 0;
        while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) head++;
        int tail = 0;
        while (tail < a.size() - head && tail < b.size() - head && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) tail++;
        StringBuilder out = new StringBuilder("@@ line ").append(head + 1).append(" @@\n");
        for (int i = head; i < a.size() - tail; i++) out.append("- ").append(a.get(i)).append('\n');
        for (int i = head; i < b.size() - tail; i++) out.append("+ ").append(b.get(i)).append('\n');
        return out.toString();
    }
}
