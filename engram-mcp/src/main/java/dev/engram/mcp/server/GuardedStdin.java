package dev.engram.mcp.server;

import dev.engram.mcp.jsonrpc.BoundedLines;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.jsonrpc.MessageCheck;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stands between stdin and the SDK's stdio transport, which stops serving for good on the first line
 * it cannot parse. Reads newline-delimited messages of bounded length and lets through only the
 * lines {@link MessageCheck} passes; every other line is answered on the spot through
 * {@link Replies} (a parse error or invalid request, with {@code id: null} where no usable id exists)
 * and reading goes on. Blank lines are skipped. Runs on the transport's reader thread: no thread and
 * no pipe of its own.
 */
final class GuardedStdin extends InputStream {
    private static final Logger log = LoggerFactory.getLogger(GuardedStdin.class);

    /** Writes one answer line (without its newline) so it never interleaves with the SDK's own. */
    interface Replies {
        void write(byte[] line) throws IOException;
    }

    private final BoundedLines lines;
    private final Replies replies;
    private final InFlightRequests inFlight;
    private final Runnable onEnd;
    private boolean ended;
    // the passed line being served to the SDK: lines.buffer() up to readyEnd, newline included
    private int readyPos;
    private int readyEnd;
    private boolean initialized; // the reader thread's own: set once notifications/initialized passed

    GuardedStdin(InputStream raw, Replies replies, InFlightRequests inFlight, int maxLineBytes) {
        this(raw, replies, inFlight, maxLineBytes, () -> { });
    }

    /** As above; {@code onEnd} runs once, on the reader thread, when stdin has ended and every request is answered. */
    GuardedStdin(InputStream raw, Replies replies, InFlightRequests inFlight, int maxLineBytes, Runnable onEnd) {
        this.lines = new BoundedLines(raw, maxLineBytes);
        this.replies = replies;
        this.inFlight = inFlight;
        this.onEnd = onEnd;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
        if (len == 0) return 0;
        while (readyPos == readyEnd) {
            if (ended) return -1;
            if (!nextPassedLine()) {
                // the SDK shuts down at EOF: it sees the end only once what it was given is answered
                ended = true;
                inFlight.awaitAnswers();
                onEnd.run();
                return -1;
            }
        }
        int n = Math.min(len, readyEnd - readyPos);
        System.arraycopy(lines.buffer(), readyPos, buf, off, n);
        readyPos += n;
        return n;
    }

    @Override
    public int available() {
        return readyEnd - readyPos;
    }

    @Override
    public void close() throws IOException {
        lines.close();
    }

    /** Reads lines until one passes (true, ready to serve) or stdin ends (false). */
    private boolean nextPassedLine() throws IOException {
        while (lines.next()) {
            if (lines.tooLong()) {
                answer(JsonRpcErrors.body(JsonRpcErrors.INVALID_REQUEST, "Invalid request: the message is "
                        + lines.length() + " bytes long; the limit is " + lines.maxLineBytes() + " bytes per line"));
                continue;
            }
            byte[] line = lines.buffer();
            int len = lines.kept();
            int start = MessageCheck.bomLength(line, 0, len);
            MessageCheck.Verdict verdict = MessageCheck.check(line, start, len - start);
            if (verdict instanceof MessageCheck.Pass pass && beforeInitialization(pass)) continue;
            if (verdict instanceof MessageCheck.Pass pass) {
                if (pass.isRequest()) inFlight.requestForwarded();
                // inside valid JSON a CR can only be whitespace, and the SDK would end the line at it
                for (int i = start; i < len; i++) {
                    if (line[i] == '\r') line[i] = ' ';
                }
                lines.reserve(1);
                lines.buffer()[len] = '\n';
                readyPos = start;
                readyEnd = len + 1;
                return true;
            }
            if (verdict instanceof MessageCheck.Reject r) {
                if (r.answer()) {
                    answer(r.body());
                } else {
                    log.debug("dropped a notification: {}", r.message());
                }
            }
        }
        return false;
    }

    /**
     * Until the client's {@code notifications/initialized}, the SDK holds every request but
     * {@code initialize} without an answer, for good if the notification never comes: a ping sent
     * first (MCP allows pings at any time) went unanswered, and so did a {@code tools/list} sent
     * without the handshake. Before that point the guard answers pings itself and refuses other
     * requests with what to send; true when it answered the message.
     */
    private boolean beforeInitialization(MessageCheck.Pass pass) throws IOException {
        if (initialized) return false;
        if ("notifications/initialized".equals(pass.method())) {
            initialized = true;
            return false;
        }
        if (!pass.isRequest() || pass.method().equals("initialize")) return false;
        if (pass.method().equals("ping")) {
            answer(JsonRpcErrors.result(pass.id(), "{}"));
        } else {
            answer(JsonRpcErrors.body(pass.id(), JsonRpcErrors.INVALID_REQUEST, "Invalid request: '"
                    + pass.method() + "' before the session is initialized; send initialize, then the"
                    + " notifications/initialized notification, then your requests"));
        }
        return true;
    }

    private void answer(String body) throws IOException {
        log.debug("refused a message: {}", body);
        replies.write(body.getBytes(StandardCharsets.UTF_8));
    }
}
