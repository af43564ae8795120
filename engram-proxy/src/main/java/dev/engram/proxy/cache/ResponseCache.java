package dev.engram.proxy.cache;

import dev.engram.proxy.stats.SqliteFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Upstream results by {@link CacheKey}, in {@code <store>/proxy-cache.db}, each with its own expiry.
 * Holds the upstream's text before CLEAN/COMPRESS/SURFACE: a hit runs the pipeline again, so its
 * follow-up keys are fresh and its memories current. The caller decides what may be cached (only
 * tools annotated read-only, never errors); expired rows are purged at open, and the oldest go
 * beyond {@link #MAX_ENTRIES}. Thread-safe.
 */
public final class ResponseCache implements AutoCloseable {
    public static final String FILE_NAME = "proxy-cache.db";
    /** memtomem-stm's max_entries. */
    public static final int MAX_ENTRIES = 10_000;

    private final SqliteFile db;
    private final Clock clock;

    public ResponseCache(Path storeDir, Clock clock) {
        this.clock = clock;
        this.db = new SqliteFile(storeDir.resolve(FILE_NAME), List.of(
                "CREATE TABLE IF NOT EXISTS responses(digest TEXT PRIMARY KEY, server TEXT, tool TEXT, text TEXT,"
                        + " created_at INTEGER, expires_at INTEGER)",
                "CREATE INDEX IF NOT EXISTS responses_expiry ON responses(expires_at)"));
        db.update("DELETE FROM responses WHERE expires_at <= ?", clock.millis());
    }

    public Optional<String> get(CacheKey key) {
        var rows = db.query("SELECT text FROM responses WHERE digest = ? AND expires_at > ?", key.digest(), clock.millis());
        return rows.isEmpty() ? Optional.empty() : Optional.of((String) rows.get(0).get("text"));
    }

    public void put(CacheKey key, String text, Duration ttl) {
        long now = clock.millis();
        db.update("INSERT OR REPLACE INTO responses VALUES(?,?,?,?,?,?)", key.digest(), key.server(), key.tool(), text, now,
                now + ttl.toMillis());
        db.update("DELETE FROM responses WHERE digest IN (SELECT digest FROM responses ORDER BY created_at DESC"
                + " LIMIT -1 OFFSET ?)", MAX_ENTRIES);
    }

    /** Removes entries of {@code server} and/or {@code tool} (null = any); returns how many. */
    public int clear(String server, String tool) {
        return db.update("DELETE FROM responses WHERE (? IS NULL OR server = ?) AND (? IS NULL OR tool = ?)",
                server, server, tool, tool);
    }

    public long size() {
        return ((Number) db.query("SELECT COUNT(*) AS n FROM responses").get(0).get("n")).longValue();
    }

    @Override
    public void close() {
        db.close();
    }
}
