package dev.engram.proxy;

import dev.engram.proxy.stats.Report;
import dev.engram.proxy.upstream.Exposure;
import dev.engram.proxy.upstream.UpstreamConnection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Per upstream: connected, discovered vs exposed tool counts and why tools were hidden. */
final class HealthReport {
    private HealthReport() {
    }

    static Report of(List<UpstreamConnection> upstreams, Exposure exposure, String breaker, long cached, int stored) {
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
            row.put("discovered", s.discoveredTools());
            row.put("exposed", exposed);
            row.put("hidden", hidden);
            row.put("failed_attempts", s.failedAttempts());
            row.put("reconnects", s.reconnects());
            // the error's kind only: messages can carry paths or URLs with credentials
            row.put("last_error", s.lastError() == null ? null : kind(s.lastError()));
            servers.add(row);
            sb.append(String.format("  %s: %s, %d discovered, %d exposed%s%n", s.server(),
                    s.connected() ? "connected" : "DISCONNECTED", s.discoveredTools(), exposed,
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

    private static String kind(String message) {
        if (message.contains("did not start")) return "StartError";
        if (message.contains("exited")) return "ProcessExited";
        if (message.contains("did not answer")) return "Timeout";
        return "ConnectError";
    }
}
