package dev.engram.mcp.http;

import dev.engram.engine.session.SessionRotation;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.tool.TransportSession;
import io.modelcontextprotocol.spec.HttpHeaders;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Applies {@link SessionRotation} to the MCP endpoint's requests, after auth: a retired session id is answered 404
 * (a session that has ended: the client starts a new one, as the MCP spec says), a rotated session's current id is
 * handed to the SDK as the transport's own id, and every request carries a {@link TransportSession} its tool call can
 * rotate. The response to the rotating request announces the new id in {@code Mcp-Session-Id}, set before its first
 * byte is written (the SDK writes a tool's answer after the tool returns), which clients that take the header from
 * any response (the TypeScript SDK does) switch to on their own. When a session is deleted, its ids are forgotten.
 * The ledger also learns which sessions are open (the id an initialize is answered with; a DELETE or the transport's
 * 404 ends it), so {@link SessionRotateServlet} can tell an unknown id from a live one.
 */
final class SessionRotationFilter implements Filter {
    private final SessionRotation ledger;
    private final String path;

    SessionRotationFilter(SessionRotation ledger, String path) {
        this.ledger = ledger;
        this.path = path;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        String presented = http.getHeader(HttpHeaders.MCP_SESSION_ID);
        if (!http.getRequestURI().endsWith(path)) {
            chain.doFilter(req, res); // not the MCP endpoint
            return;
        }
        HttpServletResponse out = (HttpServletResponse) res;
        if (presented == null) {
            // initialize: the id the SDK answers with is an open session (POST /session/rotate may rotate it)
            chain.doFilter(req, new Opening(out, ledger));
            return;
        }
        SessionRotation.Lookup lookup = ledger.lookup(presented);
        if (lookup instanceof SessionRotation.Retired) {
            byte[] body = JsonRpcErrors.body(-32001, "Session not found: it was rotated with session_rotate; send the id the "
                    + "rotation answered, or initialize a new session").getBytes(StandardCharsets.UTF_8);
            out.setStatus(404);
            out.setContentType("application/json");
            out.setContentLength(body.length);
            out.getOutputStream().write(body);
            return;
        }
        String session = lookup instanceof SessionRotation.Current c ? c.sessionId() : presented;
        Slot slot = new Slot(ledger, session, presented);
        req.setAttribute(TransportSession.KEY, slot);
        HttpServletRequest forward = session.equals(presented) ? http : new Routed(http, session);
        Announcing announcing = new Announcing(out, slot);
        chain.doFilter(forward, announcing);
        // deleted, or unknown to the transport (404): either way no open session has these ids any more
        if ("DELETE".equals(http.getMethod()) && out.getStatus() < 300 || out.getStatus() == 404) ledger.ended(session);
    }

    /** The response to a request without a session id: the id the SDK sets on it is recorded as an open session. */
    private static final class Opening extends HttpServletResponseWrapper {
        private final SessionRotation ledger;

        Opening(HttpServletResponse response, SessionRotation ledger) {
            super(response);
            this.ledger = ledger;
        }

        @Override
        public void setHeader(String name, String value) {
            super.setHeader(name, value);
            if (HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name)) ledger.opened(value);
        }

        @Override
        public void addHeader(String name, String value) {
            super.addHeader(name, value);
            if (HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name)) ledger.opened(value);
        }
    }

    /** One request's view of its session: the transport's id, the id the client presented, and the rotation if it made one. */
    static final class Slot implements TransportSession {
        private final SessionRotation ledger;
        private final String session, presented;
        private volatile String rotatedTo;

        Slot(SessionRotation ledger, String session, String presented) {
            this.ledger = ledger;
            this.session = session;
            this.presented = presented;
        }

        @Override
        public String id() {
            return session;
        }

        @Override
        public String currentId() {
            String rotated = rotatedTo;
            return rotated != null ? rotated : ledger.currentId(session);
        }

        @Override
        public SessionRotation.Rotated rotate(String reason) {
            SessionRotation.Rotated r = ledger.rotate(session, presented, reason);
            rotatedTo = r.newId();
            return r;
        }

        String rotatedTo() {
            return rotatedTo;
        }
    }

    /** The request with the transport's id in place of the rotated id the client presented. */
    private static final class Routed extends HttpServletRequestWrapper {
        private final String session;

        Routed(HttpServletRequest request, String session) {
            super(request);
            this.session = session;
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name) ? session : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name) ? Collections.enumeration(java.util.List.of(session))
                    : super.getHeaders(name);
        }
    }

    /** Sets {@code Mcp-Session-Id} to the rotated id, if this request rotated, before the first byte goes out. */
    private static final class Announcing extends HttpServletResponseWrapper {
        private final Slot slot;
        private boolean announced;
        private PrintWriter writer;

        Announcing(HttpServletResponse response, Slot slot) {
            super(response);
            this.slot = slot;
        }

        private synchronized void announce() {
            if (announced) return;
            announced = true;
            String id = slot.rotatedTo();
            if (id != null && !isCommitted()) setHeader(HttpHeaders.MCP_SESSION_ID, id);
        }

        @Override
        public synchronized PrintWriter getWriter() throws IOException {
            if (writer == null) {
                PrintWriter inner = super.getWriter();
                writer = new PrintWriter(new Writer() {
                    @Override
                    public void write(char[] buf, int off, int len) {
                        announce();
                        inner.write(buf, off, len);
                    }

                    @Override
                    public void flush() {
                        announce();
                        inner.flush();
                    }

                    @Override
                    public void close() {
                        announce();
                        inner.close();
                    }
                }) {
                    // the SDK asks the writer whether the client went away; the answer is the container's writer's
                    @Override
                    public boolean checkError() {
                        return super.checkError() || inner.checkError();
                    }
                };
            }
            return writer;
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            announce(); // bytes written straight to the stream: the header goes first
            return super.getOutputStream();
        }

        @Override
        public void flushBuffer() throws IOException {
            announce();
            super.flushBuffer();
        }
    }
}
