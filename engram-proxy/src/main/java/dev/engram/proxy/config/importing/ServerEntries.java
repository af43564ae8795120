package dev.engram.proxy.config.importing;

import dev.engram.proxy.config.UpstreamTransport;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The transport part every MCP server entry shares, whichever tool wrote it: a command with args
 * and env, or a URL with headers. What does not fit Engram's shape is written to {@code notes}.
 */
final class ServerEntries {
    /** Variables that let whoever sets them run code in the child: never carried over. */
    static final Set<String> DANGEROUS_ENV = Set.of("LD_PRELOAD", "LD_LIBRARY_PATH", "DYLD_INSERT_LIBRARIES",
            "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH", "PYTHONPATH", "PYTHONSTARTUP", "NODE_OPTIONS");
    private static final Set<String> MEMTOMEM = Set.of("mms", "memtomem-stm", "memtomem-stm-proxy", "memtomem",
            "memtomem-server");
    private static final Pattern SAME_VAR = Pattern.compile("\\$\\{?(?:env:)?([A-Za-z_][A-Za-z0-9_]*)}?");

    /** An entry that cannot be fronted; the message says why. */
    static final class Skip extends RuntimeException {
        Skip(String why) {
            super(why, null, false, false);
        }
    }

    private ServerEntries() {
    }

    /** Why this entry must not be fronted by Engram's proxy (it is a proxy or memory server of ours or STM's), or null. */
    static String selfReference(Map<?, ?> raw) {
        List<String> words = new ArrayList<>();
        if (raw.get("command") instanceof String c) words.add(c.substring(c.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT));
        if (raw.get("args") instanceof List<?> args) {
            args.forEach(a -> words.add(String.valueOf(a).toLowerCase(Locale.ROOT)));
        }
        if (words.stream().anyMatch(w -> w.equals("engram") || w.equals("engram.jar") || w.endsWith("/engram.jar"))) {
            return "it is Engram itself (fronting it would proxy the proxy)";
        }
        if (words.stream().anyMatch(MEMTOMEM::contains)) {
            return "it is memtomem-stm itself; bring its upstreams with: engram proxy import --from memtomem";
        }
        return null;
    }

    /**
     * A stdio or HTTP transport for the entry. {@code type} is the tool's own transport field
     * ({@code type} or {@code transport}), null when it infers one from the fields present.
     */
    static UpstreamTransport transport(String type, Map<?, ?> raw, String headersField, List<String> notes) {
        String t = type == null ? null : type.strip().toLowerCase(Locale.ROOT).replace('-', '_');
        if (t == null) {
            if (raw.get("command") != null) t = "stdio";
            else if (raw.get("url") != null || raw.get("serverUrl") != null) t = urlLooksSse(text(raw, "url")) ? "sse" : "http";
            else throw new Skip("it has neither a command nor a url");
        }
        switch (t) {
            case "stdio" -> {
                String command = text(raw, "command");
                if (command == null || command.isBlank()) throw new Skip("it is a stdio server without a command");
                return new UpstreamTransport.Stdio(command, strings(raw, "args", notes), passEnv(raw.get("env"), notes));
            }
            case "http", "streamable_http", "streamablehttp" -> {
                return new UpstreamTransport.Http(url(raw), headers(raw.get(headersField), headersField, notes));
            }
            case "sse" -> {
                return new UpstreamTransport.Sse(url(raw), headers(raw.get(headersField), headersField, notes));
            }
            default -> throw new Skip("its transport '" + type + "' is not one the proxy speaks (stdio, streamable_http, sse)");
        }
    }

    private static String url(Map<?, ?> raw) {
        String url = text(raw, "url");
        if (url == null) url = text(raw, "serverUrl");
        if (url == null) throw new Skip("it has no url");
        return url;
    }

    /** Cursor and older configs give SSE servers as a URL whose path ends in /sse. */
    static boolean urlLooksSse(String url) {
        if (url == null) return false;
        try {
            String path = URI.create(url).getPath();
            return path != null && (path.endsWith("/sse") || path.endsWith("/sse/"));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Variable names to pass through. Values are not copied into proxy.json: the proxy passes each
     * named variable from its own environment, so a value the other tool held is noted for the user
     * to export (a reference to the same variable, {@code ${NAME}}, needs nothing).
     */
    static List<String> passEnv(Object env, List<String> notes) {
        if (env == null) return List.of();
        if (!(env instanceof Map<?, ?> map)) {
            notes.add("env is not an object of NAME: value; not carried over");
            return List.of();
        }
        List<String> names = new ArrayList<>();
        List<String> valued = new ArrayList<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String name = String.valueOf(e.getKey());
            if (DANGEROUS_ENV.contains(name.toUpperCase(Locale.ROOT))) {
                notes.add("env " + name + " dropped: it lets its setter run code in the server");
                continue;
            }
            if (!UpstreamTransport.ENV_NAME.matcher(name).matches()) {
                notes.add("env '" + name + "' dropped: not a variable name");
                continue;
            }
            names.add(name);
            String value = e.getValue() == null ? "" : String.valueOf(e.getValue());
            Matcher m = SAME_VAR.matcher(value.strip());
            if (!(m.matches() && m.group(1).equals(name))) valued.add(name);
        }
        if (!valued.isEmpty()) {
            notes.add("env " + String.join(", ", valued) + ": passed by name, values not copied; export "
                    + (valued.size() == 1 ? "it" : "them") + " where the proxy runs");
        }
        return names;
    }

    static Map<String, String> headers(Object headers, String field, List<String> notes) {
        if (headers == null) return Map.of();
        if (!(headers instanceof Map<?, ?> map)) {
            notes.add(field + " is not an object; not carried over");
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object v = e.getValue();
            // a null stays null, so the transport refuses it by name instead of sending the text "null"
            if (v instanceof Map<?, ?> || v instanceof List<?>) throw new Skip(field + " " + e.getKey() + " is not a text value");
            out.put(String.valueOf(e.getKey()), v == null ? null : String.valueOf(v));
        }
        // the agent expanded ${VAR} in a header; the proxy sends header values exactly as written
        List<String> referencing = out.entrySet().stream().filter(e -> e.getValue() != null && e.getValue().contains("${")).map(Map.Entry::getKey).toList();
        if (!referencing.isEmpty()) {
            notes.add(field + " " + String.join(", ", referencing) + " refer" + (referencing.size() == 1 ? "s" : "")
                    + " to an environment variable (${…}), which the proxy does not expand: " + (referencing.size() == 1 ? "it is" : "they are")
                    + " sent as written;"
                    + " put the value in proxy.json (engram proxy remove, then add with --header)");
        }
        return out;
    }

    static String text(Map<?, ?> m, String field) {
        Object v = m.get(field);
        if (v == null) return null;
        if (v instanceof String s) return s;
        throw new Skip(field + " is not a string");
    }

    static List<String> strings(Map<?, ?> m, String field, List<String> notes) {
        Object v = m.get(field);
        if (v == null) return List.of();
        if (v instanceof String s) return List.of(s);
        if (!(v instanceof List<?> list)) throw new Skip(field + " is not an array");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            // a number or null would be written as text the server never asked for ("5", "null")
            if (!(list.get(i) instanceof String s)) throw new Skip(field + "[" + i + "] is not a string; write every item in quotes");
            out.add(s);
        }
        return out;
    }

    /** The keys of {@code raw} outside {@code known}, for the "not carried over" note. */
    static List<String> unknownKeys(Map<?, ?> raw, Set<String> known) {
        return raw.keySet().stream().map(String::valueOf).filter(k -> !known.contains(k)).sorted().toList();
    }
}
