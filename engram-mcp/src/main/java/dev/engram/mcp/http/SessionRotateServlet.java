package dev.engram.mcp.http;

import dev.engram.engine.session.SessionRotation;
import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.ToolAdapter;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import io.modelcontextprotocol.spec.HttpHeaders;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Memento's {@code POST /session/rotate} ({@code engram serve --profile memento}): gives the session named by the
 * {@code Mcp-Session-Id} header a new id and retires the presented one, for a client that rotates from outside a tool
 * call (Memento's {@code memento-mcp session rotate}). The same rotation as the {@code session_rotate} tool: one
 * {@link SessionRotation} ledger, which the MCP endpoint's {@link SessionRotationFilter} applies to every later request.
 * <p>Behind the same filters as {@code /mcp}: the bearer token (401), the rate limit (429), the shutdown gate (503),
 * and here the same Host/Origin check the SDK applies to {@code /mcp} (403). Request: an optional JSON object
 * {@code {"reason": "…"}} (one line, at most 256 characters; default {@code user_request}). Answer 200
 * {@code {oldSessionId, newSessionId, expiresAt, reason}}, as Memento answers, with the new id also in the
 * {@code Mcp-Session-Id} header; {@code expiresAt} is null, Engram's sessions do not expire by time. Errors are
 * Memento's {@code {error, error_description}}: 400 {@code bad_request} (no session header, a body that is no JSON
 * object, a bad reason), 404 {@code not_found} (a retired id, or no open session with it), 405, 413, 503
 * {@code unavailable} (the ledger is full).
 */
final class SessionRotateServlet extends HttpServlet {
    static final String PATH = "/session/rotate";
    /** The largest body read: a reason of 256 characters, escaped, fits many times over. */
    static final int MAX_BODY_BYTES = 4096;
    private static final Logger log = LoggerFactory.getLogger(SessionRotateServlet.class);

    private final SessionRotation ledger;
    private final ServerTransportSecurityValidator security;
    private final JsonText json;

    SessionRotateServlet(SessionRotation ledger, ServerTransportSecurityValidator security, JsonText json) {
        this.ledger = ledger;
        this.security = security;
        this.json = json;
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws IOException {
        if (!"POST".equals(req.getMethod())) {
            res.setHeader("Allow", "POST");
            error(res, 405, "method_not_allowed", req.getMethod() + " is not supported here: POST " + PATH
                    + " with the Mcp-Session-Id header rotates that session");
            return;
        }
        try {
            rotate(req, res);
        } catch (RuntimeException e) {
            String ref = ToolAdapter.newRef();
            log.error("POST {} failed, ref={}", PATH, ref, e);
            if (!res.isCommitted()) {
                res.reset();
                error(res, 500, "server_error", "failed to rotate the session (ref " + ref + ")");
            }
        }
    }

    private void rotate(HttpServletRequest req, HttpServletResponse res) throws IOException {
        try {
            security.validateHeaders(headers(req));
        } catch (ServerTransportSecurityException e) {
            error(res, e.getStatusCode() == 400 ? 400 : 403, e.getStatusCode() == 400 ? "bad_request" : "forbidden",
                    e.getMessage() == null ? "Host or Origin not allowed" : e.getMessage());
            return;
        }
        String presented = req.getHeader(HttpHeaders.MCP_SESSION_ID);
        if (presented == null || presented.isBlank()) {
            error(res, 400, "bad_request", "the Mcp-Session-Id header is required: the id of the session to rotate (the "
                    + "one its initialize answered with, or its latest rotated id)");
            return;
        }
        long declared = req.getContentLengthLong();
        byte[] body = declared > MAX_BODY_BYTES ? null : readBounded(req.getInputStream());
        if (body == null) {
            error(res, 413, "payload_too_large", "the body is larger than " + MAX_BODY_BYTES + " bytes; send {\"reason\": \"...\"} "
                    + "or nothing");
            return;
        }
        String reason;
        try {
            reason = reason(new String(body, StandardCharsets.UTF_8));
        } catch (InvalidArgumentException e) {
            error(res, 400, "bad_request", e.getMessage());
            return;
        }
        SessionRotation.Rotated r;
        try {
            r = ledger.rotatePresented(presented.strip(), reason);
        } catch (SessionRotation.UnknownSession e) {
            error(res, 404, "not_found", e.getMessage());
            return;
        } catch (InvalidArgumentException e) {
            error(res, 400, "bad_request", e.getMessage());
            return;
        } catch (EngramUserException e) {
            error(res, 503, "unavailable", e.getMessage()); // the ledger is full
            return;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("oldSessionId", r.previousId());
        answer.put("newSessionId", r.newId());
        answer.put("expiresAt", null); // Engram's HTTP sessions end when deleted or when the server stops, not by time
        answer.put("reason", r.reason());
        res.setHeader(HttpHeaders.MCP_SESSION_ID, r.newId());
        res.setHeader("Cache-Control", "no-store");
        write(res, 200, answer);
    }

    /** The body's reason: none for an empty body; otherwise the body must be a JSON object whose reason, if any, is a string. */
    private String reason(String text) {
        if (text.isBlank()) return null;
        Map<String, Object> body;
        try {
            body = json.readObject(text);
        } catch (IllegalArgumentException e) {
            throw new InvalidArgumentException("body", "is not a JSON object; send {\"reason\": \"suspected_leak\"} or nothing");
        }
        if (body == null) throw new InvalidArgumentException("body", "is not a JSON object; send {\"reason\": \"suspected_leak\"} or nothing");
        Object reason = body.get("reason");
        if (reason != null && !(reason instanceof String)) {
            throw new InvalidArgumentException("reason", "must be a string, e.g. \"suspected_leak\"");
        }
        return SessionRotation.reason((String) reason);
    }

    /** The request's Host and Origin for the SDK's validator (the names it looks up, whatever case the client sent). */
    private static Map<String, List<String>> headers(HttpServletRequest req) {
        Map<String, List<String>> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : List.of("Host", "Origin")) {
            List<String> values = Collections.list(req.getHeaders(name));
            if (!values.isEmpty()) out.put(name, values);
        }
        return out;
    }

    /** At most {@link #MAX_BODY_BYTES}, or null when there is more. */
    private static byte[] readBounded(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    private void error(HttpServletResponse res, int status, String error, String description) throws IOException {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error", error);
        body.put("error_description", description);
        write(res, status, body);
    }

    private void write(HttpServletResponse res, int status, Map<String, Object> body) throws IOException {
        byte[] bytes = json.write(body).getBytes(StandardCharsets.UTF_8);
        res.setStatus(status);
        res.setContentType("application/json");
        res.setContentLength(bytes.length);
        res.getOutputStream().write(bytes);
    }
}
