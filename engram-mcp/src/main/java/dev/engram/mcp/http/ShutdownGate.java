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
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Lets a stopping server finish what it started: counts the requests in flight and, once {@link #close()}
 * is called, answers new ones 503 with {@code Connection: close} and {@code Retry-After: 1} (a balancer sends
 * them to another replica) while {@link #awaitIdle} waits for the others to end. A {@code GET} of the MCP
 * endpoint is a server-to-client event stream that never ends on its own: it is not waited for (closing the
 * MCP sessions ends it). The SDK answers a POST on the request thread (it blocks until the call is done), so a
 * request leaves this filter when its answer is written.
 */
final class ShutdownGate implements Filter {
    /** JSON-RPC code of a request refused because the server is stopping. */
    static final int STOPPING = -32030;

    private final String mcpPath;
    private final Object lock = new Object();
    private int inFlight;
    private boolean closed;

    ShutdownGate(String mcpPath) {
        this.mcpPath = mcpPath;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        boolean stream = "GET".equalsIgnoreCase(http.getMethod()) && mcpPath.equals(http.getRequestURI());
        synchronized (lock) {
            if (closed) {
                refuse((HttpServletResponse) res);
                return;
            }
            if (!stream) inFlight++;
        }
        try {
            chain.doFilter(req, res);
        } finally {
            if (!stream) {
                synchronized (lock) {
                    inFlight--;
                    lock.notifyAll();
                }
            }
        }
    }

    private static void refuse(HttpServletResponse out) throws IOException {
        byte[] body = JsonRpcErrors.body(STOPPING, "the server is shutting down and takes no new requests;"
                + " retry in a moment (another replica, or this one once restarted)").getBytes(StandardCharsets.UTF_8);
        out.setStatus(503);
        out.setHeader("Connection", "close");
        out.setHeader("Retry-After", "1");
        out.setContentType("application/json");
        out.setContentLength(body.length);
        out.getOutputStream().write(body);
    }

    /** From now on, new requests are refused. */
    void close() {
        synchronized (lock) {
            closed = true;
        }
    }

    int inFlight() {
        synchronized (lock) {
            return inFlight;
        }
    }

    /** Waits until no request is in flight or {@code grace} has passed; true when none is left. */
    boolean awaitIdle(Duration grace) throws InterruptedException {
        long deadline = System.nanoTime() + grace.toNanos();
        synchronized (lock) {
            while (inFlight > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                TimeUnit.NANOSECONDS.timedWait(lock, left);
            }
            return true;
        }
    }
}
