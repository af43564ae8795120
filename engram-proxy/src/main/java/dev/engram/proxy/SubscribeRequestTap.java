package dev.engram.proxy;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Watches the agent's stdin for {@code resources/subscribe} and {@code resources/unsubscribe} and
 * reports each one's method and URI, while every byte passes on unchanged to the MCP server. The
 * SDK's server answers these requests itself and records the subscription (it then sends
 * {@code notifications/resources/updated} only for subscribed URIs), but it tells no one that a
 * subscription was made: the proxy must know, to subscribe at the upstream that serves the resource.
 * Only lines up to {@link #MAX_WATCHED_LINE} bytes are looked at (a subscribe request is small); a
 * line that is not JSON is left to the server, which answers it.
 */
public final class SubscribeRequestTap extends FilterInputStream {
    static final int MAX_WATCHED_LINE = 64 * 1024;
    public static final String SUBSCRIBE = "resources/subscribe";
    public static final String UNSUBSCRIBE = "resources/unsubscribe";
    private static final byte[] MARK = "resources/".getBytes(StandardCharsets.UTF_8);
    private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
    };

    private final McpJsonMapper mapper;
    private final BiConsumer<String, String> requests;
    // the reader thread's own
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean overlong;

    /** {@code requests} gets (method, uri) on the reading thread: it must hand the work off, not do it. */
    public SubscribeRequestTap(InputStream in, McpJsonMapper mapper, BiConsumer<String, String> requests) {
        super(in);
        this.mapper = mapper;
        this.requests = requests;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) watch((byte) b);
        return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        for (int i = 0; i < n; i++) watch(buf[off + i]);
        return n;
    }

    private void watch(byte b) {
        if (b == '\n') {
            if (!overlong) inspect(line.toByteArray());
            line.reset();
            overlong = false;
        } else if (!overlong) {
            if (line.size() >= MAX_WATCHED_LINE) {
                overlong = true;
                line.reset();
            } else {
                line.write(b);
            }
        }
    }

    private void inspect(byte[] bytes) {
        if (!contains(bytes, MARK)) return; // most lines are tool calls: not parsed twice
        try {
            Map<String, Object> message = mapper.readValue(new String(bytes, StandardCharsets.UTF_8), MAP);
            Object method = message == null ? null : message.get("method");
            if ((SUBSCRIBE.equals(method) || UNSUBSCRIBE.equals(method)) && message.get("id") != null
                    && message.get("params") instanceof Map<?, ?> params && params.get("uri") instanceof String uri) {
                requests.accept((String) method, uri);
            }
        } catch (IOException | RuntimeException e) {
            // not a message the server will take either; it answers it, the upstream need not know
        }
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }
}
