package dev.engram.mcp.server;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
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
            private final LineSplitter lines = new LineSplitter((line, length) -> seen(line, length, true));

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
        LineSplitter lines = new LineSplitter((line, length) -> seen(line, length, false));
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

    private void seen(byte[] line, int length, boolean incoming) {
        Boolean isRequest = requestOrResponse(line, length);
        if (isRequest == null) return;
        synchronized (this) {
            if (incoming && isRequest) requests++;
            if (!incoming && !isRequest) responses++;
            notifyAll();
        }
    }

    /**
     * TRUE for a request (method and id), FALSE for a response (id, then result or error), null for
     * anything else. Reads only top-level names, from the bytes as written, and stops at the result of
     * a response whose id came first (the SDK writes it so): a recall answer is 7 KB, and decoding and
     * tokenising all of it again cost as much as writing it.
     */
    static Boolean requestOrResponse(byte[] line, int length) {
        boolean method = false;
        boolean id = false;
        try (JsonParser p = JSON.createParser(ObjectReadContext.empty(), line, 0, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            for (JsonToken t = p.nextToken(); t == JsonToken.PROPERTY_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("method")) method = true;
                if (name.equals("id")) id = value != JsonToken.VALUE_NULL;
                if (id && !method && (name.equals("result") || name.equals("error"))) return Boolean.FALSE;
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

    /** Collects bytes into lines and hands each complete line's bytes (without the newline) to a consumer. */
    private static final class LineSplitter {
        interface LineConsumer {
            void accept(byte[] line, int length);
        }

        private static final int MAX_KEPT_BUFFER = 1 << 20;
        private final LineConsumer consumer;
        private byte[] current = new byte[8192];
        private int size;

        LineSplitter(LineConsumer consumer) {
            this.consumer = consumer;
        }

        synchronized void accept(byte[] buf, int off, int len) {
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (buf[i] != '\n') continue;
                append(buf, start, i - start);
                if (size > 0) consumer.accept(current, size);
                size = 0;
                if (current.length > MAX_KEPT_BUFFER) current = new byte[8192]; // one huge message must not pin its buffer
                start = i + 1;
            }
            append(buf, start, off + len - start);
        }

        private void append(byte[] buf, int off, int len) {
            if (size + len > current.length) current = Arrays.copyOf(current, Math.max(2 * current.length, size + len));
            System.arraycopy(buf, off, current, size, len);
            size += len;
        }
    }
}
