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
import java.util.Set;

/** In the default context: a variant header that names no variant is a mistake to report, not to ignore (400). */
final class VariantHeaderFilter implements Filter {
    private final String header;
    private final Set<String> names;

    VariantHeaderFilter(String header, Set<String> names) {
        this.header = header;
        this.names = Set.copyOf(names);
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        String value = ((HttpServletRequest) req).getHeader(header);
        if (value != null) {
            HttpServletResponse out = (HttpServletResponse) res;
            out.setStatus(400);
            out.setContentType("application/json");
            String shown = value.length() > 40 ? value.substring(0, 40) + "…" : value;
            byte[] body = JsonRpcErrors.body(-32600, header + " '" + shown.replaceAll("[^\\x20-\\x7e]", "?")
                    + "' is not a mode; send one of " + String.join(", ", new java.util.TreeSet<>(names))
                    + ", or leave the header out for every tool").getBytes(StandardCharsets.UTF_8);
            out.setContentLength(body.length);
            out.getOutputStream().write(body);
            return;
        }
        chain.doFilter(req, res);
    }
}
