package dev.engram.mcp.tool;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The git branch checked out in a project directory, read from {@code .git/HEAD} (no git process: a
 * write must not wait for one, and git may not be installed). Found by walking up from the directory,
 * as git does; a worktree's {@code .git} file names its real git directory. A detached HEAD gives the
 * commit's first 12 characters; no repository gives null. Read on every call, because the agent may
 * switch branches while the server runs; the file is a few bytes.
 */
public final class ProjectBranch {
    private static final String REF_PREFIX = "ref: refs/heads/";
    private final Path start;

    public ProjectBranch(Path start) {
        this.start = start.toAbsolutePath().normalize();
    }

    /** The directory the server was started in: the agent's project. */
    public static ProjectBranch workingDirectory() {
        return new ProjectBranch(Path.of(""));
    }

    /**
     * A file as the project names it: an absolute path inside the project directory relative to it, with '/'
     * separators, so "/home/ann/app/src/a.ts" and "src/a.ts" are one file; anything else as given.
     */
    public String relative(String file) {
        try {
            Path p = Path.of(file);
            if (!p.isAbsolute()) return file;
            Path n = p.normalize();
            if (!n.startsWith(start) || n.equals(start)) return file;
            return start.relativize(n).toString().replace(java.io.File.separatorChar, '/');
        } catch (RuntimeException e) {
            return file; // not a path on this system (InvalidPathException): shown as sent
        }
    }

    public String current() {
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            Path git = dir.resolve(".git");
            try {
                if (Files.isDirectory(git)) return branchOf(git);
                if (Files.isRegularFile(git)) {
                    String link = Files.readString(git, StandardCharsets.UTF_8).strip();
                    if (!link.startsWith("gitdir:")) return null;
                    return branchOf(dir.resolve(link.substring("gitdir:".length()).strip()));
                }
            } catch (IOException | RuntimeException e) {
                return null; // an unreadable repository records no branch; the write itself goes on
            }
        }
        return null;
    }

    private static String branchOf(Path gitDir) throws IOException {
        Path head = gitDir.resolve("HEAD");
        if (!Files.isRegularFile(head)) return null;
        String text = Files.readString(head, StandardCharsets.UTF_8).strip();
        if (text.startsWith(REF_PREFIX)) return text.substring(REF_PREFIX.length());
        return text.matches("[0-9a-f]{40,64}") ? text.substring(0, 12) : null;
    }
}
