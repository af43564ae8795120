package dev.engram.mcp.http;

import dev.engram.mcp.server.CallNote;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * One {@code key=value} line per request, written when it ends: time, principal name (never the token), remote
 * address, HTTP method and path, JSON-RPC method, tool or prompt, HTTP status, the tool's outcome, duration in
 * milliseconds. Never arguments, bodies or answers, so no memory content and no secret a caller put in an argument
 * reaches a log. Values a client chose (method, tool name) are kept only when they are plain names, else {@code ?}.
 * Sits inside the response counter and outside everything else, so refused requests (401, 413, 429, 503) are logged.
 */
final class RequestLogFilter implements Filter {
    /** The logger the CLI's default sink writes to (stderr), at INFO. */
    static final String LOGGER = "engram.requests";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:\\[\\]-]{1,64}");

    private final Consumer<String> sink;
    private final Clock clock;

    RequestLogFilter(Consumer<String> sink, Clock clock) {
        this.sink = sink;
        this.clock = clock;
    }

    /** Lines to the {@value #LOGGER} logger at INFO. */
    static Consumer<String> toLogger() {
        org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(LOGGER);
        return line -> log.info("{}", line);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) req;
        CallNote note = new CallNote();
        req.setAttribute(CallNote.KEY, note);
        long start = System.nanoTime();
        try {
            chain.doFilter(req, res);
        } finally {
            long micros = (System.nanoTime() - start) / 1_000;
            StringBuilder line = new StringBuilder(160);
            line.append("time=").append(clock.instant());
            line.append(" principal=").append(req.getAttribute(HttpCaller.ATTRIBUTE) instanceof HttpCaller c ? c.name() : "-");
            line.append(" remote=").append(plain(req.getRemoteAddr()));
            line.append(" http=").append(plain(http.getMethod())).append(' ').append(plain(http.getRequestURI()));
            line.append(" rpc=").append(note.method() == null ? "-" : plain(note.method()));
            line.append(" tool=").append(note.name() == null ? "-" : plain(note.name()));
            line.append(" status=").append(((HttpServletResponse) res).getStatus());
            line.append(" outcome=").append(note.outcome() == null ? "-" : note.outcome());
            // the fraction zero-padded to three digits by hand: String.format cost more than the rest of the line
            long fraction = micros % 1000;
            line.append(" ms=").append(micros / 1000).append('.');
            if (fraction < 100) line.append('0');
            if (fraction < 10) line.append('0');
            line.append(fraction);
            try {
                sink.accept(line.toString());
            } catch (RuntimeException e) {
                // a log that cannot be written never fails the request it describes
            }
        }
    }

    static String plain(String value) {
        return value != null && PLAIN.matcher(value).matches() ? value : "?";
    }
}
