package dev.engram.mcp.server;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Keeps stdin's end-of-file back until every request read so far has been answered. The SDK's stdio
 * transport shuts down on EOF and drops responses still in flight (SDK gotcha 4), which loses the
 * answers of a script that pipes its requests and closes stdin. Counting is per line: a line with
 * {@code method} and {@code id} is a request, a written line with {@code id} and no {@code method}
 * is a response. The wait is bounded, so a request that never gets an answer cannot hold the
 * process forever.
 */
final class InFlightRequests {
    private static final JsonFactory JSON = new JsonFactory();

    private final Duration maxWait;
    // guarded by this; requests read and responses written since start
    private long requests;
    private long responses;

    InFlightRequests(Duration maxWait) {
        this.maxWait = maxWait;
    }

    InputStream track(InputStream in) {
        return new FilterInputStream(in) {
            private final LineSplitter lines = new LineSplitter(line -> seen(line, true));

            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b < 0) {
                    awaitAnswers();
                } else {
                    lines.accept(new byte[] {(byte) b}, 0, 1);
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                int n = super.read(buf, off, len);
                if (n < 0) {
                    awaitAnswers();
                } else {
                    lines.accept(buf, off, n);
                }
                return n;
            }
        };
    }

    OutputStream track(OutputStream out) {
        LineSplitter lines = new LineSplitter(line -> seen(line, false));
        return new FilterOutputStream(out) {
            @Override
            public void write(int b) throws IOException {
                out.write(b);
                lines.accept(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] buf, int off, int len) throws IOException {
                out.write(buf, off, len);
                lines.accept(buf, off, len);
            }
        };
    }

    private void seen(String line, boolean incoming) {
        Boolean isRequest = requestOrResponse(line);
        if (isRequest == null) return;
        synchronized (this) {
            if (incoming && isRequest) requests++;
            if (!incoming && !isRequest) responses++;
            notifyAll();
        }
    }

    /**
     * TRUE for a request (method and id), FALSE for a response (id, no method), null for anything
     * else. Reads only the top-level names and skips every value: each recall answer passes through
     * here, and building it into a map again cost as much as writing it.
     */
    static Boolean requestOrResponse(String line) {
        boolean method = false;
        boolean id = false;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("method")) method = true;
                if (name.equals("id")) id = value != JsonToken.VALUE_NULL;
                p.skipChildren();
            }
        } catch (JacksonException e) {
            return null; // not JSON: the transport reports it; nothing to count
        }
        return id ? method : null;
    }

    private synchronized void awaitAnswers() {
        long deadline = System.nanoTime() + maxWait.toNanos();
        try {
            while (responses < requests) {
                long leftMs = (deadline - System.nanoTime()) / 1_000_000;
                if (leftMs <= 0) return;
                wait(leftMs);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Collects bytes into lines and hands each complete line, decoded as UTF-8, to a consumer. */
    private static final class LineSplitter {
        private final java.util.function.Consumer<String> consumer;
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();

        LineSplitter(java.util.function.Consumer<String> consumer) {
            this.consumer = consumer;
        }

        synchronized void accept(byte[] buf, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (buf[i] == '\n') {
                    String line = current.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
                    current.reset();
                    if (!line.isEmpty()) consumer.accept(line);
                } else {
                    current.write(buf[i]);
                }
            }
        }
    }
}
