package dev.engram.proxy.config;

import dev.engram.proxy.stats.Report;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration a proxy started now would run with: proxy.json's upstreams with every default
 * filled in, and the process-wide settings from the environment. Secrets never appear: header
 * values, credentials and query values in URLs are replaced by {@link #HIDDEN}; environment
 * variables are shown by name with whether this environment sets them (values are never stored).
 */
public final class EffectiveConfig {
    public static final String HIDDEN = "<hidden>";

    private EffectiveConfig() {
    }

    public static Report of(Path file, boolean exists, ProxyConfig config, ProxySettings settings, Map<String, String> env) {
        StringBuilder sb = new StringBuilder();
        sb.append("File: ").append(file).append(exists ? "" : " (none yet)").append('\n');
        List<Map<String, Object>> rows = new ArrayList<>();
        sb.append(config.upstreams().isEmpty() ? "Upstreams: none\n" : "Upstreams (" + config.upstreams().size() + "):\n");
        for (UpstreamConfig u : config.upstreams()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", u.name());
            row.put("prefix", u.prefix());
            sb.append("  ").append(u.name()).append(" [").append(u.prefix()).append("__*] ");
            if (u.transport() instanceof UpstreamTransport.Stdio s) {
                row.put("transport", "stdio");
                row.put("command", s.command());
                row.put("args", s.args().stream().map(EffectiveConfig::maskArg).toList());
                Map<String, Object> vars = new LinkedHashMap<>();
                for (String name : s.passEnv()) vars.put(name, env.containsKey(name) ? "set" : "not set");
                row.put("env", vars);
                sb.append("stdio: ").append(s.command()).append(s.args().isEmpty() ? "" : " " + String.join(" ", maskArgs(s.args()))).append('\n');
                sb.append("      env passed: PATH, HOME");
                vars.forEach((k, v) -> sb.append(", ").append(k).append(" (").append(v).append(')'));
                sb.append('\n');
            } else {
                UpstreamTransport.Remote h = (UpstreamTransport.Remote) u.transport();
                row.put("transport", h.id());
                row.put("url", maskUrl(h.url()));
                Map<String, Object> headers = new TreeMap<>();
                h.headers().keySet().forEach(k -> headers.put(k, HIDDEN));
                row.put("headers", headers);
                sb.append(h.label()).append(": ").append(maskUrl(h.url())).append('\n');
                if (!headers.isEmpty()) {
                    sb.append("      headers: ");
                    sb.append(String.join(", ", headers.keySet().stream().map(k -> k + ": " + HIDDEN).toList())).append('\n');
                }
            }
            row.put("compression", u.compression().id());
            row.put("max_result_chars", u.maxResultChars());
            row.put("cache_ttl_seconds", u.cacheTtlSeconds());
            row.put("surfacing_enabled", u.surfacing());
            sb.append("      compression ").append(u.compression().id()).append(", max_result_chars ").append(u.maxResultChars())
                    .append(", cache_ttl_seconds ").append(u.cacheTtlSeconds()).append(u.surfacing() ? "" : ", surfacing off").append('\n');
            row.put("exclude_tools", u.excludeTools());
            if (!u.excludeTools().isEmpty()) sb.append("      exclude_tools: ").append(String.join(", ", u.excludeTools())).append('\n');
            Map<String, Object> tools = new TreeMap<>();
            u.tools().forEach((tool, o) -> {
                Map<String, Object> t = new LinkedHashMap<>();
                t.put("compression", u.compressionFor(tool).id());
                t.put("max_result_chars", u.maxResultCharsFor(tool));
                t.put("cache_ttl_seconds", u.cacheTtlSecondsFor(tool));
                t.put("hidden", o.hidden());
                t.put("description_override", o.descriptionOverride());
                tools.put(tool, t);
            });
            row.put("tools", tools);
            tools.forEach((tool, t) -> {
                Map<?, ?> m = (Map<?, ?>) t;
                sb.append("      tool ").append(tool).append(": ").append(Boolean.TRUE.equals(m.get("hidden")) ? "hidden"
                        : "compression " + m.get("compression") + ", max_result_chars " + m.get("max_result_chars")
                        + ", cache_ttl_seconds " + m.get("cache_ttl_seconds")
                        + (m.get("description_override") == null ? "" : ", description overridden")).append('\n');
            });
            rows.add(row);
        }
        Map<String, Object> proxy = new LinkedHashMap<>();
        proxy.put("advertise_admin", settings.advertiseAdmin());
        proxy.put("formation_enabled", settings.formation());
        proxy.put("min_result_retention", settings.retentionFloor());
        proxy.put("connect_timeout_seconds", settings.connectTimeout().toSeconds());
        proxy.put("call_timeout_seconds", settings.callTimeout().toSeconds());
        proxy.put("max_description_chars", settings.maxDescriptionChars());
        proxy.put("compress_above_chars", settings.resultBudget().compressAboveChars());
        proxy.put("max_result_share", settings.resultBudget().maxShare());
        SurfacingSettings s = settings.surfacing();
        Map<String, Object> surfacing = new LinkedHashMap<>();
        boolean effective = s.enabled() && config.surfacingEnabled();
        surfacing.put("enabled", effective);
        surfacing.put("environment_enabled", s.enabled());
        surfacing.put("file_enabled", config.surfacingEnabled());
        surfacing.put("max_results", s.maxResults());
        surfacing.put("max_injection_chars", s.maxInjectionChars());
        surfacing.put("min_response_chars", s.minResponseChars());
        surfacing.put("min_query_tokens", s.minQueryTokens());
        surfacing.put("max_surfacings_per_minute", s.maxPerMinute());
        surfacing.put("cooldown_seconds", s.cooldown().toMillis() / 1000.0);
        surfacing.put("dedup_ttl_seconds", s.dedupWindow().toSeconds());
        surfacing.put("timeout_seconds", s.timeout().toMillis() / 1000.0);
        surfacing.put("min_score", s.minScore());
        surfacing.put("circuit_max_failures", s.circuitMaxFailures());
        surfacing.put("circuit_reset_seconds", s.circuitReset().toSeconds());
        surfacing.put("auto_tune_enabled", s.autoTune());
        surfacing.put("zone", s.zone() == null ? "(the default zone)" : s.zone());
        if (!s.excludeTools().isEmpty()) surfacing.put("exclude_tools", s.excludeTools());
        if (config.advertiseContextQuery()) sb.append("advertise_context_query: true (proxied tools offer _context_query)\n");
        if (config.recoverUpstreamDescription()) {
            sb.append("recover_upstream_description: true (stm_proxy_describe_tool returns the text a description_override replaced)\n");
        }
        sb.append("Proxy settings (ENGRAM_PROXY_*): ");
        appendFlat(sb, proxy);
        sb.append("Surfacing (ENGRAM_PROXY_SURFACING__*): ");
        appendFlat(sb, surfacing);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("file", file.toString());
        data.put("exists", exists);
        data.put("upstreams", rows);
        data.put("advertise_context_query", config.advertiseContextQuery());
        data.put("recover_upstream_description", config.recoverUpstreamDescription());
        data.put("settings", proxy);
        data.put("surfacing", surfacing);
        return new Report(sb.toString(), data);
    }

    private static void appendFlat(StringBuilder sb, Map<String, Object> m) {
        List<String> parts = new ArrayList<>();
        m.forEach((k, v) -> parts.add(k + " " + v));
        sb.append(String.join(", ", parts)).append('\n');
    }

    /** scheme://user:password@ anywhere in an argument, as in postgresql://admin:pw@db/prod or --db=mysql://root:pw@h/x. */
    private static final java.util.regex.Pattern USER_INFO = java.util.regex.Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\\s]+@");

    /**
     * An argument as it may be shown: a whole http(s) URL as {@link #maskUrl}, and the user info of any
     * URL inside it hidden. Only shown text is masked; the server still gets the argument as written.
     */
    public static String maskArg(String arg) {
        if (arg.startsWith("http://") || arg.startsWith("https://")) return maskUrl(arg);
        return USER_INFO.matcher(arg).replaceAll("$1" + java.util.regex.Matcher.quoteReplacement(HIDDEN) + "@");
    }

    public static List<String> maskArgs(List<String> args) {
        return args.stream().map(EffectiveConfig::maskArg).toList();
    }

    /** The URL with its user info and every query value hidden: either can carry a token. */
    public static String maskUrl(String url) {
        try {
            URI u = new URI(url);
            String query = u.getRawQuery();
            String masked = query == null ? null : String.join("&", java.util.Arrays.stream(query.split("&"))
                    .map(p -> p.contains("=") ? p.substring(0, p.indexOf('=')) + "=" + HIDDEN : p).toList());
            StringBuilder sb = new StringBuilder();
            sb.append(u.getScheme()).append("://");
            if (u.getRawUserInfo() != null) sb.append(HIDDEN).append('@');
            sb.append(u.getHost() == null ? "" : u.getHost());
            if (u.getPort() >= 0) sb.append(':').append(u.getPort());
            sb.append(u.getRawPath() == null ? "" : u.getRawPath());
            if (masked != null) sb.append('?').append(masked);
            return sb.toString();
        } catch (URISyntaxException e) {
            return HIDDEN;
        }
    }
}
