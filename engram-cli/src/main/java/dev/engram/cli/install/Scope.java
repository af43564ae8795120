package dev.engram.cli.install;

import java.util.Locale;

/** Where {@code engram init} writes: the project's own config files, or the user's under the home. */
public enum Scope {
    LOCAL, GLOBAL;

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Scope parse(String s) {
        if (s == null) return LOCAL;
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "local", "project" -> LOCAL;
            case "global", "user" -> GLOBAL;
            default -> throw new dev.engram.error.EngramUserException("--scope '" + s + "' is not a scope; send local (the project's files)"
                    + " or global (the user's files under the home)");
        };
    }
}
