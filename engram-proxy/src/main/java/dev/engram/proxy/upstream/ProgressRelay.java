package dev.engram.proxy.upstream;

import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Passes an upstream's progress notifications back to the agent. The agent's progress token travels
 * up with the call; while the call runs, notifications carrying that token go to the agent's
 * session. Tokens are keyed by their text, since JSON numbers may come back as another Java type.
 * Thread-safe.
 */
public final class ProgressRelay implements Consumer<ProgressNotification> {
    private final Map<String, Consumer<ProgressNotification>> sinks = new ConcurrentHashMap<>();

    /** Routes {@code token}'s notifications to {@code sink} until the returned handle is closed. */
    public Registration register(Object token, Consumer<ProgressNotification> sink) {
        String key = String.valueOf(token);
        sinks.put(key, sink);
        return () -> sinks.remove(key, sink);
    }

    @Override
    public void accept(ProgressNotification notification) {
        Consumer<ProgressNotification> sink = sinks.get(String.valueOf(notification.progressToken()));
        if (sink == null) return; // the call already ended: a late notification has no one to go to
        try {
            sink.accept(notification);
        } catch (RuntimeException e) {
            // progress is best effort: a closed agent session must not fail the upstream's reader thread
        }
    }

    /** Ends one routing. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
