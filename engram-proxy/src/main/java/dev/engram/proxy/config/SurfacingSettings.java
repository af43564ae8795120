package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.time.Duration;

/**
 * When and how memories are surfaced under a proxied result. Defaults are memtomem-stm's
 * (seed-systems §3.4) unless a line says otherwise.
 *
 * @param minResponseChars  results shorter than this get no memories (a short answer needs no context);
 *                          see {@link #MIN_RESPONSE_CHARS} for why Engram's default is not memtomem-stm's
 * @param minQueryTokens    a query with fewer tokens is too vague to search with
 * @param maxPerMinute      rate limit over a sliding minute
 * @param cooldown          a query this similar (Jaccard &gt; 0.95) to one this recent is skipped
 * @param dedupWindow       a memory surfaced within this window is not surfaced again
 * @param timeout           the search may take this long; the result is never held up longer
 * @param minScore          starting score threshold; the tuner moves it within [scoreFloor, scoreCeiling]
 * @param excludeTools      memtomem-stm's surfacing {@code exclude_tools}: glob patterns of tools whose results
 *                          never get memories (matched against the tool's name and {@code server__tool}); the
 *                          tools are still listed and called, unlike an upstream's {@code exclude_tools}
 */
public record SurfacingSettings(boolean enabled, int maxResults, int maxInjectionChars, int minResponseChars,
                                int minQueryTokens, int maxPerMinute, Duration cooldown, Duration dedupWindow,
                                Duration timeout, double minScore, int circuitMaxFailures, Duration circuitReset,
                                boolean autoTune, int autoTuneMinSamples, double scoreIncrement, double scoreFloor,
                                double scoreCeiling, String zone, java.util.List<String> excludeTools) {
    public SurfacingSettings {
        excludeTools = excludeTools == null ? java.util.List.of() : java.util.List.copyOf(excludeTools);
        for (String glob : excludeTools) ToolGlob.validate("ENGRAM_PROXY_SURFACING__EXCLUDE_TOOLS", glob);
        if (maxResults < 1 || maxResults > 10) throw new InvalidArgumentException("surfacing max_results", "must be 1..10, got " + maxResults);
        if (minQueryTokens < 1) throw new InvalidArgumentException("surfacing min_query_tokens", "must be >= 1, got " + minQueryTokens);
        if (!(scoreFloor <= scoreCeiling)) {
            throw new InvalidArgumentException("surfacing score bounds", "floor " + scoreFloor + " exceeds ceiling " + scoreCeiling);
        }
        if (minScore < scoreFloor || minScore > scoreCeiling) {
            throw new InvalidArgumentException("surfacing min_score", "must be within " + scoreFloor + ".." + scoreCeiling
                    + ", got " + minScore);
        }
    }

    /** memtomem-stm's max_injection_chars: the whole block of memories, header included. */
    public static final int MAX_INJECTION_CHARS = 3000;
    /**
     * memtomem-stm surfaces under results of 5,000+ chars, which under its 8,000-char budget left a
     * band of 5,000..8,000 that passed through with memories. Engram compresses everything over
     * {@link ResultBudget#COMPRESS_ABOVE_CHARS} (5,000), so that band would be empty; 3,000 keeps one
     * (3,000..5,000 chars pass through with memories) and equals the default
     * {@code maxInjectionChars}: the memories appended are never longer than the result under them.
     */
    public static final int MIN_RESPONSE_CHARS = MAX_INJECTION_CHARS;

    /**
     * Engram's recall score is lexical match plus boosts (about 0..3 in practice), not memtomem's
     * RRF scale (0..0.05), so the threshold and its bounds are on Engram's scale: 0.3 drops hits
     * that only share a stop-word-like token, and tuning moves it by 0.02 within 0.05..1.5.
     */
    public static SurfacingSettings defaults() {
        return new SurfacingSettings(true, 3, MAX_INJECTION_CHARS, MIN_RESPONSE_CHARS, 3, 15, Duration.ofSeconds(5), Duration.ofDays(7),
                Duration.ofSeconds(3), 0.3, 3, Duration.ofSeconds(60), true, 20, 0.02, 0.05, 1.5, null, java.util.List.of());
    }

    /** These settings with surfacing switched on or off (proxy.json's switch over the environment's). */
    public SurfacingSettings withEnabled(boolean on) {
        return new SurfacingSettings(on, maxResults, maxInjectionChars, minResponseChars, minQueryTokens, maxPerMinute, cooldown,
                dedupWindow, timeout, minScore, circuitMaxFailures, circuitReset, autoTune, autoTuneMinSamples, scoreIncrement,
                scoreFloor, scoreCeiling, zone, excludeTools);
    }

    /** The first {@link #excludeTools} pattern that matches one of {@code names}, or null. */
    public String excludedBy(String... names) {
        for (String glob : excludeTools) {
            for (String name : names) if (name != null && ToolGlob.matches(glob, name)) return glob;
        }
        return null;
    }
}
