package dev.engram.cli;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** Options every command accepts, before or after the command name. */
final class GlobalOptions {
    @Option(names = "--store", paramLabel = "DIR|URL", scope = ScopeType.INHERIT,
            description = "Store directory (default: $ENGRAM_HOME, else the platform's data directory,"
                    + " e.g. ~/.local/share/engram; `engram doctor` shows which and why), or a"
                    + " postgresql://user@host:5432/db[?schema=name] URL shared by several servers (also $ENGRAM_STORE)")
    String store;

    @Option(names = "--project", scope = ScopeType.INHERIT,
            description = "Use the store in .engram-store at the root of the current git repository")
    boolean project;

    @Option(names = "--zone", paramLabel = "ZONE", scope = ScopeType.INHERIT,
            description = "Zone (namespace) to work in (default: default; stats and export: all zones);"
                    + " for tokens add, ZONE:RIGHT, repeatable")
    java.util.List<String> zones = new java.util.ArrayList<>();

    /** The one zone a command works in, or null; only {@code tokens add} takes several. */
    String zone() {
        if (zones.size() > 1) {
            throw new ConfigException("--zone", "flag", "is given " + zones.size() + " times; this command works in one zone");
        }
        return zones.isEmpty() ? null : zones.get(0);
    }

    @Option(names = "--json", scope = ScopeType.INHERIT, description = "Print JSON instead of text")
    boolean json;

    @Option(names = "--debug", scope = ScopeType.INHERIT, description = "Show stack traces on failure")
    boolean debug;
}
