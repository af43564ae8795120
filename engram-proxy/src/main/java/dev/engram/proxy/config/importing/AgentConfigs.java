package dev.engram.proxy.config.importing;

import dev.engram.error.InvalidArgumentException;
import dev.engram.error.StoreException;
import dev.engram.proxy.config.ToolOverride;
import dev.engram.proxy.config.UpstreamConfig;
import dev.engram.proxy.config.UpstreamTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the MCP servers an agent already has registered, in the agent's own format:
 * Claude Code ({@code ~/.claude.json}: user servers and this project's under
 * {@code projects.<dir>}, plus {@code .mcp.json}), Cursor ({@code ~/.cursor/mcp.json} and
 * {@code .cursor/mcp.json}) and Codex ({@code [mcp_servers.<name>]} in {@code ~/.codex/config.toml}
 * and a project's {@code .codex/config.toml}). Files under the current directory are marked
 * project-local: a repository checkout can ship them. Nothing is written here.
 */
public final class AgentConfigs {
    private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
    };
    private static final Set<String> CLAUDE_KEYS = Set.of("type", "command", "args", "env", "url", "headers");
    private static final Set<String> CURSOR_KEYS = Set.of("type", "command", "args", "env", "url", "headers");
    private static final Set<String> CODEX_KEYS = Set.of("command", "args", "env", "env_vars", "url", "http_headers",
            "enabled", "disabled_tools");

    private final McpJsonMapper mapper;
    private final Path home;
    private final Path cwd;

    public AgentConfigs(McpJsonMapper mapper, Path home, Path cwd) {
        this.mapper = mapper;
        this.home = home;
        this.cwd = cwd.toAbsolutePath().normalize();
    }

    /** Claude Code's servers; {@code file} replaces {@code ~/.claude.json} (and then no .mcp.json is read). */
    public Found claude(Path file) {
        Scan scan = new Scan("claude");
        Path user = file != null ? file : home.resolve(".claude.json");
        Map<String, Object> root = scan.json(user, file != null);
        if (root != null) {
            scan.servers(root.get("mcpServers"), label(user, "user"), false, CLAUDE_KEYS, this::jsonEntry);
            if (root.get("projects") instanceof Map<?, ?> projects && projects.get(cwd.toString()) instanceof Map<?, ?> p) {
                scan.servers(p.get("mcpServers"), label(user, "this project"), false, CLAUDE_KEYS, this::jsonEntry);
            }
        }
        if (file == null) {
            Path project = cwd.resolve(".mcp.json");
            Map<String, Object> shared = scan.json(project, false);
            if (shared != null) scan.servers(shared.get("mcpServers"), label(project, "project"), true, CLAUDE_KEYS, this::jsonEntry);
        }
        return scan.found();
    }

    /** Cursor's servers; {@code file} replaces {@code ~/.cursor/mcp.json} (and then no project file is read). */
    public Found cursor(Path file) {
        Scan scan = new Scan("cursor");
        Path user = file != null ? file : home.resolve(".cursor").resolve("mcp.json");
        Map<String, Object> root = scan.json(user, file != null);
        if (root != null) scan.servers(root.get("mcpServers"), label(user, "user"), false, CURSOR_KEYS, this::jsonEntry);
        if (file == null) {
            Path project = cwd.resolve(".cursor").resolve("mcp.json");
            Map<String, Object> p = scan.json(project, false);
            if (p != null) scan.servers(p.get("mcpServers"), label(project, "project"), true, CURSOR_KEYS, this::jsonEntry);
        }
        return scan.found();
    }

    /**
     * Codex's servers; {@code file} replaces the user's config.toml (then no project file is read).
     * {@code codexHome} is where Codex keeps it ({@code $CODEX_HOME}, else {@code ~/.codex}).
     */
    public Found codex(Path file, Path codexHome) {
        Scan scan = new Scan("codex");
        Path user = file != null ? file : (codexHome != null ? codexHome : home.resolve(".codex")).resolve("config.toml");
        Map<String, Object> root = scan.toml(user, file != null);
        if (root != null) scan.servers(root.get("mcp_servers"), label(user, "user"), false, CODEX_KEYS, this::codexEntry);
        if (file == null) {
            Path project = cwd.resolve(".codex").resolve("config.toml");
            if (!project.equals(user)) {
                Map<String, Object> p = scan.toml(project, false);
                if (p != null) scan.servers(p.get("mcp_servers"), label(project, "project"), true, CODEX_KEYS, this::codexEntry);
            }
        }
        return scan.found();
    }

    private String label(Path file, String scope) {
        String shown = file.startsWith(home) ? "~/" + home.relativize(file) : file.toString();
        return shown + " (" + scope + ")";
    }

    /** Claude Code and Cursor: {@code type} is stdio, http or sse; without one, the fields present decide. */
    private UpstreamConfig jsonEntry(String name, Map<?, ?> raw, List<String> notes) {
        UpstreamTransport t = ServerEntries.transport(ServerEntries.text(raw, "type"), raw, "headers", notes);
        return UpstreamConfig.of(name, ImportNames.prefix(name, Set.of()), t);
    }

    private UpstreamConfig codexEntry(String name, Map<?, ?> raw, List<String> notes) {
        if (Boolean.FALSE.equals(raw.get("enabled"))) throw new ServerEntries.Skip("it is switched off in Codex (enabled = false)");
        UpstreamTransport t = ServerEntries.transport(null, raw, "http_headers", notes);
        if (t instanceof UpstreamTransport.Stdio s && raw.get("env_vars") != null) {
            List<String> names = new ArrayList<>(s.passEnv());
            for (String v : ServerEntries.strings(raw, "env_vars", notes)) if (!names.contains(v)) names.add(v);
            t = new UpstreamTransport.Stdio(s.command(), s.args(), names);
        }
        Map<String, ToolOverride> tools = new LinkedHashMap<>();
        for (String tool : ServerEntries.strings(raw, "disabled_tools", notes)) tools.put(tool, new ToolOverride(null, null, null, true));
        return new UpstreamConfig(name, ImportNames.prefix(name, Set.of()), t, null, UpstreamConfig.DEFAULT_MAX_RESULT_CHARS,
                UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS, tools);
    }

    interface EntryMapper {
        UpstreamConfig map(String name, Map<?, ?> raw, List<String> notes);
    }

    /** Collects candidates and notes over the files of one agent. */
    private final class Scan {
        private final String agent;
        private final List<ImportCandidate> candidates = new ArrayList<>();
        private final List<String> files = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();

        Scan(String agent) {
            this.agent = agent;
        }

        Map<String, Object> json(Path file, boolean required) {
            String text = read(file, required);
            if (text == null) return null;
            try {
                return mapper.readValue(text, MAP);
            } catch (IOException | RuntimeException e) {
                throw new InvalidArgumentException(agent + " config", file + " is not a JSON object (" + firstLine(e) + ")");
            }
        }

        Map<String, Object> toml(Path file, boolean required) {
            String text = read(file, required);
            if (text == null) return null;
            try {
                return MiniToml.parse(text);
            } catch (InvalidArgumentException e) {
                throw new InvalidArgumentException(agent + " config", file + " cannot be read as TOML: " + e.getMessage());
            }
        }

        private String read(Path file, boolean required) {
            if (!Files.isRegularFile(file)) {
                if (required) throw new InvalidArgumentException("FILE", file + " does not exist");
                notes.add(file + ": not found");
                return null;
            }
            try {
                String text = Files.readString(file);
                files.add(file.toString());
                return text;
            } catch (IOException e) {
                throw new StoreException("read " + file + ": " + e.getMessage(), e);
            }
        }

        void servers(Object servers, String source, boolean projectLocal, Set<String> known, EntryMapper mapper) {
            if (servers == null) return;
            if (!(servers instanceof Map<?, ?> byName)) {
                notes.add(source + ": the server list is not an object; nothing read from it");
                return;
            }
            byName.forEach((k, v) -> {
                String raw = String.valueOf(k);
                if (!(v instanceof Map<?, ?> entry)) {
                    notes.add(raw + " [" + source + "]: skipped: its entry is not an object");
                    return;
                }
                String self = ServerEntries.selfReference(entry);
                if (self != null) {
                    notes.add(raw + " [" + source + "]: skipped: " + self);
                    return;
                }
                List<String> entryNotes = new ArrayList<>();
                String name = ImportNames.name(raw);
                if (!name.equals(raw)) entryNotes.add("renamed from '" + raw + "' (names are A-Z a-z 0-9 _ . -)");
                try {
                    UpstreamConfig u = mapper.map(name, entry, entryNotes);
                    List<String> unknown = ServerEntries.unknownKeys(entry, known);
                    if (!unknown.isEmpty()) entryNotes.add("not carried over (no counterpart): " + String.join(", ", unknown));
                    candidates.add(new ImportCandidate(u, source, projectLocal, entryNotes));
                } catch (ServerEntries.Skip | InvalidArgumentException e) {
                    notes.add(raw + " [" + source + "]: skipped: " + e.getMessage());
                }
            });
        }

        Found found() {
            return new Found(candidates, files, notes);
        }
    }

    static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String line = m.lines().findFirst().orElse("").strip();
        return line.length() > 160 ? line.substring(0, 160) + "…" : line;
    }
}
