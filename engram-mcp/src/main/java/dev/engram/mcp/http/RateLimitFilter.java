package dev.engram.mcp.http;

import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Requests per second per caller ({@link RateLimiter}), after the bearer filter: a caller is its principal's
 * name, or its remote address when the server runs without auth. Over the limit the request gets 429 with
 * {@code Retry-After} (whole seconds, at least 1) and a JSON-RPC error saying so, before its body is read;
 * counted in {@code /metrics}. {@code /health} is never limited: load balancers poll it without a token.
 */
final class RateLimitFilter implements Filter {
    /** JSON-RPC code of a refused request (the implementation-defined server error range). */
    static final int RATE_LIMITED = -32029;

    private final CallerLimiter limiter;
    private final ServerLimits limits;
    private final HttpCounters counters;

    RateLimitFilter(CallerLimiter limiter, ServerLimits limits, HttpCounters counters) {
        this.limiter = limiter;
        this.limits = limits;
        this.counters = counters;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        if (HealthServlet.PATH.equals(http.getRequestURI())) {
            chain.doFilter(req, res);
            return;
        }
        boolean byAddress = !(req.getAttribute(HttpCaller.ATTRIBUTE) instanceof HttpCaller);
        String key = byAddress ? "address " + req.getRemoteAddr() : "principal " + ((HttpCaller) req.getAttribute(HttpCaller.ATTRIBUTE)).name();
        long wait = limiter.acquire(key);
        if (wait == 0) {
            chain.doFilter(req, res);
            return;
        }
        counters.rateLimited();
        long seconds = RateLimiter.retryAfterSeconds(wait);
        byte[] body = JsonRpcErrors.body(RATE_LIMITED, "rate limited: " + (byAddress ? "this address" : "this token")
                + " sent more than " + rate() + " requests per second (bursts up to " + limits.burst()
                + "); retry after " + seconds + " s").getBytes(StandardCharsets.UTF_8);
        HttpServletResponse out = (HttpServletResponse) res;
        out.setStatus(429);
        out.setHeader("Retry-After", Long.toString(seconds));
        out.setContentType("application/json");
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }

    private String rate() {
        return java.math.BigDecimal.valueOf(limits.ratePerSecond()).stripTrailingZeros().toPlainString();
    }
}
