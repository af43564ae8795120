package dev.engram.mcp.http;

import dev.engram.access.AccessDeniedException;
import dev.engram.error.EngramUserException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /export[?zone=Z]}: the caller's memories as the JSON lines {@code engram export} writes (one memory
 * with its edges and versions per line), streamed, for {@code engram export --remote}. A route beside {@code /mcp}
 * rather than a tool or resource, because an MCP answer is one JSON message both sides hold whole, and a whole
 * store does not fit that; and a tool would sit in every agent's tool list. Behind the bearer filter, with the
 * caller's rights bound ({@link GrantsBindingFilter}): the guarded engine exports only zones the caller may
 * read, and naming another zone is refused before anything is written.
 */
final class ExportServlet extends HttpServlet {
    static final String PATH = "/export";

    private final ExportSource source;

    ExportServlet(ExportSource source) {
        this.source = source;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        String zone = req.getParameter("zone");
        if (zone != null && zone.isBlank()) zone = null;
        res.setContentType("application/x-ndjson; charset=utf-8");
        res.setHeader("Cache-Control", "no-store");
        OutputStream out = res.getOutputStream();
        boolean[] started = {false};
        try {
            if (zone != null) dev.engram.memory.MemoryRules.zone("zone", zone);
            source.export(zone, line -> {
                try {
                    started[0] = true;
                    out.write(line.getBytes(StandardCharsets.UTF_8));
                    out.write('\n');
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (EngramUserException e) {
            if (started[0]) throw e; // mid-stream: the connection is cut, the client sees a truncated transfer
            int status = e instanceof AccessDeniedException ? 403 : e instanceof NotFoundException ? 404 : 400;
            res.resetBuffer();
            byte[] body = JsonRpcErrors.body(status == 403 ? -32001 : JsonRpcErrors.INVALID_PARAMS, e.getMessage())
                    .getBytes(StandardCharsets.UTF_8);
            res.setStatus(status);
            res.setContentType("application/json");
            res.setContentLength(body.length);
            out.write(body);
            return;
        } catch (UncheckedIOException e) {
            throw e.getCause(); // the client went away
        }
        out.flush();
    }
}
