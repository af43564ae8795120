package dev.engram.proxy.stats;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the proxy remembers about its own work, in {@code <store>/proxy-stats.db}: one row per
 * proxied call, surfacing events and their feedback, compression feedback, follow-up reads and
 * the tuned surfacing threshold. Survives restarts, so the CLI's stats and tune commands can read
 * what a running proxy wrote. Thread-safe.
 */
public final class ProxyStats implements AutoCloseable {
    public static final String FILE_NAME = "proxy-stats.db";

    private final SqliteFile db;
    private final Clock clock;

    public ProxyStats(Path storeDir, Clock clock) {
        this.clock = clock;
        this.db = new SqliteFile(storeDir.resolve(FILE_NAME), List.of(
                "CREATE TABLE IF NOT EXISTS calls(at INTEGER, server TEXT, tool TEXT, path TEXT, original_chars INTEGER,"
                        + " returned_chars INTEGER, latency_ms INTEGER, cached INTEGER, is_error INTEGER)",
                "CREATE TABLE IF NOT EXISTS surfacing_events(id TEXT PRIMARY KEY, at INTEGER, server TEXT, tool TEXT,"
                        + " memory_ids TEXT)",
                "CREATE TABLE IF NOT EXISTS surfacing_feedback(at INTEGER, surfacing_id TEXT, memory_id TEXT, rating TEXT)",
                "CREATE TABLE IF NOT EXISTS compression_feedback(at INTEGER, server TEXT, tool TEXT, kind TEXT, missing TEXT)",
                "CREATE TABLE IF NOT EXISTS follow_ups(at INTEGER, result_key TEXT, server TEXT, tool TEXT, kind TEXT,"
                        + " chars INTEGER, total_chars INTEGER)",
                "CREATE TABLE IF NOT EXISTS tuning(name TEXT PRIMARY KEY, value REAL, at INTEGER)"));
    }

    private long now() {
        return clock.millis();
    }

    public void recordCall(CallRecord r) {
        db.update("INSERT INTO calls VALUES(?,?,?,?,?,?,?,?,?)", now(), r.server(), r.tool(), r.path(), r.originalChars(),
                r.returnedChars(), r.latencyMs(), r.cached() ? 1 : 0, r.error() ? 1 : 0);
    }

    public void recordSurfacing(String id, String server, String tool, List<String> memoryIds) {
        db.update("INSERT OR REPLACE INTO surfacing_events VALUES(?,?,?,?,?)", id, now(), server, tool,
                String.join(",", memoryIds));
    }

    public Optional<List<String>> surfacedMemories(String surfacingId) {
        var rows = db.query("SELECT memory_ids FROM surfacing_events WHERE id = ?", surfacingId);
        if (rows.isEmpty()) return Optional.empty();
        String ids = (String) rows.get(0).get("memory_ids");
        return Optional.of(ids == null || ids.isEmpty() ? List.of() : List.of(ids.split(",")));
    }

    /** Memory ids surfaced at or after {@code sinceMillis}, with when: the dedup window outlives a restart. */
    public List<Map<String, Object>> surfacedSince(long sinceMillis) {
        return db.query("SELECT memory_ids, at FROM surfacing_events WHERE at >= ? ORDER BY at", sinceMillis);
    }

    /** Memories rated not_relevant or already_known in at least {@code events} distinct surfacing events. */
    public java.util.Set<String> demoted(int events) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (var r : db.query("SELECT memory_id FROM surfacing_feedback WHERE rating IN ('not_relevant', 'already_known')"
                + " GROUP BY memory_id HAVING COUNT(DISTINCT surfacing_id) >= ?", events)) {
            out.add((String) r.get("memory_id"));
        }
        return out;
    }

    public void recordSurfacingFeedback(String surfacingId, String memoryId, String rating) {
        db.update("INSERT INTO surfacing_feedback VALUES(?,?,?,?)", now(), surfacingId, memoryId, rating);
    }

    public void recordCompressionFeedback(String server, String tool, String kind, String missing) {
        db.update("INSERT INTO compression_feedback VALUES(?,?,?,?,?)", now(), server, tool, kind, missing);
    }

    public void recordFollowUp(String key, String server, String tool, String kind, int chars, int totalChars) {
        db.update("INSERT INTO follow_ups VALUES(?,?,?,?,?,?,?)", now(), key, server, tool, kind, chars, totalChars);
    }

    public Optional<Double> tuned(String name) {
        var rows = db.query("SELECT value FROM tuning WHERE name = ?", name);
        return rows.isEmpty() ? Optional.empty() : Optional.of(((Number) rows.get(0).get("value")).doubleValue());
    }

    public void saveTuned(String name, double value) {
        db.update("INSERT OR REPLACE INTO tuning VALUES(?,?,?)", name, value, now());
    }

    /** Per server and tool: calls, errors, cache hits, chars in and out, strategies. */
    public List<Map<String, Object>> callsByTool() {
        return db.query("SELECT server, tool, COUNT(*) AS calls, SUM(is_error) AS errors, SUM(cached) AS cache_hits,"
                + " SUM(original_chars) AS chars_in, SUM(returned_chars) AS chars_out,"
                + " GROUP_CONCAT(DISTINCT path) AS strategies FROM calls GROUP BY server, tool ORDER BY calls DESC");
    }

    public List<Long> latenciesMs() {
        return db.query("SELECT latency_ms FROM calls ORDER BY latency_ms").stream()
                .map(r -> ((Number) r.get("latency_ms")).longValue()).toList();
    }

    public List<Map<String, Object>> feedbackByRating() {
        return db.query("SELECT rating, COUNT(*) AS n FROM surfacing_feedback GROUP BY rating ORDER BY n DESC");
    }

    public List<Map<String, Object>> surfacingByTool() {
        return db.query("SELECT e.server, e.tool, COUNT(DISTINCT e.id) AS events, COUNT(f.rating) AS ratings,"
                + " SUM(CASE WHEN f.rating = 'helpful' THEN 1 ELSE 0 END) AS helpful FROM surfacing_events e"
                + " LEFT JOIN surfacing_feedback f ON f.surfacing_id = e.id GROUP BY e.server, e.tool");
    }

    public List<Map<String, Object>> compressionFeedback(String tool) {
        return db.query("SELECT server, tool, kind, COUNT(*) AS reports FROM compression_feedback"
                + " WHERE (? IS NULL OR tool = ?) GROUP BY server, tool, kind ORDER BY reports DESC", tool, tool);
    }

    public List<Map<String, Object>> followUps(String kind) {
        return db.query("SELECT server, tool, COUNT(*) AS reads, COUNT(DISTINCT result_key) AS results,"
                + " SUM(chars) AS chars_read, MAX(total_chars) AS max_total FROM follow_ups WHERE kind = ?"
                + " GROUP BY server, tool", kind);
    }

    /** Stored-result calls per tool (the denominator of the follow-up ratio). */
    public List<Map<String, Object>> compressedCalls(String pathLike) {
        return db.query("SELECT server, tool, COUNT(*) AS calls, AVG(original_chars) AS avg_original,"
                + " MAX(original_chars) AS max_original FROM calls WHERE path LIKE ?"
                + " AND path NOT IN ('none', 'clean', 'error', 'non_text', 'upstream_error') GROUP BY server, tool", pathLike);
    }

    @Override
    public void close() {
        db.close();
    }

    /** One proxied call. */
    public record CallRecord(String server, String tool, String path, int originalChars, int returnedChars,
                             long latencyMs, boolean cached, boolean error) {
    }
}
