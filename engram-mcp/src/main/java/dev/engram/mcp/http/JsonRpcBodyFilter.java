package dev.engram.mcp.http;

import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.jsonrpc.MessageCheck;
import dev.engram.mcp.server.CallNote;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads each POSTed body once, bounded ({@code 413} past the limit), and judges it with the same
 * {@link MessageCheck} as stdio before the SDK sees it: over HTTP the SDK answers a {@code tools/call}
 * without params with an empty event stream and other malformed params with Jackson's exception
 * text. A refused message gets a JSON-RPC error: HTTP 200 with the request's id for invalid params
 * (a proper answer the client's pending call receives), 400 for a body that is no usable request,
 * 202 for a notification (which JSON-RPC never answers). Other methods pass untouched. A message that
 * passes has its method and tool noted for the request log ({@link CallNote}).
 */
public final class JsonRpcBodyFilter implements Filter {
    private final int maxBodyBytes;
    /** Routes whose POST body is not JSON-RPC (they read and check it themselves), passed untouched. */
    private final java.util.Set<String> otherBodies;

    public JsonRpcBodyFilter(int maxBodyBytes) {
        this(maxBodyBytes, java.util.Set.of());
    }

    public JsonRpcBodyFilter(int maxBodyBytes, java.util.Set<String> otherBodies) {
        this.maxBodyBytes = maxBodyBytes;
        this.otherBodies = java.util.Set.copyOf(otherBodies);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        HttpServletResponse out = (HttpServletResponse) res;
        if (!"POST".equalsIgnoreCase(http.getMethod()) || otherBodies.contains(http.getRequestURI())) {
            chain.doFilter(req, res);
            return;
        }
        long declared = http.getContentLengthLong();
        if (declared > maxBodyBytes) {
            tooLarge(out, declared + " bytes");
            return;
        }
        byte[] body = readBounded(http.getInputStream());
        if (body == null) {
            tooLarge(out, "more than " + maxBodyBytes + " bytes");
            return;
        }
        int bom = MessageCheck.bomLength(body, 0, body.length);
        if (bom > 0) body = java.util.Arrays.copyOfRange(body, bom, body.length); // the SDK's reader would keep it
        MessageCheck.Verdict verdict = MessageCheck.check(body, 0, body.length);
        if (verdict instanceof MessageCheck.Blank) {
            write(out, 400, JsonRpcErrors.body(JsonRpcErrors.INVALID_REQUEST,
                    "Invalid request: the body is empty; POST one JSON-RPC 2.0 message"));
            return;
        }
        if (verdict instanceof MessageCheck.Reject r) {
            if (!r.answer()) {
                out.setStatus(202); // a notification: accepted, never answered
                return;
            }
            boolean answer = r.code() == JsonRpcErrors.INVALID_PARAMS && r.id() != null;
            write(out, answer ? 200 : 400, r.body());
            return;
        }
        if (verdict instanceof MessageCheck.Pass pass && req.getAttribute(CallNote.KEY) instanceof CallNote note) {
            boolean named = "tools/call".equals(pass.method()) || "prompts/get".equals(pass.method());
            note.request(pass.method(), named ? pass.name() : null);
        }
        chain.doFilter(new CachedBody(http, body), res);
    }

    private void tooLarge(HttpServletResponse out, String size) throws IOException {
        write(out, 413, JsonRpcErrors.body(JsonRpcErrors.INVALID_REQUEST, "Request too large: the body is " + size
                + "; the limit is " + maxBodyBytes + " bytes per request"));
    }

    private static void write(HttpServletResponse out, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.setStatus(status);
        out.setContentType("application/json");
        out.setContentLength(bytes.length);
        out.getOutputStream().write(bytes);
    }

    /** The whole body, or null when it is longer than the limit. */
    private byte[] readBounded(InputStream in) throws IOException {
        byte[] limited = in.readNBytes(maxBodyBytes + 1);
        return limited.length > maxBodyBytes ? null : limited;
    }

    /** The request with its body already read: the SDK reads it again from these bytes. */
    private static final class CachedBody extends HttpServletRequestWrapper {
        private final byte[] body;

        CachedBody(HttpServletRequest request, byte[] body) {
            super(request);
            this.body = body;
        }

        @Override
        public ServletInputStream getInputStream() {
            ByteArrayInputStream in = new ByteArrayInputStream(body);
            return new ServletInputStream() {
                @Override
                public int read() {
                    return in.read();
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    return in.read(b, off, len);
                }

                @Override
                public boolean isFinished() {
                    return in.available() == 0;
                }

                @Override
                public boolean isReady() {
                    return true;
                }

                @Override
                public void setReadListener(ReadListener listener) {
                    throw new UnsupportedOperationException("the body is already in memory");
                }
            };
        }

        @Override
        public BufferedReader getReader() {
            return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
        }

        @Override
        public int getContentLength() {
            return body.length;
        }

        @Override
        public long getContentLengthLong() {
            return body.length;
        }
    }
}
