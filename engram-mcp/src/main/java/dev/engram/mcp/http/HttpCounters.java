package dev.engram.mcp.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The outermost filter: counts HTTP responses by status code, and requests refused by the rate limit, for {@code /metrics}. */
final class HttpCounters implements Filter {
    private final Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
    private final AtomicLong rateLimited = new AtomicLong();

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        try {
            chain.doFilter(req, res);
        } finally {
            // an SSE stream counts when its first response is committed; its status is final by then
            byStatus.computeIfAbsent(((HttpServletResponse) res).getStatus(), k -> new AtomicLong()).incrementAndGet();
        }
    }

    void rateLimited() {
        rateLimited.incrementAndGet();
    }

    void render(StringBuilder out) {
        out.append("# HELP engram_http_responses_total HTTP responses by status code.\n");
        out.append("# TYPE engram_http_responses_total counter\n");
        new TreeMap<>(byStatus).forEach((code, n) -> out.append("engram_http_responses_total{code=\"").append(code)
                .append("\"} ").append(n.get()).append('\n'));
        out.append("# HELP engram_rate_limited_total Requests refused with 429 because their caller exceeded the rate limit.\n");
        out.append("# TYPE engram_rate_limited_total counter\n");
        out.append("engram_rate_limited_total ").append(rateLimited.get()).append('\n');
    }
}
