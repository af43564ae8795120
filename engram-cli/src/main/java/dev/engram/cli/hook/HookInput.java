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
            return new HookInput(json.apply(text.strip()));
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

    public String text(String name) {
        return fields.get(name) instanceof String s ? s : null;
    }

}
