package dev.engram.cli.install;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One coding agent Engram can register with: where its MCP config lives (per project and per user),
 * the file's format, where the servers go in it and how one server is written, and where its hooks
 * go, if it has any. Paths are functions of {@link Places} so tests run against a temporary home.
 */
public record Agent(String name, List<String> aliases, Format format, List<String> serversPath, Shape shape,
                    Function<Places, Path> local, Function<Places, Path> global,
                    Function<Places, List<Path>> localMarkers, Function<Places, List<Path>> globalMarkers,
                    Hooks hooks) {
    public Agent {
        aliases = List.copyOf(aliases);
        serversPath = List.copyOf(serversPath);
    }

    /** The project, the user's home, the platform and the environment the paths are resolved against. */
    public record Places(Path project, Path home, String os, Map<String, String> env) {
        public boolean windows() {
            return os != null && os.toLowerCase(java.util.Locale.ROOT).startsWith("windows");
        }

        boolean mac() {
            return os != null && os.toLowerCase(java.util.Locale.ROOT).startsWith("mac");
        }

        /** {@code $XDG_CONFIG_HOME} (absolute), else {@code ~/.config}: where Linux tools keep their settings. */
        Path xdgConfig() {
            String x = env.get("XDG_CONFIG_HOME");
            return x != null && !x.isBlank() && Path.of(x).isAbsolute() ? Path.of(x) : home.resolve(".config");
        }

        /** VS Code's user folder (its user-level mcp.json and the extensions' globalStorage live there). */
        Path vscodeUser() {
            if (windows()) {
                String appData = env.get("APPDATA");
                Path base = appData != null && !appData.isBlank() ? Path.of(appData) : home.resolve("AppData").resolve("Roaming");
                return base.resolve("Code").resolve("User");
            }
            if (mac()) return home.resolve("Library").resolve("Application Support").resolve("Code").resolve("User");
            return xdgConfig().resolve("Code").resolve("User");
        }

        /** Codex's home: {@code $CODEX_HOME}, else {@code ~/.codex}. */
        Path codexHome() {
            String c = env.get("CODEX_HOME");
            return c != null && !c.isBlank() && Path.of(c).isAbsolute() ? Path.of(c) : home.resolve(".codex");
        }
    }

    /** How the config file is read: plain JSON, JSON with comments and trailing commas, or TOML. */
    public enum Format {
        JSON, JSONC, TOML;

        boolean jsonc() {
            return this == JSONC;
        }
    }

    /** How one stdio server is written in the agent's config. */
    public enum Shape {
        /** {@code {"command": …, "args": […]}}: Claude Code, Cursor, Gemini, Windsurf, Cline, Kiro and most others. */
        STANDARD,
        /** VS Code: {@code {"type": "stdio", "command": …, "args": […]}}. */
        VSCODE,
        /** OpenCode: {@code {"type": "local", "command": [command, args…], "enabled": true}}. */
        OPENCODE,
        /** Zed: {@code {"command": …, "args": […], "env": {}}}. */
        ZED,
        /** Codex: a {@code [mcp_servers.NAME]} TOML table with command and args. */
        TOML_TABLE;

        /** The server entry as plain values (not for {@link #TOML_TABLE}). */
        Map<String, Object> entry(String command, List<String> args) {
            Map<String, Object> m = new LinkedHashMap<>();
            switch (this) {
                case VSCODE -> {
                    m.put("type", "stdio");
                    m.put("command", command);
                    m.put("args", List.copyOf(args));
                }
                case OPENCODE -> {
                    m.put("type", "local");
                    List<Object> all = new java.util.ArrayList<>();
                    all.add(command);
                    all.addAll(args);
                    m.put("command", all);
                    m.put("enabled", true);
                }
                case ZED -> {
                    m.put("command", command);
                    m.put("args", List.copyOf(args));
                    m.put("env", new LinkedHashMap<>());
                }
                default -> {
                    m.put("command", command);
                    m.put("args", List.copyOf(args));
                }
            }
            return m;
        }
    }

    /**
     * An agent's hooks: the JSON file they go in per scope, the event names for session start, for after
     * a tool ran and for the end of a turn, whether each handler carries a {@code name} (Gemini CLI's do), and
     * the shell the agent runs a hook's command with on Windows (a POSIX shell everywhere else).
     */
    public record Hooks(Function<Places, Path> local, Function<Places, Path> global, String sessionStart, String afterTool,
                        String stop, boolean named, HookShell windowsShell) {
        /** The shell a hook command is written for here. */
        public HookShell shell(Places places) {
            return places.windows() ? windowsShell : HookShell.POSIX;
        }

        /** One matcher group holding one command handler, in the Claude Code shape Codex and Gemini share. */
        Map<String, Object> group(String handlerName, String command) {
            Map<String, Object> handler = new LinkedHashMap<>();
            if (named) handler.put("name", handlerName);
            handler.put("type", "command");
            handler.put("command", command);
            Map<String, Object> group = new LinkedHashMap<>();
            group.put("hooks", List.of(handler));
            return group;
        }
    }

    public Path file(Scope scope, Places places) {
        return (scope == Scope.LOCAL ? local : global) == null ? null : (scope == Scope.LOCAL ? local : global).apply(places);
    }

    public boolean detected(Scope scope, Places places) {
        Function<Places, List<Path>> markers = scope == Scope.LOCAL ? localMarkers : globalMarkers;
        if (file(scope, places) == null || markers == null) return false;
        Path file = file(scope, places);
        if (java.nio.file.Files.exists(file)) return true;
        return markers.apply(places).stream().anyMatch(java.nio.file.Files::exists);
    }

    public boolean named(String s) {
        return name.equals(s) || aliases.contains(s);
    }
}
