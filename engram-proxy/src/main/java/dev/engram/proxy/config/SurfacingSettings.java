package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.time.Duration;

/**
 * When and how memories are surfaced under a proxied result. Defaults are memtomem-stm's
 * (seed-systems §3.4) unless a line says otherwise.
 *
 * @param minResponseChars  results shorter than this get no memories (a short answer needs no context)
 * @param minQueryTokens    a query with fewer tokens is too vague to search with
 * @param maxPerMinute      rate limit over a sliding minute
 * @param cooldown          a query this similar (Jaccard &gt; 0.95) to one this recent is skipped
 * @param dedupWindow       a memory surfaced within this window is not surfaced again
 * @param timeout           the search may take this long; the result is never held up longer
 * @param minScore          starting score threshold; the tuner moves it within [scoreFloor, scoreCeiling]
 */
public record SurfacingSettings(boolean enabled, int maxResults, int maxInjectionChars, int minResponseChars,
                                int minQueryTokens, int maxPerMinute, Duration cooldown, Duration dedupWindow,
                                Duration timeout, double minScore, int circuitMaxFailures, Duration circuitReset,
                                boolean autoTune, int autoTuneMinSamples, double scoreIncrement, double scoreFloor,
                                double scoreCeiling, String zone) {
    public SurfacingSettings {
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

    /**
     * Engram's recall score is lexical match plus boosts (about 0..3 in practice), not memtomem's
     * RRF scale (0..0.05), so the threshold and its bounds are on Engram's scale: 0.3 drops hits
     * that only share a stop-word-like token, and tuning moves it by 0.02 within 0.05..1.5.
     */
    public static SurfacingSettings defaults() {
        return new SurfacingSettings(true, 3, 3000, 5000, 3, 15, Duration.ofSeconds(5), Duration.ofDays(7),
                Duration.ofSeconds(3), 0.3, 3, Duration.ofSeconds(60), true, 20, 0.02, 0.05, 1.5, null);
    }
}
