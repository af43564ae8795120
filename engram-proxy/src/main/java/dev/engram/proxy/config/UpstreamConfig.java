package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One upstream server as kept in {@code proxy.json}. {@code prefix} namespaces its tools
 * ({@code prefix__tool}); {@code maxResultChars} is the size a proxied result is compressed to;
 * {@code tools} overrides settings per upstream tool name (tool over server); {@code surfacing} false
 * keeps memories from this server's results (memtomem-stm's {@code surfacing_enabled});
 * {@code excludeTools} are glob patterns ({@link ToolGlob}) of tools the agent never sees.
 */
public record UpstreamConfig(String name, String prefix, UpstreamTransport transport, CompressionMode compression,
                             int maxResultChars, int cacheTtlSeconds, Map<String, ToolOverride> tools, boolean surfacing,
                             List<String> excludeTools) {
    /** Per-server result budget, memtomem-stm's default: about 2,300 tokens per call. */
    public static final int DEFAULT_MAX_RESULT_CHARS = 8000;
    /** One hour, memtomem-stm's default: long enough to help, short enough for files that change. */
    public static final int DEFAULT_CACHE_TTL_SECONDS = 3600;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    // short, and no "__": the separator must stay unambiguous in prefix__tool
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_)){0,31}");

    public UpstreamConfig {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new InvalidArgumentException("name", "must be 1-64 of A-Z a-z 0-9 _ . -, got '" + name + "'");
        }
        if (prefix == null || !PREFIX.matcher(prefix).matches() || prefix.endsWith("_")) {
            throw new InvalidArgumentException("prefix", "must be 1-32 of A-Z a-z 0-9 _ . - without '__' and not"
                    + " ending in '_', got '" + prefix + "' (e.g. fs)");
        }
        Objects.requireNonNull(transport, "transport");
        compression = compression == null ? CompressionMode.AUTO : compression;
        if (maxResultChars < ResultBudget.MIN_CHARS || maxResultChars > ResultBudget.MAX_CHARS) {
            throw new InvalidArgumentException("max_result_chars", "must be " + ResultBudget.MIN_CHARS + ".." + ResultBudget.MAX_CHARS + ", got " + maxResultChars);
        }
        if (cacheTtlSeconds < 0 || cacheTtlSeconds > 30 * 86_400) {
            throw new InvalidArgumentException("cache_ttl_seconds", "must be 0..2592000 (0 = no cache), got "
                    + cacheTtlSeconds);
        }
        tools = tools == null ? Map.of() : Map.copyOf(tools);
        excludeTools = excludeTools == null ? List.of() : List.copyOf(excludeTools);
        for (String pattern : excludeTools) ToolGlob.validate("exclude_tools", pattern);
    }

    public UpstreamConfig(String name, String prefix, UpstreamTransport transport, CompressionMode compression,
                          int maxResultChars, int cacheTtlSeconds, Map<String, ToolOverride> tools, boolean surfacing) {
        this(name, prefix, transport, compression, maxResultChars, cacheTtlSeconds, tools, surfacing, List.of());
    }

    public UpstreamConfig(String name, String prefix, UpstreamTransport transport, CompressionMode compression,
                          int maxResultChars, int cacheTtlSeconds, Map<String, ToolOverride> tools) {
        this(name, prefix, transport, compression, maxResultChars, cacheTtlSeconds, tools, true);
    }

    public UpstreamConfig(String name, String prefix, UpstreamTransport transport, CompressionMode compression,
                          int maxResultChars, int cacheTtlSeconds) {
        this(name, prefix, transport, compression, maxResultChars, cacheTtlSeconds, Map.of());
    }

    public UpstreamConfig withSurfacing(boolean enabled) {
        return new UpstreamConfig(name, prefix, transport, compression, maxResultChars, cacheTtlSeconds, tools, enabled, excludeTools);
    }

    public UpstreamConfig withPrefix(String newPrefix) {
        return new UpstreamConfig(name, newPrefix, transport, compression, maxResultChars, cacheTtlSeconds, tools, surfacing,
                excludeTools);
    }

    public UpstreamConfig withExcludeTools(List<String> patterns) {
        return new UpstreamConfig(name, prefix, transport, compression, maxResultChars, cacheTtlSeconds, tools, surfacing, patterns);
    }

    /** The first {@code exclude_tools} pattern matching {@code tool} (or {@code prefix__tool}), if any. */
    public java.util.Optional<String> excludedBy(String tool) {
        String prefixed = prefix + "__" + tool;
        return excludeTools.stream().filter(p -> ToolGlob.matches(p, tool) || ToolGlob.matches(p, prefixed)).findFirst();
    }

    public ToolOverride overrideFor(String tool) {
        return tools.getOrDefault(tool, ToolOverride.NONE);
    }

    public int maxResultCharsFor(String tool) {
        Integer v = overrideFor(tool).maxResultChars();
        return v != null ? v : maxResultChars;
    }

    public CompressionMode compressionFor(String tool) {
        CompressionMode v = overrideFor(tool).compression();
        return v != null ? v : compression;
    }

    public int cacheTtlSecondsFor(String tool) {
        Integer v = overrideFor(tool).cacheTtlSeconds();
        return v != null ? v : cacheTtlSeconds;
    }

    public static UpstreamConfig of(String name, String prefix, UpstreamTransport transport) {
        return new UpstreamConfig(name, prefix, transport, CompressionMode.AUTO, DEFAULT_MAX_RESULT_CHARS,
                DEFAULT_CACHE_TTL_SECONDS);
    }
}
