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
 * {@code withoutMcp} says why an agent Engram knows cannot take an MCP server at all (null for the others).
 */
public record Agent(String name, List<String> aliases, Format format, List<String> serversPath, Shape shape,
                    Function<Places, Path> local, Function<Places, Path> global,
                    Function<Places, List<Path>> localMarkers, Function<Places, List<Path>> globalMarkers,
                    Hooks hooks, String withoutMcp) {
    public Agent {
        aliases = List.copyOf(aliases);
        serversPath = List.copyOf(serversPath);
    }

    public Agent(String name, List<String> aliases, Format format, List<String> serversPath, Shape shape,
                 Function<Places, Path> local, Function<Places, Path> global,
                 Function<Places, List<Path>> localMarkers, Function<Places, List<Path>> globalMarkers, Hooks hooks) {
        this(name, aliases, format, serversPath, shape, local, global, localMarkers, globalMarkers, hooks, null);
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
            return absoluteOr("CODEX_HOME", home.resolve(".codex"));
        }

        /** Grok Build's home: {@code $GROK_HOME}, else {@code ~/.grok} (also on Windows, under the user's profile). */
        Path grokHome() {
            return absoluteOr("GROK_HOME", home.resolve(".grok"));
        }

        /** Goose's config folder: {@code %APPDATA%\Block\goose\config} on Windows, else {@code ~/.config/goose}. */
        Path gooseConfig() {
            if (windows()) {
                String appData = env.get("APPDATA");
                Path base = appData != null && !appData.isBlank() ? Path.of(appData) : home.resolve("AppData").resolve("Roaming");
                return base.resolve("Block").resolve("goose").resolve("config");
            }
            return xdgConfig().resolve("goose");
        }

        private Path absoluteOr(String variable, Path otherwise) {
            String v = env.get(variable);
            return v != null && !v.isBlank() && Path.of(v).isAbsolute() ? Path.of(v) : otherwise;
        }
    }

    /**
     * How the config file is read: plain JSON, JSON with comments and trailing commas, JSON5 (read as far as
     * JSON with comments and trailing commas: a file using more of JSON5 is refused, never guessed at), TOML or YAML.
     */
    public enum Format {
        JSON, JSONC, JSON5, TOML, YAML;

        boolean jsonc() {
            return this == JSONC || this == JSON5;
        }

        boolean json() {
            return this == JSON || jsonc();
        }

        /** The name the install manifest records. */
        String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
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
        /** OpenClaw: {@code {"command": …, "args": […], "enabled": true}} under {@code mcp.servers}. */
        OPENCLAW,
        /** Goose: an {@code extensions:} entry, {@code {enabled: true, type: stdio, name, description, cmd, args}}. */
        GOOSE,
        /** Codex, Grok Build: a {@code [mcp_servers.NAME]} TOML table with command and args. */
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
                case OPENCLAW -> {
                    m.put("command", command);
                    m.put("args", List.copyOf(args));
                    m.put("enabled", true);
                }
                case GOOSE -> {
                    // Goose skips an entry without enabled, name, cmd or args (ExtensionEntry / ExtensionConfig::Stdio)
                    m.put("enabled", true);
                    m.put("type", "stdio");
                    m.put("name", Installer.SERVER);
                    m.put("description", "Engram: durable memory for coding agents");
                    m.put("cmd", command);
                    m.put("args", List.copyOf(args));
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
     * the shell the agent runs a hook's command with on Windows (a POSIX shell everywhere else). An agent whose
     * hooks are code ({@code plugin}: OpenCode) gets a file of Engram's own at {@code local} / {@code global}
     * instead, which runs the same hook commands ({@link OpenCodePlugin}). The events are members of the object
     * {@code container} ({@code hooks}; Antigravity names each set of hooks, Engram's is {@code engram}); the
     * events in {@code flat} hold their handlers directly, the others in matcher groups ({@code matcher}, if not
     * null, written on each).
     */
    public record Hooks(Function<Places, Path> local, Function<Places, Path> global, String sessionStart, String afterTool,
                        String stop, boolean named, HookShell windowsShell, boolean plugin, String container,
                        java.util.Set<String> flat, String matcher) {
        public Hooks {
            flat = java.util.Set.copyOf(flat);
        }

        public Hooks(Function<Places, Path> local, Function<Places, Path> global, String sessionStart, String afterTool,
                     String stop, boolean named, HookShell windowsShell) {
            this(local, global, sessionStart, afterTool, stop, named, windowsShell, false, "hooks", java.util.Set.of(), null);
        }

        /** Hooks carried by a plugin file of Engram's own at these places. */
        static Hooks plugin(Function<Places, Path> local, Function<Places, Path> global) {
            return new Hooks(local, global, null, null, null, false, null, true, "hooks", java.util.Set.of(), null);
        }

        /**
         * Antigravity's hooks.json: named sets of hooks at the top level (Engram's is {@link Installer#SERVER}),
         * PreInvocation and Stop handlers listed directly, PostToolUse handlers in groups matching every tool.
         */
        static Hooks antigravity(Function<Places, Path> local, Function<Places, Path> global) {
            return new Hooks(local, global, "PreInvocation", "PostToolUse", "Stop", false, HookShell.PLAIN, false,
                    Installer.SERVER, java.util.Set.of("PreInvocation", "Stop"), "*");
        }

        /** The shell a hook command is written for here. */
        public HookShell shell(Places places) {
            return places.windows() ? windowsShell : HookShell.POSIX;
        }

        /**
         * What goes into {@code event}'s array for one command: the handler itself for a flat event, else one
         * matcher group holding it, in the Claude Code shape Codex and Gemini share.
         */
        Map<String, Object> entry(String event, String handlerName, String command) {
            Map<String, Object> handler = new LinkedHashMap<>();
            if (named) handler.put("name", handlerName);
            handler.put("type", "command");
            handler.put("command", command);
            if (flat.contains(event)) return handler;
            Map<String, Object> group = new LinkedHashMap<>();
            if (matcher != null) group.put("matcher", matcher);
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
