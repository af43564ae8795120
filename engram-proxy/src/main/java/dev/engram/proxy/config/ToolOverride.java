package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/**
 * Settings for one upstream tool that differ from its server's: null means "as the server".
 * {@code hidden} keeps the tool out of the agent's list entirely.
 */
public record ToolOverride(CompressionMode compression, Integer maxResultChars, Integer cacheTtlSeconds, boolean hidden) {
    public static final ToolOverride NONE = new ToolOverride(null, null, null, false);

    public ToolOverride {
        if (maxResultChars != null && (maxResultChars < ResultBudget.MIN_CHARS || maxResultChars > ResultBudget.MAX_CHARS)) {
            throw new InvalidArgumentException("max_result_chars", "must be " + ResultBudget.MIN_CHARS + ".." + ResultBudget.MAX_CHARS + ", got " + maxResultChars);
        }
        if (cacheTtlSeconds != null && (cacheTtlSeconds < 0 || cacheTtlSeconds > 30 * 86_400)) {
            throw new InvalidArgumentException("cache_ttl_seconds", "must be 0..2592000, got " + cacheTtlSeconds);
        }
    }

    /** This override with {@code key=value} applied; keys as in proxy.json. */
    public ToolOverride with(String key, String value) {
        String k = key.strip().toLowerCase(Locale.ROOT).replace('-', '_');
        try {
            return switch (k) {
                case "compression" -> new ToolOverride(CompressionMode.parse(k, value), maxResultChars, cacheTtlSeconds, hidden);
                case "max_result_chars", "max_chars" -> new ToolOverride(compression, Integer.parseInt(value.strip()), cacheTtlSeconds, hidden);
                case "cache_ttl_seconds", "cache_ttl" -> new ToolOverride(compression, maxResultChars, Integer.parseInt(value.strip()), hidden);
                case "hidden" -> new ToolOverride(compression, maxResultChars, cacheTtlSeconds, Boolean.parseBoolean(value.strip()));
                default -> throw new InvalidArgumentException("override", "has unknown key '" + key
                        + "'; use compression, max_result_chars, cache_ttl_seconds or hidden");
            };
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("override", key + " must be an integer, got '" + value + "'");
        }
    }
}
