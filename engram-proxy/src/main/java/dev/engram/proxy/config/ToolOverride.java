package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.Locale;

/**
 * Settings for one upstream tool that differ from its server's: null means "as the server".
 * {@code hidden} keeps the tool out of the agent's list entirely; {@code descriptionOverride}
 * (memtomem-stm's {@code description_override}) is listed instead of the upstream's description,
 * under the same length cap, and the tool keeps its name.
 */
public record ToolOverride(CompressionMode compression, Integer maxResultChars, Integer cacheTtlSeconds, boolean hidden,
                           String descriptionOverride) {
    public static final ToolOverride NONE = new ToolOverride(null, null, null, false, null);
    /** Long enough for any real description; a description is paid for in every agent turn. */
    public static final int MAX_DESCRIPTION_OVERRIDE_CHARS = 16_000;

    public ToolOverride(CompressionMode compression, Integer maxResultChars, Integer cacheTtlSeconds, boolean hidden) {
        this(compression, maxResultChars, cacheTtlSeconds, hidden, null);
    }

    public ToolOverride {
        if (descriptionOverride != null) {
            if (descriptionOverride.isBlank()) {
                throw new InvalidArgumentException("description_override", "is empty; give the text to list, or leave the key out");
            }
            if (descriptionOverride.length() > MAX_DESCRIPTION_OVERRIDE_CHARS) {
                throw new InvalidArgumentException("description_override", "is " + descriptionOverride.length()
                        + " characters; the most is " + MAX_DESCRIPTION_OVERRIDE_CHARS);
            }
        }
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
                case "compression" -> new ToolOverride(CompressionMode.parse(k, value), maxResultChars, cacheTtlSeconds, hidden,
                        descriptionOverride);
                case "max_result_chars", "max_chars" -> new ToolOverride(compression, Integer.parseInt(value.strip()), cacheTtlSeconds,
                        hidden, descriptionOverride);
                case "cache_ttl_seconds", "cache_ttl" -> new ToolOverride(compression, maxResultChars, Integer.parseInt(value.strip()),
                        hidden, descriptionOverride);
                case "hidden" -> new ToolOverride(compression, maxResultChars, cacheTtlSeconds, bool(value), descriptionOverride);
                case "description_override", "description" -> new ToolOverride(compression, maxResultChars, cacheTtlSeconds, hidden,
                        value);
                default -> throw new InvalidArgumentException("override", "has unknown key '" + key
                        + "'; use compression, max_result_chars, cache_ttl_seconds, hidden or description_override");
            };
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException("override", key + " must be an integer, got '" + value + "'");
        }
    }

    private static boolean bool(String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new InvalidArgumentException("hidden", "must be true or false, got '" + value + "'");
        };
    }
}
