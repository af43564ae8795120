package dev.engram.proxy.upstream;

import dev.engram.analysis.TextCut;
import dev.engram.mcp.jsonrpc.BoundedLines;
import dev.engram.mcp.jsonrpc.MessageCheck;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The client end of a stdio upstream. Replaces the SDK's {@code StdioClientTransport}, whose reader
 * stops for good on the first stdout line it cannot parse: an upstream that prints one log line to
 * stdout, or one response over the SDK's size limit, then looks dead and every call waits for its
 * timeout. Here a line that is not a JSON-RPC message is logged and skipped, and a response too long
 * to take becomes an error answer to the request it belongs to (its id is read from the line's
 * start), which says how large it was.
 */
final class GuardedStdioClientTransport implements McpClientTransport {
    private static final Logger log = LoggerFactory.getLogger(GuardedStdioClientTransport.class);
    /** Largest upstream message taken; the SDK's own default. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;
    /** The JSON-RPC error code of the answer that stands in for a response too large to take. */
    static final int TOO_LARGE_CODE = -32099;
    /** The code of the answers that stand in for requests still pending when the upstream's output ended. */
    static final int OUTPUT_ENDED_CODE = -32098;
    private static final String ID_VALUE = "(\"(?:[^\"\\\\]|\\\\.){0,200}\"|-?\\d{1,18})";
    /** The top-level id where writers put it: first, or after jsonrpc (Java SDK), or last (TypeScript SDK). */
    private static final Pattern HEAD_ID = Pattern.compile("^\\{\\s*(?:\"jsonrpc\"\\s*:\\s*\"2\\.0\"\\s*,\\s*)?\"id\"\\s*:\\s*" + ID_VALUE);
    private static final Pattern TAIL_ID = Pattern.compile("\"id\"\\s*:\\s*" + ID_VALUE + "\\s*}\\s*$");

    private final String name;
    private final List<String> command;
    private final McpJsonMapper mapper;
    private final Consumer<String> stderr;
    private final int maxLineBytes;
    // writes run on one thread of their own, in order: an answer the session sends from the reader
    // thread (to an upstream's ping, say) must not block reading while the upstream blocks writing
    private final Scheduler writer;
    private volatile Process process;
    private volatile boolean closing;
    private volatile boolean outputEnded;
    // ids of requests sent and not yet answered: failed at once when the upstream's output ends
    private final Set<Object> pending = ConcurrentHashMap.newKeySet();
    private boolean warnedJunk; // reader thread only: the first stray line is a warning, the rest debug lines

    GuardedStdioClientTransport(String name, List<String> command, McpJsonMapper mapper, Consumer<String> stderr,
                                int maxLineBytes) {
        this.name = name;
        this.command = List.copyOf(command);
        this.mapper = mapper;
        this.stderr = stderr;
        this.maxLineBytes = maxLineBytes;
        this.writer = Schedulers.newSingle("engram-upstream-" + name + "-stdin", true);
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().clear(); // the command is wrapped in `env -i` with the chosen variables
            try {
                process = pb.start();
            } catch (IOException e) {
                throw new UpstreamException("upstream '" + name + "' could not be started: " + e.getMessage(), e);
            }
            daemon("engram-upstream-" + name + "-stdout", () -> readMessages(handler));
            daemon("engram-upstream-" + name + "-stderr", this::readStderr);
        });
    }

    private void readMessages(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        BoundedLines lines = new BoundedLines(process.getInputStream(), maxLineBytes);
        try {
            while (lines.next()) {
                JSONRPCMessage message = lines.tooLong() ? tooLong(lines) : parse(lines);
                if (message == null) continue;
                if (message instanceof McpSchema.JSONRPCResponse r) pending.remove(r.id());
                try {
                    handler.apply(Mono.just(message)).subscribe();
                } catch (RuntimeException e) {
                    log.warn("upstream {}: a message could not be handled", name, e); // the next one still can
                }
            }
        } catch (IOException e) {
            if (!closing) log.debug("upstream {}: stdout ended: {}", name, e.getMessage());
        }
        // every answer read so far has been handed over: whatever is still pending will never come
        outputEnded = true;
        if (!closing) {
            for (Object id : List.copyOf(pending)) {
                pending.remove(id);
                handler.apply(Mono.just(new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, id, null,
                        new McpSchema.JSONRPCResponse.JSONRPCError(OUTPUT_ENDED_CODE,
                                "the upstream's output ended before it answered (it exited or closed stdout)", null))))
                        .subscribe();
            }
        }
    }

    private JSONRPCMessage parse(BoundedLines lines) {
        MessageCheck.Verdict verdict = MessageCheck.checkFromUpstream(lines.buffer(), 0, lines.kept());
        if (verdict instanceof MessageCheck.Blank) return null;
        String text = new String(lines.buffer(), 0, lines.kept(), StandardCharsets.UTF_8);
        if (verdict instanceof MessageCheck.Reject r) {
            String shown = TextCut.clip(text, 120);
            if (!warnedJunk) {
                log.warn("upstream {} wrote a line to stdout that is not a JSON-RPC message; skipped, and so will be any"
                        + " other (logged at debug): {} ({})", name, shown, r.message());
                warnedJunk = true;
            } else {
                log.debug("upstream {}: skipped a stray line: {}", name, shown);
            }
            return null;
        }
        try {
            return McpSchema.deserializeJsonRpcMessage(mapper, text);
        } catch (IOException | RuntimeException e) {
            log.warn("upstream {} wrote a message the client cannot read, skipped: {}", name, e.getMessage());
            return null;
        }
    }

    /** An error answer for the request whose response was too long, when its id can be read. */
    private JSONRPCMessage tooLong(BoundedLines lines) {
        String what = "its response was too large for the proxy: " + lines.length() + " bytes in one message, the limit is "
                + maxLineBytes + "; the tool did run. Ask it for less (a narrower path, a smaller page or range)";
        Object id = responseId(new String(lines.buffer(), 0, Math.min(lines.kept(), 512), StandardCharsets.UTF_8),
                new String(lines.tail(), StandardCharsets.UTF_8));
        if (id == null) {
            log.warn("upstream {}: skipped a message of {} bytes without a readable id: {}", name, lines.length(), what);
            return null;
        }
        log.warn("upstream {}: {}", name, what);
        return new McpSchema.JSONRPCResponse(McpSchema.JSONRPC_VERSION, id, null,
                new McpSchema.JSONRPCResponse.JSONRPCError(TOO_LARGE_CODE, what, null));
    }

    /**
     * The top-level id of a response from the first and last bytes of its line, where writers put it:
     * first or after {@code jsonrpc} (the Java SDK), or last (the TypeScript SDK); null if neither.
     */
    static Object responseId(String head, String tail) {
        Matcher m = HEAD_ID.matcher(head);
        if (!m.find()) {
            m = TAIL_ID.matcher(tail);
            if (!m.find()) return null;
        }
        String raw = m.group(1);
        if (!raw.startsWith("\"")) return Long.parseLong(raw);
        return raw.substring(1, raw.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
    }

    private void readStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) stderr.accept(line);
        } catch (IOException e) {
            // the process is gone
        }
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            Process p = process;
            if (p == null) throw new UpstreamException("upstream '" + name + "' is not connected");
            if (outputEnded) throw new UpstreamException("upstream '" + name + "' closed its output: it can answer nothing more");
            if (message instanceof McpSchema.JSONRPCRequest r && r.id() != null) pending.add(r.id());
            try {
                byte[] line = mapper.writeValueAsString(message).getBytes(StandardCharsets.UTF_8);
                OutputStream out = p.getOutputStream();
                out.write(line);
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                throw new UpstreamException("upstream '" + name + "' no longer reads its input: " + e.getMessage(), e);
            }
        }).subscribeOn(writer).then();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            closing = true;
            writer.dispose();
            Process p = process;
            if (p == null) return;
            // a well-behaved server exits when its stdin ends; the close runs apart because it waits for
            // a write in progress, which a hung upstream that stopped reading never lets finish
            daemon("engram-upstream-" + name + "-close", () -> {
                try {
                    p.getOutputStream().close();
                } catch (IOException e) {
                    // the process is going or gone
                }
            });
            try {
                if (!p.waitFor(2, TimeUnit.SECONDS)) {
                    p.destroy();
                    if (!p.waitFor(2, TimeUnit.SECONDS)) p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }

    private static void daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
    }
}
