package dev.engram.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where the per-user store lives when nothing names one: the platform's directory for application
 * data, never a dot-directory of the home shared by programs of the same name ({@code ~/.engram} is
 * also Gentleman-Programming/engram's).
 */
final class DefaultStoreDir {
    static final String NAME = "engram";

    private DefaultStoreDir() {
    }

    /**
     * Linux and other Unix: {@code $XDG_DATA_HOME/engram}, else {@code ~/.local/share/engram} (the XDG
     * base directory spec ignores a relative {@code XDG_DATA_HOME}); macOS: {@code ~/Library/Application
     * Support/engram}; Windows: {@code %LOCALAPPDATA%\engram}, else {@code ~\AppData\Local\engram}.
     */
    static Path of(String osName, Map<String, String> env, Path home) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        Path base;
        if (os.startsWith("windows")) {
            String local = env.get("LOCALAPPDATA");
            base = local != null && !local.isBlank() ? Path.of(local) : home.resolve("AppData").resolve("Local");
        } else if (os.startsWith("mac")) {
            base = home.resolve("Library").resolve("Application Support");
        } else {
            String xdg = env.get("XDG_DATA_HOME");
            base = xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".local").resolve("share");
        }
        return base.resolve(NAME);
    }
}
