package dev.engram.proxy.stats;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Memories an agent proposed through the proxy, waiting for a person: {@code stm_memory_propose}
 * never writes to the store directly (a proxied agent read untrusted tool output just before).
 * {@code engram proxy proposals} lists them; {@code engram proxy accept ID} stores one. An
 * idempotency key makes a retried proposal a no-op. Kept in {@code <store>/proxy-stats.db}.
 */
public final class ProposalQueue implements AutoCloseable {
    public static final int MAX_CONTENT_CHARS = 2000;

    private final SqliteFile db;
    private final Clock clock;
    private final Supplier<String> ids;

    public ProposalQueue(Path storeDir, Clock clock, Supplier<String> ids) {
        this.clock = clock;
        this.ids = ids;
        this.db = new SqliteFile(storeDir.resolve(ProxyStats.FILE_NAME), List.of(
                "CREATE TABLE IF NOT EXISTS proposals(id TEXT PRIMARY KEY, at INTEGER, content TEXT, source_ref TEXT,"
                        + " idempotency_key TEXT UNIQUE, status TEXT)"));
    }

    /** Queues a proposal; with a known idempotency key, returns the earlier one's id instead. */
    public String propose(String content, String sourceRef, String idempotencyKey) {
        String key = idempotencyKey == null || idempotencyKey.isBlank() ? null : idempotencyKey;
        if (key != null) {
            var rows = db.query("SELECT id FROM proposals WHERE idempotency_key = ?", key);
            if (!rows.isEmpty()) return (String) rows.get(0).get("id");
        }
        String id = "p_" + ids.get();
        db.update("INSERT INTO proposals VALUES(?,?,?,?,?,?)", id, clock.millis(), content, sourceRef, key, "pending");
        return id;
    }

    public List<Map<String, Object>> pending() {
        return db.query("SELECT id, at, content, source_ref FROM proposals WHERE status = 'pending' ORDER BY at");
    }

    public Optional<String> pendingContent(String id) {
        var rows = db.query("SELECT content FROM proposals WHERE id = ? AND status = 'pending'", id);
        return rows.isEmpty() ? Optional.empty() : Optional.of((String) rows.get(0).get("content"));
    }

    public void resolve(String id, String status) {
        db.update("UPDATE proposals SET status = ? WHERE id = ?", status, id);
    }

    @Override
    public void close() {
        db.close();
    }
}
