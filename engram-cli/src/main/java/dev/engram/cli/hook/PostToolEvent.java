package dev.engram.cli.hook;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One native tool call that just ran, from the host's post-tool hook event on stdin, in any of three
 * shapes:
 * <ul>
 * <li><b>Claude Code</b> {@code PostToolUse}: {@code session_id, cwd, hook_event_name, tool_name,
 *     tool_input {file_path | command | path | pattern …}, tool_response};
 * <li><b>Codex</b> {@code PostToolUse}: the same names (Codex copied Claude Code's), told apart by
 *     {@code turn_id}; its tools are mostly {@code Bash} with {@code tool_input.command};
 * <li><b>Cursor</b> ({@code conversation_id}, {@code workspace_roots}, camelCase events):
 *     {@code postToolUse} ({@code tool_name, tool_input, tool_output}), {@code afterFileEdit}
 *     ({@code file_path}), {@code afterShellExecution} ({@code command, output}),
 *     {@code afterMCPExecution} ({@code tool_name}, {@code tool_input} as a JSON string, {@code result_json}).
 * </ul>
 * {@code arguments} is the tool's input as a map (what the query is made from), {@code file} the path
 * the tool touched, relative to the working directory when inside it (null when none), and
 * {@code responseChars} the size of the tool's answer (the surfacing gate's minimum size).
 */
public record PostToolEvent(Host host, String tool, Map<String, Object> arguments, String file, int responseChars,
                            String session) {
    /** The hosts, with what their hook output may hold ({@code additionalContext} is capped at 10,000 chars by Claude Code). */
    public enum Host {
        CLAUDE("claude-code"), CODEX("codex"), CURSOR("cursor");

        public static final int CONTEXT_LIMIT_CHARS = 10_000;
        private final String id;

        Host(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Host parse(String value) {
            for (Host h : values()) if (h.name().equalsIgnoreCase(value) || h.id.equalsIgnoreCase(value)) return h;
            throw new IllegalArgumentException("--host must be claude, codex or cursor, got '" + value + "'");
        }
    }

    static final Set<String> CURSOR_EVENTS = Set.of("postToolUse", "afterFileEdit", "afterShellExecution", "afterMCPExecution");
    private static final List<String> PATH_KEYS = List.of("file_path", "filePath", "notebook_path", "path", "target_file");

    /**
     * The event in {@code text}; {@code host} null means "tell from the payload". An
     * {@link IllegalArgumentException} says what is wrong and what to send.
     */
    public static PostToolEvent parse(String text, Host host, Function<String, Map<String, Object>> json) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("stdin held nothing; the host sends its post-tool event as one JSON object,"
                    + " e.g. {\"hook_event_name\":\"PostToolUse\",\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"src/A.java\"}}");
        }
        Map<String, Object> f;
        try {
            f = json.apply(text.strip());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("stdin is not a JSON object (" + firstLine(e.getMessage())
                    + "); the host sends its post-tool event as one JSON object");
        }
        String event = text(f, "hook_event_name");
        Host h = host != null ? host : detect(f, event);
        if (event != null && !event.equals("PostToolUse") && !CURSOR_EVENTS.contains(event)) {
            throw new IllegalArgumentException("hook_event_name is '" + event + "'; engram hook post-tool handles PostToolUse"
                    + " (Claude Code, Codex) and " + String.join(", ", CURSOR_EVENTS.stream().sorted().toList()) + " (Cursor)");
        }
        String tool = text(f, "tool_name");
        Map<String, Object> args = new LinkedHashMap<>(input(f.get("tool_input"), json));
        if ("afterFileEdit".equals(event)) {
            tool = tool == null ? "Edit" : tool;
            if (text(f, "file_path") != null) args.putIfAbsent("file_path", text(f, "file_path"));
        } else if ("afterShellExecution".equals(event)) {
            tool = tool == null ? "Shell" : tool;
            if (text(f, "command") != null) args.putIfAbsent("command", text(f, "command"));
        }
        if (tool == null || tool.isBlank()) {
            throw new IllegalArgumentException("the event has no tool_name; send the host's post-tool event"
                    + " (Claude Code and Codex: PostToolUse with tool_name and tool_input)");
        }
        Object response = firstPresent(f, "tool_response", "tool_output", "output", "result_json");
        String cwd = text(f, "cwd");
        if (cwd == null && f.get("workspace_roots") instanceof List<?> roots && !roots.isEmpty() && roots.get(0) instanceof String r) {
            cwd = r;
        }
        String session = text(f, "session_id") != null ? text(f, "session_id") : text(f, "conversation_id");
        return new PostToolEvent(h, tool, args, relative(path(args), cwd), chars(response), session);
    }

    private static Host detect(Map<String, Object> f, String event) {
        if ((event != null && CURSOR_EVENTS.contains(event)) || f.containsKey("conversation_id")
                || f.containsKey("workspace_roots") || f.containsKey("cursor_version")) {
            return Host.CURSOR;
        }
        return f.containsKey("turn_id") ? Host.CODEX : Host.CLAUDE;
    }

    /** A tool's input: an object, or (Cursor's MCP events) a JSON string of one; other strings are one argument. */
    private static Map<String, Object> input(Object v, Function<String, Map<String, Object>> json) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, val) -> out.put(String.valueOf(k), val));
            return out;
        }
        if (v instanceof String s && !s.isBlank()) {
            String t = s.strip();
            if (t.startsWith("{")) {
                try {
                    return json.apply(t);
                } catch (RuntimeException ignored) {
                    // not JSON after all: the text is the argument
                }
            }
            return Map.of("input", t);
        }
        return Map.of();
    }

    private static String path(Map<String, Object> args) {
        for (String k : PATH_KEYS) {
            if (args.get(k) instanceof String s && !s.isBlank()) return s.strip();
        }
        return null;
    }

    /** {@code file} relative to {@code cwd} with forward slashes when it lies inside it, else as given. */
    static String relative(String file, String cwd) {
        if (file == null) return null;
        try {
            Path p = Path.of(file).normalize();
            if (cwd != null && p.isAbsolute()) {
                Path base = Path.of(cwd).normalize();
                if (p.startsWith(base) && !p.equals(base)) p = base.relativize(p);
            }
            return p.toString().replace('\\', '/');
        } catch (InvalidPathException e) {
            return file;
        }
    }

    /** The size of a tool's answer: a string's length, or the total length of the strings in an object or list. */
    static int chars(Object v) {
        if (v == null) return 0;
        if (v instanceof String s) return s.length();
        if (v instanceof Map<?, ?> m) {
            long n = 0;
            for (Object o : m.values()) n += chars(o);
            return (int) Math.min(Integer.MAX_VALUE, n);
        }
        if (v instanceof List<?> l) {
            long n = 0;
            for (Object o : l) n += chars(o);
            return (int) Math.min(Integer.MAX_VALUE, n);
        }
        return String.valueOf(v).length();
    }

    private static Object firstPresent(Map<String, Object> f, String... keys) {
        for (String k : keys) if (f.get(k) != null) return f.get(k);
        return null;
    }

    private static String text(Map<String, Object> f, String key) {
        return f.get(key) instanceof String s && !s.isBlank() ? s : null;
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        String l = s.lines().findFirst().orElse("").strip();
        return l.length() > 120 ? l.substring(0, 120) + "…" : l.toLowerCase(Locale.ROOT).isEmpty() ? "unreadable" : l;
    }
}
