package dev.engram.mcp.http;

import dev.engram.error.EngramUserException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;

/**
 * Where and how the Streamable HTTP server listens. Validated once: a server without tokens does
 * not start unless {@code noAuth} is set, and {@code noAuth} is refused off loopback, so an open
 * server is never reachable from another machine by accident. {@code limits}: rate, body size and
 * the stop's grace period ({@link ServerLimits#DEFAULT} when null).
 */
public record HttpServerSettings(String host, int port, String path, TokenSet tokens, boolean noAuth,
                                 List<String> allowedHosts, List<String> allowedOrigins, boolean principals,
                                 ServerLimits limits) {
    /** Loopback unless told otherwise (GUIDE §7). */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Fixed so client configs can name it; in the dynamic range, where few services listen. */
    public static final int DEFAULT_PORT = 56332;
    public static final String DEFAULT_PATH = "/mcp";

    public HttpServerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(tokens, "tokens");
        limits = limits == null ? ServerLimits.DEFAULT : limits;
        path = path == null || path.isBlank() ? DEFAULT_PATH : path;
        if (port < 0 || port > 65_535) {
            throw new EngramUserException("port must be 0..65535, got " + port);
        }
        if (!path.startsWith("/")) {
            throw new EngramUserException("path must start with '/', got '" + path + "'");
        }
        if (noAuth && !isLoopback(host)) {
            throw new EngramUserException("--no-auth is allowed only on a loopback address (127.0.0.1, ::1,"
                    + " localhost), not '" + host + "'; configure bearer tokens to listen on " + host);
        }
        if (!noAuth && tokens.isEmpty() && !principals) {
            throw new EngramUserException("serve needs at least one bearer token: set ENGRAM_TOKENS=<token>[,<token>...]"
                    + " or pass --tokens-file FILE (one token per line, # comments); generate one with"
                    + " 'openssl rand -hex 32', or make a principal bound to zones with 'engram tokens add NAME --zone ZONE:write'."
                    + " For a local test without auth, add --no-auth (loopback only).");
        }
        allowedHosts = List.copyOf(allowedHosts);
        allowedOrigins = List.copyOf(allowedOrigins);
        for (String origin : allowedOrigins) {
            if (!origin.matches("https?://[^/\\s]+")) {
                throw new EngramUserException("--allowed-origin '" + origin + "' is not an origin: send scheme and host"
                        + " with an optional port and no path, e.g. https://app.example or http://10.0.0.5:8080");
            }
        }
        for (String extra : allowedHosts) {
            if (extra.isBlank() || extra.contains("/") || extra.contains(" ")) {
                throw new EngramUserException("--allowed-host '" + extra + "' is not a host: send a name or address"
                        + " with an optional port, e.g. mem.example.com or 10.0.0.5:56332");
            }
        }
    }

    /** Settings with the default limits ({@link ServerLimits#DEFAULT}). */
    public HttpServerSettings(String host, int port, String path, TokenSet tokens, boolean noAuth,
                              List<String> allowedHosts, List<String> allowedOrigins, boolean principals) {
        this(host, port, path, tokens, noAuth, allowedHosts, allowedOrigins, principals, ServerLimits.DEFAULT);
    }

    public HttpServerSettings withLimits(ServerLimits newLimits) {
        return new HttpServerSettings(host, port, path, tokens, noAuth, allowedHosts, allowedOrigins, principals, newLimits);
    }

    /** Settings for a store without principals: only these tokens (or none, with {@code noAuth}). */
    public HttpServerSettings(String host, int port, String path, TokenSet tokens, boolean noAuth,
                              List<String> allowedHosts, List<String> allowedOrigins) {
        this(host, port, path, tokens, noAuth, allowedHosts, allowedOrigins, false, ServerLimits.DEFAULT);
    }

    public static boolean isLoopback(String host) {
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (h.equalsIgnoreCase("localhost")) return true;
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
