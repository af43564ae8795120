package dev.engram.proxy.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reports over {@link ProxyStats}: what {@code stm_admin} actions and {@code engram proxy stats|tune}
 * print. Token counts are estimated as chars / 4 (English prose; JSON runs closer to 3.5).
 */
public final class StatsReports {
    static final int CHARS_PER_TOKEN = 4;
    private final ProxyStats stats;

    public StatsReports(ProxyStats stats) {
        this.stats = stats;
    }

    public Report proxyStats() {
        List<Map<String, Object>> rows = stats.callsByTool();
        long in = 0, out = 0, calls = 0, hits = 0;
        StringBuilder sb = new StringBuilder();
        for (Map<String, Object> r : rows) {
            calls += num(r.get("calls"));
            hits += num(r.get("cache_hits"));
            in += num(r.get("chars_in"));
            out += num(r.get("chars_out"));
            sb.append(String.format("  %s/%s: %d calls, %d errors, %d cache hits, %d -> %d chars, strategies %s%n",
                    r.get("server"), r.get("tool"), num(r.get("calls")), num(r.get("errors")), num(r.get("cache_hits")),
                    num(r.get("chars_in")), num(r.get("chars_out")), r.get("strategies")));
        }
        List<Long> lat = stats.latenciesMs();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("calls", calls);
        data.put("cache_hits", hits);
        data.put("cache_misses", calls - hits);
        data.put("tokens_in", in / CHARS_PER_TOKEN);
        data.put("tokens_out", out / CHARS_PER_TOKEN);
        data.put("tokens_saved", (in - out) / CHARS_PER_TOKEN);
        data.put("latency_ms", Map.of("p50", pct(lat, 0.50), "p95", pct(lat, 0.95), "p99", pct(lat, 0.99)));
        data.put("tools", rows);
        String head = String.format("Proxy: %d calls, %d cache hits; ~%d tokens in, ~%d out, ~%d saved (%.0f%%); latency"
                        + " p50 %d ms, p95 %d ms, p99 %d ms%n", calls, hits, in / CHARS_PER_TOKEN, out / CHARS_PER_TOKEN,
                (in - out) / CHARS_PER_TOKEN, in == 0 ? 0.0 : 100.0 * (in - out) / in, pct(lat, 0.5), pct(lat, 0.95), pct(lat, 0.99));
        return new Report(head + sb, data);
    }

    public Report surfacingStats(Map<String, Long> skipped, double minScore) {
        List<Map<String, Object>> byTool = stats.surfacingByTool();
        List<Map<String, Object>> ratings = stats.feedbackByRating();
        long total = ratings.stream().mapToLong(r -> num(r.get("n"))).sum();
        long helpful = ratings.stream().filter(r -> "helpful".equals(r.get("rating"))).mapToLong(r -> num(r.get("n"))).sum();
        long events = byTool.stream().mapToLong(r -> num(r.get("events"))).sum();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("events_total", events);
        data.put("distinct_tools", byTool.size());
        data.put("total_feedback", total);
        data.put("helpfulness_pct", total == 0 ? null : 100.0 * helpful / total);
        data.put("ratings", ratings);
        data.put("tools", byTool);
        data.put("skipped_by_reason", skipped);
        data.put("min_score", minScore);
        String text = String.format("Surfacing: %d events over %d tools, %d ratings (%s helpful), threshold %.3f%n"
                        + "  ratings: %s%n  skipped (this process): %s%n", events, byTool.size(), total,
                total == 0 ? "n/a" : String.format("%.0f%%", 100.0 * helpful / total), minScore, ratings, skipped);
        return new Report(text, data);
    }

    public Report selectionStats() {
        List<Map<String, Object>> rows = stats.followUps("select");
        return new Report("Section selections (stm_proxy_select_chunks) by tool: " + rows + "\n", Map.of("tools", rows));
    }

    public Report compressionStats(String tool) {
        List<Map<String, Object>> rows = stats.compressionFeedback(tool);
        return new Report("Compression feedback by tool and kind: " + rows + "\n", Map.of("feedback", rows));
    }

    public Report progressiveStats(String tool) {
        List<Map<String, Object>> reads = filter(stats.followUps("read_more"), tool);
        List<Map<String, Object>> compressed = filter(stats.compressedCalls("%"), tool).stream()
                .filter(r -> num(r.get("calls")) > 0).toList();
        long results = reads.stream().mapToLong(r -> num(r.get("results"))).sum();
        long readCount = reads.stream().mapToLong(r -> num(r.get("reads"))).sum();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("follow_up_reads", readCount);
        data.put("results_followed_up", results);
        data.put("tools", reads);
        return new Report(String.format("Progressive reads: %d follow-up reads over %d results; by tool: %s%n",
                readCount, results, reads), data);
    }

    /**
     * memtomem-stm's compression tuner, on our numbers: with at least 5 calls, a tool whose results
     * were mostly followed up (more than half) should get a larger budget; compression feedback
     * "truncated" suggests hybrid, "missing_metadata" extract_fields.
     */
    public Report tuningRecommendations(double minScore) {
        List<String> recs = new ArrayList<>();
        Map<String, Long> followed = new LinkedHashMap<>();
        for (Map<String, Object> r : stats.followUps("read_more")) followed.merge(r.get("server") + "/" + r.get("tool"), num(r.get("results")), Long::sum);
        for (Map<String, Object> r : stats.followUps("select")) followed.merge(r.get("server") + "/" + r.get("tool"), num(r.get("results")), Long::sum);
        for (Map<String, Object> r : stats.compressedCalls("%")) {
            String tool = r.get("server") + "/" + r.get("tool");
            long calls = num(r.get("calls"));
            long f = followed.getOrDefault(tool, 0L);
            if (calls >= 5 && f * 2 > calls) {
                recs.add(tool + ": " + f + " of " + calls + " results needed a follow-up; raise max_result_chars towards "
                        + Math.min(1_000_000, num(r.get("max_original"))) + " (confidence " + confidence(calls) + ")");
            }
        }
        for (Map<String, Object> r : stats.compressionFeedback(null)) {
            if (num(r.get("reports")) < 3) continue;
            String kind = String.valueOf(r.get("kind"));
            String tool = r.get("server") + "/" + r.get("tool");
            if (kind.equals("truncated")) recs.add(tool + ": reported truncated " + r.get("reports") + "x; use compression hybrid");
            if (kind.equals("missing_metadata")) recs.add(tool + ": missing metadata " + r.get("reports") + "x; use extract_fields");
            if (kind.equals("missing_example")) recs.add(tool + ": missing examples " + r.get("reports") + "x; raise max_result_chars to 16000");
        }
        String text = "Surfacing threshold now " + String.format("%.3f", minScore) + " (tuned from feedback).\n"
                + (recs.isEmpty() ? "No recommendations yet (needs at least 5 compressed calls per tool or 3 feedback reports).\n"
                : "Recommendations:\n  " + String.join("\n  ", recs) + "\n");
        return new Report(text, Map.of("min_score", minScore, "recommendations", recs));
    }

    private static String confidence(long n) {
        return n >= 20 ? "high" : n >= 10 ? "medium" : "low";
    }

    private static List<Map<String, Object>> filter(List<Map<String, Object>> rows, String tool) {
        return tool == null ? rows : rows.stream().filter(r -> tool.equals(r.get("tool"))).toList();
    }

    static long pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) return 0;
        int i = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    static long num(Object o) {
        return o instanceof Number n ? n.longValue() : 0;
    }
}
