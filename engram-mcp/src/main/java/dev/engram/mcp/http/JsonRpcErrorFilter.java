package dev.engram.mcp.http;

import dev.engram.mcp.jsonrpc.ErrorMessages;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.tool.ToolAdapter;
import io.modelcontextprotocol.json.McpJsonMapper;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites every error response (status 400 and up) to a plain JSON-RPC error, because the SDK
 * serializes whole exceptions, stack trace included, into servlet error bodies (SDK gotcha 1,
 * java-sdk issue #955) and containers format {@code sendError} pages their own way. The code and
 * message are kept when the original body has them; everything else is dropped. Successful
 * responses (JSON, SSE streams) pass through untouched.
 */
public final class JsonRpcErrorFilter implements Filter {
    private static final Logger log = LoggerFactory.getLogger(JsonRpcErrorFilter.class);
    private static final int MAX_MESSAGE_CHARS = 300;

    private final McpJsonMapper mapper;
    /** Routes that write their own JSON error bodies (besides /health and /metrics), passed untouched. */
    private final java.util.Set<String> ownBodies;

    public JsonRpcErrorFilter(McpJsonMapper mapper) {
        this(mapper, java.util.Set.of());
    }

    public JsonRpcErrorFilter(McpJsonMapper mapper, java.util.Set<String> ownBodies) {
        this.mapper = mapper;
        this.ownBodies = java.util.Set.copyOf(ownBodies);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletResponse http = (HttpServletResponse) res;
        String uri = ((jakarta.servlet.http.HttpServletRequest) req).getRequestURI();
        if (HealthServlet.PATH.equals(uri) || MetricsServlet.PATH.equals(uri) || ownBodies.contains(uri)) {
            chain.doFilter(req, res); // their own bodies: a degraded /health is a 503 with JSON, not JSON-RPC
            return;
        }
        ErrorCapture capture = new ErrorCapture(http);
        try {
            chain.doFilter(req, capture);
        } catch (IOException | ServletException | RuntimeException e) {
            String ref = ToolAdapter.newRef();
            log.error("HTTP request failed, ref={}", ref, e);
            if (!http.isCommitted()) {
                http.reset();
                write(http, 500, null, -32603, "internal error (ref " + ref + ")");
            }
            return;
        }
        if (capture.captured()) {
            int status = capture.getStatus();
            Map<?, ?> root = rootOf(capture.body());
            Map<?, ?> error = errorOf(root);
            Object code = error.get("code");
            Object message = error.get("message");
            Object id = root.get("id") instanceof String || root.get("id") instanceof Number n && !(n instanceof Double)
                    ? root.get("id") : null;
            write(http, status, id, code instanceof Number n ? n.intValue() : defaultCode(status),
                    message instanceof String s && !s.isBlank() ? clean(s) : capture.message(status));
        }
    }

    private static void write(HttpServletResponse http, int status, Object id, int code, String message) throws IOException {
        byte[] body = JsonRpcErrors.body(id, code, message).getBytes(StandardCharsets.UTF_8);
        http.setStatus(status);
        http.setContentType("application/json");
        http.setContentLength(body.length);
        http.getOutputStream().write(body);
    }

    private Map<?, ?> rootOf(byte[] body) {
        if (body.length == 0) return Map.of();
        try {
            return mapper.readValue(body, Map.class);
        } catch (IOException | RuntimeException e) {
            return Map.of(); // not JSON (e.g. an HTML page): fall back to a message for the status
        }
    }

    /** The {@code error} (JSON-RPC) or {@code jsonRpcError} (serialized McpError) object of a body, if any. */
    private static Map<?, ?> errorOf(Map<?, ?> root) {
        for (String field : new String[] {"error", "jsonRpcError"}) {
            if (root.get(field) instanceof Map<?, ?> m) return m;
        }
        return root.get("message") instanceof String s ? Map.of("message", s) : Map.of();
    }

    private static int defaultCode(int status) {
        return switch (status) {
            case 401, 403 -> -32001;
            case 404 -> -32004;
            case 400, 405, 406, 415, 421 -> -32600;
            default -> status >= 500 ? -32603 : -32000;
        };
    }

    /** One line, bounded: a message never carries a trace or a dump. */
    static String clean(String message) {
        String line = message.lines().findFirst().orElse("").strip();
        if (ErrorMessages.namesJava(line)) return ErrorMessages.PLAIN;
        return line.length() > MAX_MESSAGE_CHARS ? line.substring(0, MAX_MESSAGE_CHARS) + "…" : line;
    }

    /** Buffers whatever is written once the status is an error, and takes over sendError. */
    private static final class ErrorCapture extends HttpServletResponseWrapper {
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        // set when an error body or sendError was seen; read once after the chain returns
        private boolean captured;
        private String sentMessage;
        private PrintWriter writer;
        private ServletOutputStream stream;

        ErrorCapture(HttpServletResponse response) {
            super(response);
        }

        boolean captured() {
            if (writer != null) writer.flush();
            return captured;
        }

        byte[] body() {
            return buffer.toByteArray();
        }

        String message(int status) {
            if (sentMessage != null && !sentMessage.isBlank()) return clean(sentMessage);
            return switch (status) {
                case 404 -> "not found: the MCP endpoint is the configured path (default /mcp)";
                case 405 -> "method not allowed";
                default -> "HTTP " + status;
            };
        }

        @Override
        public void sendError(int sc, String msg) {
            setStatus(sc);
            captured = true;
            sentMessage = msg;
        }

        @Override
        public void sendError(int sc) {
            sendError(sc, null);
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            if (getStatus() < 400 && !captured) return super.getOutputStream();
            captured = true;
            if (stream == null) stream = new BufferStream(buffer);
            return stream;
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            if (getStatus() < 400 && !captured) return super.getWriter();
            captured = true;
            if (writer == null) writer = new PrintWriter(new OutputStreamWriter(buffer, StandardCharsets.UTF_8));
            return writer;
        }

        @Override
        public void flushBuffer() throws IOException {
            if (!captured) super.flushBuffer();
        }

        @Override
        public void setContentLength(int len) {
            if (getStatus() < 400) super.setContentLength(len);
        }
    }

    private static final class BufferStream extends ServletOutputStream {
        private final ByteArrayOutputStream buffer;

        BufferStream(ByteArrayOutputStream buffer) {
            this.buffer = buffer;
        }

        @Override
        public void write(int b) {
            buffer.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            buffer.write(b, off, len);
        }

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            throw new UnsupportedOperationException("error bodies are written synchronously");
        }
    }
}
