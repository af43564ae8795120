package dev.engram.mcp.http;

import dev.engram.access.Access;
import dev.engram.access.Grants;
import dev.engram.mcp.server.CallerRights;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Binds the authenticated caller's rights to the request thread for servlets that call the engine directly (the
 * graph viewer's data routes), as {@link CallerRights} does for MCP calls: the guarded engine then filters their
 * reads by the same rights. Without a verdict on the request, {@code open} (no auth, loopback) means every right,
 * else none.
 */
final class GrantsBindingFilter implements Filter {
    private final boolean open;

    GrantsBindingFilter(boolean open) {
        this.open = open;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        Object verdict = req.getAttribute(CallerRights.KEY);
        Grants grants = verdict instanceof Grants g ? g : open ? Grants.FULL : Grants.NONE;
        try {
            Access.as(grants, () -> {
                try {
                    chain.doFilter(req, res);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (ServletException e) {
                    throw new WrappedServletException(e);
                }
                return null;
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (WrappedServletException e) {
            throw (ServletException) e.getCause();
        }
    }

    private static final class WrappedServletException extends RuntimeException {
        WrappedServletException(ServletException cause) {
            super(cause);
        }
    }
}
