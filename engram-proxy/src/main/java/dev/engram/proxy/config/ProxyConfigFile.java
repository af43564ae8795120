package dev.engram.proxy.config;

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
        try {
            Map<String, Object> root = mapper.readValue(Files.readString(path), MAP);
            List<UpstreamConfig> upstreams = new ArrayList<>();
            if (root.get("upstreams") instanceof List<?> list) {
                for (Object o : list) {
                    if (o instanceof Map<?, ?> m) upstreams.add(upstream(m));
                }
            }
            return new ProxyConfig(upstreams);
        } catch (IOException | RuntimeException e) {
            throw new InvalidArgumentException("proxy config", path + " is not valid: " + e.getMessage()
                    + "; fix or remove the file");
        }
    }

    public void save(ProxyConfig config) {
        Map<String, Object> root = new LinkedHashMap<>();
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
        // Java 17: no pattern switch yet; the sealed interface keeps these two branches exhaustive
        if (u.transport() instanceof UpstreamTransport.Stdio s) {
            m.put("transport", "stdio");
            m.put("command", s.command());
            m.put("args", s.args());
            m.put("env", s.passEnv());
        } else if (u.transport() instanceof UpstreamTransport.Http h) {
            m.put("transport", "streamable_http");
            m.put("url", h.url());
            m.put("headers", h.headers());
        }
        m.put("compression", u.compression().id());
        m.put("max_result_chars", u.maxResultChars());
        m.put("cache_ttl_seconds", u.cacheTtlSeconds());
        if (!u.tools().isEmpty()) {
            Map<String, Object> tools = new java.util.TreeMap<>();
            u.tools().forEach((tool, o) -> {
                Map<String, Object> t = new LinkedHashMap<>();
                if (o.compression() != null) t.put("compression", o.compression().id());
                if (o.maxResultChars() != null) t.put("max_result_chars", o.maxResultChars());
                if (o.cacheTtlSeconds() != null) t.put("cache_ttl_seconds", o.cacheTtlSeconds());
                if (o.hidden()) t.put("hidden", true);
                tools.put(tool, t);
            });
            m.put("tools", tools);
        }
        return m;
    }

    @SuppressWarnings("unchecked")
    private static UpstreamConfig upstream(Map<?, ?> m) {
        Object transportValue = m.get("transport");
        String transport = transportValue == null ? "stdio" : transportValue.toString();
        UpstreamTransport t = transport.equals("stdio")
                ? new UpstreamTransport.Stdio((String) m.get("command"), (List<String>) m.get("args"),
                        (List<String>) m.get("env"))
                : new UpstreamTransport.Http((String) m.get("url"), (Map<String, String>) m.get("headers"));
        Object compression = m.get("compression");
        return new UpstreamConfig((String) m.get("name"), (String) m.get("prefix"), t,
                compression == null ? null : CompressionMode.parse("compression", compression.toString()),
                intOr(m.get("max_result_chars"), UpstreamConfig.DEFAULT_MAX_RESULT_CHARS),
                intOr(m.get("cache_ttl_seconds"), UpstreamConfig.DEFAULT_CACHE_TTL_SECONDS), overrides(m.get("tools")));
    }

    private static Map<String, ToolOverride> overrides(Object tools) {
        Map<String, ToolOverride> out = new LinkedHashMap<>();
        if (tools instanceof Map<?, ?> byTool) {
            byTool.forEach((tool, settings) -> {
                ToolOverride o = ToolOverride.NONE;
                if (settings instanceof Map<?, ?> kv) {
                    for (Map.Entry<?, ?> e : kv.entrySet()) o = o.with(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
                }
                out.put(String.valueOf(tool), o);
            });
        }
        return out;
    }

    private static int intOr(Object v, int fallback) {
        return v instanceof Number n ? n.intValue() : fallback;
    }
}
