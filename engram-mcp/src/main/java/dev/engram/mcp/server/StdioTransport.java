package dev.engram.mcp.server;

import dev.engram.mcp.jsonrpc.BoundedLines;
import dev.engram.mcp.jsonrpc.ErrorMessages;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.jsonrpc.MessageCheck;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over stdin and stdout for the one session of a stdio process, in place of the SDK's stdio
 * transport. One reader thread reads a line, checks it, hands it to the session, and a tool that runs
 * on that thread (the server's {@code immediateExecution}) has its answer written on the same thread;
 * an answer completed elsewhere is written where it completes, one whole line at a time under the
 * output's lock. The SDK's transport handed every answer to a writer thread of its own, and waking it
 * was a measurable part of a 1.5 ms recall on two busy cores (docs/benchmarks.md). As with the
 * TypeScript SDK's servers, whose stdout writes block on a full pipe, the client must read while it
 * writes: one that sends a long batch without reading any answer stalls the reader. Owning the
 * transport also settles three of its habits where they arise instead of around it:
 * <ul>
 *   <li>it stopped serving for good on the first line it could not parse: here every line passes
 *   {@link MessageCheck} first, and a bad one is answered on the spot (a parse error or invalid
 *   request, {@code id: null} where no usable id exists) while reading goes on;</li>
 *   <li>it dropped answers still in flight when stdin ended (SDK gotcha 4): here the end is acted on
 *   once every request read has been answered (bounded by {@code maxDrain});</li>
 *   <li>an error answer could carry Jackson's text naming Java classes (params of a nested wrong
 *   shape): it is sent as {@link ErrorMessages#PLAIN} with the same id and code.</li>
 * </ul>
 * Until the client's {@code notifications/initialized} the SDK holds every request but
 * {@code initialize} without an answer, for good if the notification never comes; before that point
 * the transport answers pings itself and refuses other requests with what to send.
 */
final class StdioTransport implements McpServerTransportProvider {
    private static final Logger log = LoggerFactory.getLogger(StdioTransport.class);

    private final McpJsonMapper mapper;
    private final BoundedLines lines;
    private final OutputStream out;
    private final Duration maxDrain;
    private final Runnable onEnd;
    private final StdioInterceptor interceptor;
    private volatile McpServerSession session;
    private volatile boolean closing;
    private boolean initialized; // the reader thread's own
    // guarded by this: requests handed to the session, and responses written
    private long requests;
    private long responses;

    /**
     * {@code onEnd} runs once, on the reader thread, when stdin has ended and every request read before the
     * end has been answered (or {@code maxDrain} has passed): the moment an agent has finished with the server.
     */
    StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLineBytes, Duration maxDrain,
                   Runnable onEnd) {
        this(mapper, in, out, maxLineBytes, maxDrain, onEnd, StdioInterceptor.NONE);
    }

    /** As above; {@code interceptor} sees every message the client sends and every notification sent to it. */
    StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLineBytes, Duration maxDrain,
                   Runnable onEnd, StdioInterceptor interceptor) {
        this.interceptor = interceptor;
        this.mapper = mapper;
        this.lines = new BoundedLines(in, maxLineBytes);
        this.out = out;
        this.maxDrain = maxDrain;
        this.onEnd = onEnd;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory factory) {
        session = factory.create(new SessionTransport());
        Thread reader = new Thread(this::serve, "stdio-reader");
        // not a daemon: the reader keeps the process alive until the agent closes stdin
        reader.start();
    }

    private void serve() {
        try {
            boolean ended = false;
            while (!closing) {
                if (!lines.next()) {
                    ended = true;
                    break;
                }
                if (lines.tooLong()) {
                    refuse(JsonRpcErrors.body(JsonRpcErrors.INVALID_REQUEST, "Invalid request: the message is "
                            + lines.length() + " bytes long; the limit is " + lines.maxLineBytes() + " bytes per line"));
                    continue;
                }
                byte[] line = lines.buffer();
                int start = MessageCheck.bomLength(line, 0, lines.kept());
                int len = lines.kept() - start;
                MessageCheck.Verdict verdict = MessageCheck.check(line, start, len);
                if (verdict instanceof MessageCheck.Pass pass && !answeredBeforeInitialization(pass)) {
                    hand(pass, new String(line, start, len, StandardCharsets.UTF_8));
                } else if (verdict instanceof MessageCheck.Reject r) {
                    if (r.answer()) {
                        refuse(r.body());
                    } else {
                        log.debug("dropped a notification: {}", r.message());
                    }
                }
            }
            if (ended) {
                awaitAnswers();
                onEnd.run();
            }
        } catch (IOException e) {
            if (!closing) log.error("reading stdin failed", e);
        } finally {
            closing = true;
            session.close();
        }
    }

    private void hand(MessageCheck.Pass pass, String text) {
        JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, text);
        } catch (IOException | RuntimeException e) {
            // the check passed it as JSON-RPC, so this is the SDK disagreeing about a shape: say so and go on
            log.warn("the SDK could not read a message: {}", e.getMessage());
            if (pass.isRequest()) refuse(JsonRpcErrors.body(pass.id(), JsonRpcErrors.INVALID_REQUEST, ErrorMessages.PLAIN));
            return;
        }
        message = interceptor.inbound(message, this::reply);
        if (message == null) return; // taken (and, for a request, answered) by the interceptor
        if (pass.isRequest()) {
            synchronized (this) {
                requests++;
            }
        }
        // a handler that runs here writes its answer here; one that waits on something finishes elsewhere
        session.handle(message).subscribe(null, e -> log.error("handling a message failed", e));
    }

    /** True when the message came before the session's initialization and was answered here. */
    private boolean answeredBeforeInitialization(MessageCheck.Pass pass) {
        if (initialized) return false;
        if ("notifications/initialized".equals(pass.method())) {
            initialized = true;
            return false;
        }
        if (!pass.isRequest() || pass.method().equals("initialize")) return false;
        if (pass.method().equals("ping")) {
            refuse(JsonRpcErrors.result(pass.id(), "{}"));
        } else {
            refuse(JsonRpcErrors.body(pass.id(), JsonRpcErrors.INVALID_REQUEST, "Invalid request: '"
                    + pass.method() + "' before the session is initialized; send initialize, then the"
                    + " notifications/initialized notification, then your requests"));
        }
        return true;
    }

    /** The interceptor's own answer to a request the session never saw. */
    private void reply(JSONRPCMessage answer) {
        try {
            writeLine(mapper.writeValueAsBytes(ErrorMessages.plain(answer)));
        } catch (IOException e) {
            throw new UncheckedIOException("writing an answer failed", e);
        }
    }

    /** Answers a line the session never saw; written on the reader thread, so in order with what it reads. */
    private void refuse(String body) {
        log.debug("answered a message itself: {}", body);
        writeLine(body.getBytes(StandardCharsets.UTF_8));
    }

    private void writeLine(byte[] json) {
        byte[] line = Arrays.copyOf(json, json.length + 1);
        // a newline ends the message: JSON escapes line breaks inside strings, and any outside are whitespace
        for (int i = 0; i < json.length; i++) {
            if (line[i] == '\n' || line[i] == '\r') line[i] = ' ';
        }
        line[json.length] = '\n';
        try {
            synchronized (out) {
                out.write(line); // one write: stdout is unbuffered, so two writes were two system calls
                out.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to stdout failed", e);
        }
    }

    /** Holds the end of input back until every request handed on is answered, or the wait ran out. */
    private synchronized void awaitAnswers() {
        long deadline = System.nanoTime() + maxDrain.toNanos();
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

    private synchronized void answered() {
        responses++;
        notifyAll();
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        if (!interceptor.sends(method)) return Mono.empty();
        McpServerSession s = session;
        return s == null ? Mono.error(new IllegalStateException("no session to notify")) : s.sendNotification(method, params);
    }

    /** A notification to one session (a resource update to its subscriber): over stdio, the one session there is. */
    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        if (!interceptor.sends(method)) return Mono.empty();
        McpServerSession s = session;
        if (s == null) return Mono.error(new IllegalStateException("no session to notify"));
        if (!s.getId().equals(sessionId)) {
            return Mono.error(new IllegalStateException("no session " + sessionId + " on stdio; its one session is " + s.getId()));
        }
        return s.sendNotification(method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        McpServerSession s = session;
        return s == null ? Mono.empty() : s.closeGracefully();
    }

    private final class SessionTransport implements McpServerTransport {
        @Override
        public Mono<Void> sendMessage(JSONRPCMessage message) {
            return Mono.fromRunnable(() -> {
                try {
                    writeLine(mapper.writeValueAsBytes(ErrorMessages.plain(message)));
                } catch (IOException e) {
                    throw new UncheckedIOException("writing an answer failed", e);
                } finally {
                    // counted even when the write failed: the end of input must not wait for it
                    if (message instanceof JSONRPCResponse r && r.id() != null) answered();
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
            return mapper.convertValue(data, type);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> closing = true);
        }

        @Override
        public void close() {
            closing = true;
        }
    }
}
