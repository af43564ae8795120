package dev.engram.cli.install;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;

/** Reading and replacing agents' config files: whole-file atomic replacement, the owner's permissions kept. */
public final class ConfigFiles {
    private ConfigFiles() {
    }

    /**
     * A config file that cannot be read as text, or a path that cannot hold one: {@code getMessage()} names the path
     * and says why in words. The installer refuses that agent and leaves the path as it is.
     */
    public static final class Unreadable extends IOException {
        public Unreadable(String message) {
            super(message);
        }
    }

    /**
     * The file's text, or null when it does not exist. A folder at its path, a file where one of its folders
     * should be, a link to nothing, a file that is not UTF-8 text (UTF-16, Latin-1) or that cannot be read is
     * {@link Unreadable}: its agent is refused rather than the whole run stopped half way.
     */
    public static String read(Path file) throws IOException {
        for (Path d = file.toAbsolutePath().getParent(); d != null; d = d.getParent()) {
            if (!Files.exists(d)) continue;
            if (!Files.isDirectory(d)) throw new Unreadable(d + " is a file where a folder holding " + file + " should be");
            break;
        }
        if (Files.isSymbolicLink(file) && !Files.exists(file)) {
            throw new Unreadable(file + " is a symbolic link to " + Files.readSymbolicLink(file) + ", which does not exist");
        }
        if (!Files.exists(file)) return null;
        if (Files.isDirectory(file)) throw new Unreadable(file + " is a folder, not a file");
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new Unreadable(file + " cannot be read: " + why(e));
        }
        if (bytes.length >= 2 && ((bytes[0] == (byte) 0xFF && bytes[1] == (byte) 0xFE) || (bytes[0] == (byte) 0xFE && bytes[1] == (byte) 0xFF))) {
            throw new Unreadable(file + " is UTF-16 text; agents read their configs as UTF-8: save it as UTF-8");
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer chars = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, chars, true);
        if (result.isError()) {
            int line = 1;
            for (int i = 0; i < in.position(); i++) if (bytes[i] == '\n') line++;
            throw new Unreadable(file + " is not UTF-8 text (line " + line + " holds a byte that is not UTF-8, as Latin-1 or"
                    + " Windows-1252 text does); save it as UTF-8");
        }
        decoder.flush(chars);
        String text = chars.flip().toString();
        if (text.indexOf('\0') >= 0) throw new Unreadable(file + " holds NUL characters (UTF-16 text?); save it as UTF-8");
        return text;
    }

    /**
     * Why {@code file} must not be changed, or null: a file its owner made read-only stays as it is (root could
     * write it anyway; the owner's write bit says what the user meant).
     */
    public static String readOnly(Path file) {
        if (!Files.exists(file)) return null;
        try {
            if (!Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_WRITE)) return file + " is read-only";
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: ask the platform
        }
        return Files.isWritable(file) ? null : file + " is read-only";
    }

    /** An I/O failure in words, with the path it concerns. */
    public static String why(IOException e) {
        if (e instanceof java.nio.file.AccessDeniedException a) return a.getFile() + ": permission denied";
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) return f.getFile() + ": " + f.getReason();
        return e.getMessage() != null ? e.getMessage() : e.toString();
    }

    /**
     * Writes {@code text} to a temporary file beside {@code file} and renames it over the file, so a crash
     * leaves the old file or the new one, never half of one. The old file's POSIX permissions carry over
     * (~/.claude.json is private to its owner). A symbolic link is followed: the file it points to is replaced.
     */
    public static void write(Path path, String text) throws IOException {
        // a linked config (.mcp.json -> dotfiles/mcp.json) is written where the link points, and stays a link
        Path file = Files.isSymbolicLink(path) && Files.exists(path) ? path.toRealPath() : path;
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
