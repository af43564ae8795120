package dev.engram.cli.hook;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/** Claude Code's hook event: a JSON object on stdin (prompt, transcript_path, cwd, hook_event_name…). */
public record HookInput(Map<String, Object> fields) {
    /** The object read from {@code in}, waiting at most {@code timeout} for the writer to close it; empty on any problem. */
    static HookInput read(InputStream in, Duration timeout, Function<String, Map<String, Object>> json) {
        String text = readText(in, timeout);
        if (text.isBlank()) return new HookInput(Map.of());
        try {
            return new HookInput(claudeNames(json.apply(text.strip())));
        } catch (RuntimeException e) {
            return new HookInput(Map.of());
        }
    }

    /** What arrived on {@code in} within {@code timeout} (a writer that never closes stdin gets cut off then). */
    static String readText(InputStream in, Duration timeout) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        FutureTask<Void> reading = new FutureTask<>(() -> {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) > 0; ) {
                synchronized (got) {
                    got.write(buf, 0, n);
                }
            }
            return null;
        });
        Thread t = new Thread(reading, "hook-stdin");
        t.setDaemon(true); // a writer that never closes stdin must not keep the hook alive
        t.start();
        try {
            reading.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // brain-tools goes on with what arrived by then; so do we
        } catch (ExecutionException | InterruptedException e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
        }
        synchronized (got) {
            return got.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * Antigravity's event (one flat camelCase object for every event: {@code conversationId}, {@code workspacePaths},
     * {@code transcriptPath}, {@code toolCall {name, args}}) with the fields the hooks read added under Claude Code's
     * names ({@code session_id}, {@code cwd}, {@code transcript_path}, {@code tool_name}, {@code tool_input}); any
     * other event as it is.
     */
    static Map<String, Object> claudeNames(Map<String, Object> f) {
        if (!f.containsKey("conversationId") && !f.containsKey("workspacePaths")) return f;
        Map<String, Object> out = new java.util.LinkedHashMap<>(f);
        out.putIfAbsent("session_id", f.get("conversationId"));
        if (f.get("workspacePaths") instanceof java.util.List<?> paths && !paths.isEmpty() && paths.get(0) instanceof String first) {
            out.putIfAbsent("cwd", first);
        }
        out.putIfAbsent("transcript_path", f.get("transcriptPath"));
        if (f.get("toolCall") instanceof Map<?, ?> call) {
            out.putIfAbsent("tool_name", call.get("name"));
            out.putIfAbsent("tool_input", call.get("args") == null ? Map.of() : call.get("args"));
        }
        out.values().removeIf(java.util.Objects::isNull);
        return out;
    }

    public String text(String name) {
        return fields.get(name) instanceof String s ? s : null;
    }

}
