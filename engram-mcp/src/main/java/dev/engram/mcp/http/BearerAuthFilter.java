package dev.engram.mcp.http;

import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.server.CallerRights;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Lets a request through only with {@code Authorization: Bearer <token>} naming a known principal
 * ({@link Authenticator}); otherwise answers 401 with {@code WWW-Authenticate: Bearer} and a JSON-RPC
 * error body. The principal's {@link dev.engram.access.Grants} go on the request ({@link CallerRights#KEY}), whence the
 * transport context carries them to the call; the caller's name goes beside them ({@link HttpCaller}), for
 * rate limits and request logs. {@code /health} passes without a token (it then says
 * only ok or degraded). A servlet filter rather than the SDK's header validator, because that one
 * replaces the DNS-rebinding validator and cannot set the challenge header (SDK reference §4.3).
 * Tokens are never logged.
 */
public final class BearerAuthFilter implements Filter {
    private static final String SCHEME = "bearer ";
    /** The JSON-RPC error of a 503 while the store that holds the principals does not answer. */
    static final int STORE_UNREACHABLE = -32031;

    private final Authenticator authenticator;

    public BearerAuthFilter(TokenSet tokens) {
        this(new Authenticator(tokens, null));
    }

    public BearerAuthFilter(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        String header = http.getHeader("Authorization");
        String presented = header != null && header.length() > SCHEME.length()
                && header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                ? header.substring(SCHEME.length()).strip() : null;
        Optional<HttpCaller> caller;
        try {
            caller = authenticator.caller(presented);
        } catch (dev.engram.error.StoreUnavailableException e) {
            // the store holds the principals and has not answered since the server started: /health says degraded on
            // its own; anything else gets a 503 the client can retry, never an internal error
            if (HealthServlet.PATH.equals(http.getRequestURI())) {
                chain.doFilter(req, res);
                return;
            }
            refuse((HttpServletResponse) res, 503, "Retry-After", "5", STORE_UNREACHABLE, "the store is unreachable, so the"
                    + " token cannot be checked; retry in a few seconds (the server reconnects on its own)");
            return;
        }
        if (caller.isPresent()) {
            req.setAttribute(CallerRights.KEY, caller.get().grants());
            req.setAttribute(HttpCaller.ATTRIBUTE, caller.get());
        } else if (!HealthServlet.PATH.equals(http.getRequestURI()) || header != null) {
            refuse((HttpServletResponse) res, 401, "WWW-Authenticate", "Bearer realm=\"engram\"", -32001, header == null
                    ? "unauthorized: send the header 'Authorization: Bearer <token>'"
                    : "unauthorized: the bearer token is not valid");
            return;
        }
        chain.doFilter(req, res);
    }

    /** Answers the request here: {@code status}, one header, and a JSON-RPC error body with {@code code} and {@code message}. */
    private static void refuse(HttpServletResponse out, int status, String header, String value, int code, String message)
            throws IOException {
        out.setStatus(status);
        out.setHeader(header, value);
        out.setContentType("application/json");
        byte[] body = JsonRpcErrors.body(code, message).getBytes(StandardCharsets.UTF_8);
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }
}
