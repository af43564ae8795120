package dev.engram.platform;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The user's home as the agents find theirs: {@code $HOME} when it is set to an absolute path, else Java's
 * {@code user.home}. Java reads {@code user.home} from the password database, so under a container, {@code sudo -E}
 * or a test that sets {@code HOME}, it names another folder than the one where Claude Code, Codex or toon-memory
 * (Node) look, and Engram would write their configs and toon's global file where nothing reads them.
 */
public final class UserHome {
    private UserHome() {
    }

    public static Path of(Map<String, String> env) {
        String home = env.get("HOME");
        if (home != null && !home.isBlank()) {
            try {
                Path p = Path.of(home.strip());
                if (p.isAbsolute()) return p.normalize();
            } catch (InvalidPathException e) {
                // not a path: fall back to Java's
            }
        }
        return Path.of(System.getProperty("user.home"));
    }

    /** This process's home ({@link #of} over the process environment). */
    public static Path current() {
        return of(System.getenv());
    }
}
