package dev.engram.mcp.viewer;

import dev.engram.error.EngramUserException;
import dev.engram.error.NotFoundException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.jsonrpc.JsonRpcErrors;
import dev.engram.mcp.tool.ToolAdapter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The viewer over HTTP, mounted at {@value #MOUNT}{@code /*}: the page at {@code /ui/}, the d3 bundle at
 * {@code /ui/assets/d3.min.js}, JSON at {@code /ui/api/<route>} ({@link ViewerApi}). GET only. A request
 * whose Host header is not one of the accepted names is refused (DNS rebinding: a web page must not
 * reach a loopback viewer through a name it controls). Errors are JSON-RPC-shaped bodies with a message.
 */
public final class ViewerServlet extends HttpServlet {
    private static final Logger log = LoggerFactory.getLogger(ViewerServlet.class);
    public static final String MOUNT = "/ui";
    private static final String CSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src 'self' data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final transient ViewerApi api;
    private final transient ViewerPage page;
    private final transient JsonText json;
    private final List<String> allowedHosts;

    /**
     * @param allowedHosts accepted Host headers: a name ({@code localhost}) or a name with any port
     *                     ({@code localhost:*}), matched case-insensitively
     */
    public ViewerServlet(ViewerApi api, ViewerPage page, JsonText json, List<String> allowedHosts) {
        this.api = api;
        this.page = page;
        this.json = json;
        this.allowedHosts = List.copyOf(allowedHosts);
    }

    /** The Host names a loopback-only server accepts. */
    public static List<String> loopbackHosts() {
        return List.of("127.0.0.1", "127.0.0.1:*", "localhost", "localhost:*", "[::1]", "[::1]:*");
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse res) throws IOException {
        res.setHeader("X-Content-Type-Options", "nosniff");
        res.setHeader("Referrer-Policy", "no-referrer");
        if (!hostAllowed(req.getHeader("Host"))) {
            error(res, 403, -32600, "the Host header is not one this viewer answers to; open it at "
                    + "http://127.0.0.1:<port>/ui/ (or a name given with --allowed-host)");
            return;
        }
        String path = req.getPathInfo() == null ? "" : req.getPathInfo();
        try {
            if (path.isEmpty()) {
                res.sendRedirect(MOUNT + "/");
            } else if (path.equals("/") || path.equals("/index.html")) {
                res.setHeader("Content-Security-Policy", CSP);
                res.setHeader("Cache-Control", "no-store");
                write(res, 200, "text/html; charset=utf-8", page.served().getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/assets/d3.min.js")) {
                res.setHeader("Cache-Control", "max-age=86400");
                write(res, 200, "text/javascript; charset=utf-8", page.d3());
            } else if (path.startsWith("/api/")) {
                res.setHeader("Cache-Control", "no-store");
                Map<String, String> params;
                try {
                    params = params(req);
                } catch (RuntimeException badQuery) {
                    // Jetty parses the query string lazily and throws on a bad %-escape or invalid UTF-8
                    error(res, 400, -32602, "the query string does not decode: percent-escapes must be two hex digits and "
                            + "spell UTF-8 (send the parameters URL-encoded, e.g. q=caf%C3%A9)");
                    return;
                }
                Map<String, Object> body = api.answer(path.substring("/api/".length()), params);
                write(res, 200, "application/json", json.write(body).getBytes(StandardCharsets.UTF_8));
            } else {
                error(res, 404, -32601, "nothing at " + MOUNT + path + "; the viewer is at " + MOUNT + "/");
            }
        } catch (NotFoundException e) {
            error(res, 404, -32602, e.getMessage());
        } catch (dev.engram.access.AccessDeniedException e) {
            error(res, 403, -32602, e.getMessage());
        } catch (EngramUserException e) {
            error(res, 400, -32602, e.getMessage());
        } catch (RuntimeException e) {
            String ref = ToolAdapter.newRef();
            log.error("viewer request {} failed, ref={}", path, ref, e);
            error(res, 500, -32603, "internal error (ref " + ref + ")");
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse res) throws ServletException, IOException {
        String method = req.getMethod().toUpperCase(Locale.ROOT);
        if (method.equals("GET") || method.equals("HEAD")) {
            super.service(req, res);
        } else {
            res.setHeader("Allow", "GET, HEAD");
            error(res, 405, -32600, "the viewer answers GET only, got " + method);
        }
    }

    boolean hostAllowed(String host) {
        if (host == null || host.isBlank()) return false;
        String h = host.strip().toLowerCase(Locale.ROOT);
        for (String allowed : allowedHosts) {
            String a = allowed.toLowerCase(Locale.ROOT);
            if (a.endsWith(":*")) {
                String name = a.substring(0, a.length() - 2);
                if (h.equals(name) || h.startsWith(name + ":") && h.substring(name.length() + 1).chars().allMatch(Character::isDigit)) {
                    return true;
                }
            } else if (h.equals(a)) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> params(HttpServletRequest req) {
        Map<String, String> out = new LinkedHashMap<>();
        req.getParameterMap().forEach((k, v) -> out.put(k, v.length == 0 ? "" : v[0]));
        return out;
    }

    private void error(HttpServletResponse res, int status, int code, String message) throws IOException {
        if (res.isCommitted()) return;
        write(res, status, "application/json", JsonRpcErrors.body(code, message).getBytes(StandardCharsets.UTF_8));
    }

    private static void write(HttpServletResponse res, int status, String type, byte[] body) throws IOException {
        res.setStatus(status);
        res.setContentType(type);
        res.setContentLength(body.length);
        res.getOutputStream().write(body);
    }

    /**
     * Wraps the server's auth filter so that the page shell and the d3 bundle, which carry no memory,
     * load without a token (a browser cannot send a bearer header on navigation); every {@code /ui/api/}
     * route and everything outside {@code /ui} still goes through {@code auth}. The page sends the token
     * it is given in its URL fragment ({@code #token=…}) as a bearer header on its API calls.
     */
    public static Filter publicShell(Filter auth) {
        return new Filter() {
            @Override
            public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
                HttpServletRequest http = (HttpServletRequest) req;
                String uri = http.getRequestURI();
                boolean shell = ("GET".equals(http.getMethod()) || "HEAD".equals(http.getMethod()))
                        && (uri.equals(MOUNT) || uri.equals(MOUNT + "/") || uri.equals(MOUNT + "/index.html")
                        || uri.equals(MOUNT + "/assets/d3.min.js"));
                if (shell) chain.doFilter(req, res);
                else auth.doFilter(req, res, chain);
            }
        };
    }
}
