package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import dev.engram.proxy.compress.RetentionFloor;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Process-wide proxy settings, from environment variables (read once, by the CLI's composition
 * root). Each {@code ENGRAM_PROXY_*} name also accepts memtomem-stm's {@code MEMTOMEM_STM_*}
 * spelling, so an existing setup keeps working; the Engram name wins when both are set.
 */
public record ProxySettings(boolean advertiseAdmin, boolean formation, double retentionFloor, Duration connectTimeout,
                            Duration callTimeout, SurfacingSettings surfacing, int maxDescriptionChars,
                            ResultBudget resultBudget) {
    public ProxySettings {
        new RetentionFloor(retentionFloor); // validates
        Objects.requireNonNull(resultBudget, "resultBudget");
        if (maxDescriptionChars < 32) {
            throw new InvalidArgumentException("ENGRAM_PROXY_MAX_DESCRIPTION_CHARS", "must be >= 32, got " + maxDescriptionChars);
        }
    }

    public static ProxySettings defaults() {
        return new ProxySettings(false, false, RetentionFloor.DEFAULT, Duration.ofSeconds(30), Duration.ofSeconds(60),
                SurfacingSettings.defaults(), 4000, ResultBudget.DEFAULT);
    }

    /**
     * A list of globs as memtomem-stm's settings take it: a JSON array ({@code ["*search*","fs__read_?"]}) or
     * comma-separated ({@code *search*,fs__read_?}); null or blank is none.
     */
    static java.util.List<String> globs(String value) {
        if (value == null || value.isBlank()) return java.util.List.of();
        String v = value.strip();
        if (v.startsWith("[")) {
            if (!v.endsWith("]")) {
                throw new InvalidArgumentException("ENGRAM_PROXY_SURFACING__EXCLUDE_TOOLS", "starts a JSON array but does not end"
                        + " with ]; give [\"*search*\"] or *search*,*list*");
            }
            v = v.substring(1, v.length() - 1);
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String part : v.split(",")) {
            String g = part.strip();
            if (g.length() >= 2 && g.startsWith("\"") && g.endsWith("\"")) g = g.substring(1, g.length() - 1);
            if (!g.isEmpty()) out.add(g);
        }
        return out;
    }

    public static ProxySettings fromEnv(Map<String, String> env) {
        ProxySettings d = defaults();
        SurfacingSettings s = d.surfacing();
        Env e = new Env(env);
        SurfacingSettings surfacing = new SurfacingSettings(
                e.bool("SURFACING__ENABLED", s.enabled()), e.integer("SURFACING__MAX_RESULTS", s.maxResults()),
                e.integer("SURFACING__MAX_INJECTION_CHARS", s.maxInjectionChars()),
                e.integer("SURFACING__MIN_RESPONSE_CHARS", s.minResponseChars()),
                e.integer("SURFACING__MIN_QUERY_TOKENS", s.minQueryTokens()),
                e.integer("SURFACING__MAX_SURFACINGS_PER_MINUTE", s.maxPerMinute()),
                Duration.ofMillis((long) (1000 * e.decimal("SURFACING__COOLDOWN_SECONDS", s.cooldown().toMillis() / 1000.0))),
                Duration.ofSeconds(e.integer("SURFACING__DEDUP_TTL_SECONDS", (int) s.dedupWindow().toSeconds())),
                Duration.ofMillis((long) (1000 * e.decimal("SURFACING__TIMEOUT_SECONDS", s.timeout().toMillis() / 1000.0))),
                e.decimal("SURFACING__MIN_SCORE", s.minScore()),
                e.integer("SURFACING__CIRCUIT_MAX_FAILURES", s.circuitMaxFailures()),
                Duration.ofSeconds(e.integer("SURFACING__CIRCUIT_RESET_SECONDS", (int) s.circuitReset().toSeconds())),
                e.bool("SURFACING__AUTO_TUNE_ENABLED", s.autoTune()),
                e.integer("SURFACING__AUTO_TUNE_MIN_SAMPLES", s.autoTuneMinSamples()),
                e.decimal("SURFACING__AUTO_TUNE_SCORE_INCREMENT", s.scoreIncrement()),
                e.decimal("SURFACING__AUTO_TUNE_SCORE_FLOOR", s.scoreFloor()),
                e.decimal("SURFACING__AUTO_TUNE_SCORE_CEILING", s.scoreCeiling()),
                e.text("SURFACING__ZONE", s.zone()), globs(e.text("SURFACING__EXCLUDE_TOOLS", null)));
        boolean admin = e.bool("ADVERTISE_ADMIN", e.bool("ADVERTISE_OBSERVABILITY_TOOLS", d.advertiseAdmin()));
        return new ProxySettings(admin, e.bool("FORMATION__ENABLED", d.formation()), e.decimal("MIN_RESULT_RETENTION", d.retentionFloor()),
                Duration.ofSeconds(e.integer("CONNECT_TIMEOUT_SECONDS", (int) d.connectTimeout().toSeconds())),
                Duration.ofSeconds(e.integer("CALL_TIMEOUT_SECONDS", (int) d.callTimeout().toSeconds())), surfacing,
                e.integer("MAX_DESCRIPTION_CHARS", d.maxDescriptionChars()),
                new ResultBudget(e.integer("COMPRESS_ABOVE_CHARS", d.resultBudget().compressAboveChars()),
                        e.decimal("MAX_RESULT_SHARE", d.resultBudget().maxShare())));
    }

    public ProxySettings withSurfacing(SurfacingSettings s) {
        return new ProxySettings(advertiseAdmin, formation, retentionFloor, connectTimeout, callTimeout, s, maxDescriptionChars,
                resultBudget);
    }

    /** Looks a suffix up under ENGRAM_PROXY_ first, then MEMTOMEM_STM_. */
    record Env(Map<String, String> env) {
        String text(String suffix, String fallback) {
            String v = env.get("ENGRAM_PROXY_" + suffix);
            if (v == null) v = env.get("MEMTOMEM_STM_" + suffix);
            return v == null || v.isBlank() ? fallback : v.strip();
        }

        boolean bool(String suffix, boolean fallback) {
            String v = text(suffix, null);
            if (v == null) return fallback;
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "true", "1", "yes", "on" -> true;
                case "false", "0", "no", "off" -> false;
                default -> throw new InvalidArgumentException("ENGRAM_PROXY_" + suffix, "must be true or false, got '" + v + "'");
            };
        }

        int integer(String suffix, int fallback) {
            String v = text(suffix, null);
            try {
                return v == null ? fallback : Integer.parseInt(v);
            } catch (NumberFormatException ex) {
                throw new InvalidArgumentException("ENGRAM_PROXY_" + suffix, "must be an integer, got '" + v + "'");
            }
        }

        double decimal(String suffix, double fallback) {
            String v = text(suffix, null);
            try {
                return v == null ? fallback : Double.parseDouble(v);
            } catch (NumberFormatException ex) {
                throw new InvalidArgumentException("ENGRAM_PROXY_" + suffix, "must be a number, got '" + v + "'");
            }
        }
    }
}
