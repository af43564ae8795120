package dev.engram.proxy;

import dev.engram.proxy.stats.Report;
import dev.engram.proxy.upstream.Exposure;
import dev.engram.proxy.upstream.UpstreamConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per upstream: connected, discovered vs exposed tool counts and why tools were hidden. The agent's
 * view ({@code stm_admin proxy_health}) gets an error's kind only; the operator's ({@code engram proxy
 * doctor}, {@code detailed}) gets the step it failed at, the error itself and how long connecting took.
 */
final class HealthReport {
    private HealthReport() {
    }

    static Report of(List<UpstreamConnection> upstreams, Exposure exposure, String breaker, long cached, int stored) {
        return of(upstreams, exposure, breaker, cached, stored, false, 0);
    }

    /** {@code connectTimeoutSeconds} explains an upstream that neither connected nor failed in time. */
    static Report of(List<UpstreamConnection> upstreams, Exposure exposure, String breaker, long cached, int stored,
                     boolean detailed, long connectTimeoutSeconds) {
        StringBuilder sb = new StringBuilder();
        List<Map<String, Object>> servers = new ArrayList<>();
        for (UpstreamConnection u : upstreams) {
            UpstreamConnection.Status s = u.status();
            Exposure.ServerExposure e = exposure.servers().get(s.server());
            int exposed = e == null ? 0 : e.exposed();
            Map<String, String> hidden = e == null ? Map.of() : e.hidden();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("server", s.server());
            row.put("connected", s.connected());
            row.put("connecting", !s.connected() && s.connecting());
            row.put("discovered", s.discoveredTools());
            row.put("exposed", exposed);
            row.put("hidden", hidden);
            row.put("failed_attempts", s.failedAttempts());
            row.put("reconnects", s.reconnects());
            // the error's kind only: messages can carry paths or URLs with credentials
            row.put("last_error", s.lastError() == null ? null : kind(s.lastError()));
            if (detailed) {
                String error = s.lastError();
                String step = s.failedStep();
                if (!s.connected() && s.connecting()) {
                    step = UpstreamConnection.STEP_START;
                    error = "it is still connecting (starting and initializing; the connect timeout is " + connectTimeoutSeconds
                            + " s, ENGRAM_PROXY_CONNECT_TIMEOUT_SECONDS)";
                } else if (!s.connected() && error == null) {
                    step = UpstreamConnection.STEP_START;
                    error = "it did not finish connecting within the connect timeout (" + connectTimeoutSeconds
                            + " s, ENGRAM_PROXY_CONNECT_TIMEOUT_SECONDS)";
                }
                row.put("ok", s.connected());
                row.put("failed_step", s.connected() ? null : step);
                row.put("error", s.connected() ? null : error);
                row.put("connect_ms", s.connectMillis() < 0 ? null : s.connectMillis());
                servers.add(row);
                if (s.connected()) {
                    sb.append(String.format("  PASS %s: started, initialized, tools/list gave %d tool%s, %d exposed%s%s%n", s.server(),
                            s.discoveredTools(), s.discoveredTools() == 1 ? "" : "s", exposed,
                            s.connectMillis() < 0 ? "" : " (" + s.connectMillis() + " ms)", hiddenLines(hidden)));
                } else {
                    sb.append(String.format("  FAIL %s: %s failed: %s%n", s.server(), step, error));
                }
                continue;
            }
            servers.add(row);
            sb.append(String.format("  %s: %s, %d discovered, %d exposed%s%n", s.server(),
                    s.connected() ? "connected" : s.connecting() ? "still connecting" : "DISCONNECTED", s.discoveredTools(), exposed,
                    hidden.isEmpty() ? "" : ", hidden: " + hidden));
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("servers", servers);
        data.put("surfacing_breaker", breaker);
        data.put("cached_responses", cached);
        data.put("stored_originals", stored);
        return new Report("Upstreams:\n" + sb + "Surfacing breaker: " + breaker + "; cached responses: " + cached
                + "; stored originals: " + stored + "\n", data);
    }

    /** One line per hidden tool, sorted, so a long list stays readable. */
    private static String hiddenLines(Map<String, String> hidden) {
        StringBuilder sb = new StringBuilder();
        new java.util.TreeMap<>(hidden).forEach((tool, why) -> sb.append("\n      hidden ").append(tool).append(": ").append(why));
        return sb.toString();
    }

    private static String kind(String message) {
        if (message.contains("did not start")) return "StartError";
        if (message.contains("exited")) return "ProcessExited";
        if (message.contains("did not answer")) return "Timeout";
        return "ConnectError";
    }
}
