package dev.engram.proxy.config;

import dev.engram.analysis.TextCut;
import dev.engram.error.InvalidArgumentException;
import dev.engram.error.StoreException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code <store>/proxy.json}: the upstream list, read with the SDK's Jackson mapper. Written
 * atomically (temp file + move) and owner-only, since headers may carry bearer tokens. A missing
 * file is an empty config; a malformed one fails naming the file, never silently resets it.
 */
public final class ProxyConfigFile {
    public static final String FILE_NAME = "proxy.json";
    private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
    };

    private final Path path;
    private final McpJsonMapper mapper;

    public ProxyConfigFile(Path storeDir, McpJsonMapper mapper) {
        this.path = storeDir.resolve(FILE_NAME);
        this.mapper = mapper;
    }

    public Path path() {
        return path;
    }

    public ProxyConfig load() {
        if (!Files.exists(path)) return ProxyConfig.empty();
        String text;
        try {
            text = Files.readString(path);
        } catch (IOException e) {
            throw invalid("it cannot be read (" + firstLine(e.getMessage()) + ")");
        }
        return parse(text);
    }

    /** {@code text} as the content of this file; the same checks (and messages) as {@link #load}. */
    public ProxyConfig parse(String text) {
        Map<String, Object> root;
        try {
            root = mapper.readValue(text, MAP);
        } catch (IOException | RuntimeException e) {
            throw invalid("it is not a JSON object (" + firstLine(e.getMessage()) + ")");
        }
        if (root == null) throw invalid("it is not a JSON object (null)");
        Object list = root.get("upstreams");
        if (list != null && !(list instanceof List<?>)) throw invalid("\"upstreams\" must be an array");
        List<UpstreamConfig> upstreams = new ArrayList<>();
        int i = 0;
        for (Object o : list == null ? List.of() : (List<?>) list) {
            String where = "upstreams[" + i++ + "]";
            if (!(o instanceof Map<?, ?> m)) throw invalid(where + " must be an object");
            try {
                upstreams.add(upstream(m));
            } catch (RuntimeException e) {
                throw invalid(where + (m.get("name") instanceof String n ? " ('" + n + "')" : "") + ": " + firstLine(e.getMessage()));
            }
        }
        Object surfacing = root.get("surfacing_enabled");
        if (surfacing != null && !(surfacing instanceof Boolean)) throw invalid("\"surfacing_enabled\" must be true or false");
        Object contextQuery = root.get("advertise_context_query");
        if (contextQuery != null && !(contextQuery instanceof Boolean)) {
            throw invalid("\"advertise_context_query\" must be true or false");
        }
        Object recover = root.get("recover_upstream_description");
        if (recover != null && !(recover instanceof Boolean)) {
            throw invalid("\"recover_upstream_description\" must be true or false");
        }
        try {
            return new ProxyConfig(upstreams, !Boolean.FALSE.equals(surfacing), Boolean.TRUE.equals(contextQuery),
                    Boolean.TRUE.equals(recover));
        } catch (RuntimeException e) {
            throw invalid(firstLine(e.getMessage()));
        }
    }

    private InvalidArgumentException invalid(String why) {
        return new InvalidArgumentException("proxy config", path + " is not valid: " + why + "; fix or remove the file");
    }

    private static String firstLine(String s) {
        if (s == null) return "unreadable";
        String line = s.lines().findFirst().orElse("").strip();
        return TextCut.clip(line, 200);
    }

    public void save(ProxyConfig config) {
        Map<String, Object> root = new LinkedHashMap<>();
        if (!config.surfacingEnabled()) root.put("surfacing_enabled", false);
        if (config.advertiseContextQuery()) root.put("advertise_context_query", true);
        if (config.recoverUpstreamDescription()) root.put("recover_upstream_description", true);
        root.put("upstreams", config.upstreams().stream().map(ProxyConfigFile::toMap).toList());
        try {
            Files.createDirectories(path.getParent());
            Path tmp = Files.createTempFile(path.getParent(), "proxy", ".json.tmp");
            try {
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system (Windows): the directory's ACL applies instead
            }
            Files.writeString(tmp, mapper.writeValueAsString(root) + "\n");
            try {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new StoreException("write " + path + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> toMap(UpstreamConfig u) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", u.name());
        m.put("prefix", u.prefix());
        // Java 17: no pattern switch yet; the sealed interface keeps these two branches exhaustive (Remote: http and sse)
        if (u.transport() instanceof UpstreamTransport.Stdio s) {
            m.put("transport", "stdio");
            m.put("command", s.command());
            m.put("args", s.args());
            m.put("env", s.passEnv());
        } else if (u.transport() instanceof UpstreamTransport.Remote h) {
            m.put("transport", h.id());
            m.put("url", h.url());
            m.put("headers", h.headers());
        }
        m.put("compression", u.compression().id());
        m.put("max_result_chars", u.maxResultChars());
        m.put("cache_ttl_seconds", u.cacheTtlSeconds());
        if (!u.surfacing()) m.put("surfacing_enabled", false);
        if (!u.excludeTools().isEmpty()) m.put("exclude_tools", u.excludeTools());
        if (!u.tools().isEmpty()) {
            Map<String, Object> tools = new java.util.TreeMap<>();
            u.tools().forEach((tool, o) -> {
                Map<String, Object> t = new LinkedHashMap<>();
                if (o.compression() != null) t.put("compression", o.compression().id());
                if (o.maxResultChars() != null) t.put("max_result_chars", o.maxResultChars());
                if (o.cacheTtlSeconds() != null) t.put("cache_ttl_seconds", o.cacheTtlSeconds());
                if (o.hidden()) t.put("hidden", true);
                if (o.descriptionOverride() != null) t.put("description_override", o.descriptionOverride());
                tools.put(tool, t);
            });
            m.put("tools", tools);
        }
        return m;
    }

    /** One upstream entry, every field type-checked: a wrong type names the field, never a Java class. */
    private static UpstreamConfig upstream(Map<?, ?> m) {
        String transport = text(m, "transport");
        transport = transport == null ? "stdio" : transport;
        UpstreamTransport t = switch (transport) {
            case "stdio" -> new UpstreamTransport.Stdio(text(m, "command"), strings(m, "args"),
                    strings(m, "env"));
            case "streamable_http", "http" -> new UpstreamTransport.Http(text(m, "url"), headers(m));
            case "sse" -> new UpstreamTransport.Sse(text(m, "url"), headers(m));
            default -> throw new InvalidArgumentException("transport", "'" + transport + "' is not a transport; use stdio, streamable_http or sse");
        };
        String compression = text(m, "compression");
        if (m.get("tools") != null && m.get("tool_overrides") != null) {
            throw new InvalidArgumentException("tools", "and \"tool_overrides\" are the same setting; keep one of them");
        }
        // memtomem-stm's name for the per-tool settings is tool_overrides; both are read
        Object tools = m.get("tools") != null ? m.get("tools") : m.get("tool_overrides");
        return new UpstreamConfig(text(m, "name"), text(m, "prefix"), t,
                compression == null ? null : CompressionMode.parse("compression", compression),
                intOr(m, "max_result_chars", UpstreamConfig.DEFAULT_MAX_RESULT_CHARS),
                intOr(m, "cache_ttl_seconds", UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS), overrides(tools),
                boolOr(m, "surfacing_enabled", true), strings(m, "exclude_tools"));
    }

    private static String text(Map<?, ?> m, String field) {
        Object v = m.get(field);
        if (v == null || v instanceof String) return (String) v;
        throw new InvalidArgumentException(field, "must be a string");
    }

    private static List<String> strings(Map<?, ?> m, String field) {
        Object v = m.get(field);
        if (v == null) return null;
        if (v instanceof List<?> list && list.stream().allMatch(x -> x instanceof String)) {
            return list.stream().map(String.class::cast).toList();
        }
        throw new InvalidArgumentException(field, "must be an array of strings");
    }

    private static Map<String, String> headers(Map<?, ?> m) {
        Object v = m.get("headers");
        if (v == null) return null;
        if (v instanceof Map<?, ?> map && map.values().stream().allMatch(x -> x instanceof String)) {
            Map<String, String> out = new LinkedHashMap<>();
            map.forEach((k, x) -> out.put(String.valueOf(k), (String) x));
            return out;
        }
        throw new InvalidArgumentException("headers", "must be an object of string values");
    }

    private static Map<String, ToolOverride> overrides(Object tools) {
        Map<String, ToolOverride> out = new LinkedHashMap<>();
        if (tools != null && !(tools instanceof Map<?, ?>)) {
            throw new InvalidArgumentException("tools", "must be an object of tool name to settings");
        }
        if (tools instanceof Map<?, ?> byTool) {
            byTool.forEach((tool, settings) -> {
                ToolOverride o = ToolOverride.NONE;
                if (settings != null && !(settings instanceof Map<?, ?>)) {
                    throw new InvalidArgumentException("tools." + tool, "must be an object of settings, e.g. {\"hidden\": true}");
                }
                if (settings instanceof Map<?, ?> kv) {
                    for (Map.Entry<?, ?> e : kv.entrySet()) {
                        String key = String.valueOf(e.getKey());
                        if ((key.equals("description_override") || key.equals("description")) && !(e.getValue() instanceof String)) {
                            throw new InvalidArgumentException("tools." + tool + "." + key, "must be a string");
                        }
                        o = o.with(key, String.valueOf(e.getValue()));
                    }
                }
                out.put(String.valueOf(tool), o);
            });
        }
        return out;
    }

    private static boolean boolOr(Map<?, ?> m, String field, boolean fallback) {
        Object v = m.get(field);
        if (v == null) return fallback;
        if (v instanceof Boolean b) return b;
        throw new InvalidArgumentException(field, "must be true or false");
    }

    private static int intOr(Map<?, ?> m, String field, int fallback) {
        Object v = m.get(field);
        if (v == null) return fallback;
        if (v instanceof Integer i) return i;
        // intValue() on a Long wraps (4294975296 would read as 8000): out of int range is out of every range here
        if (v instanceof Long l && l >= Integer.MIN_VALUE && l <= Integer.MAX_VALUE) return l.intValue();
        if (v instanceof Long || v instanceof java.math.BigInteger) throw new InvalidArgumentException(field, "is out of range, got " + v);
        throw new InvalidArgumentException(field, "must be an integer");
    }
}
