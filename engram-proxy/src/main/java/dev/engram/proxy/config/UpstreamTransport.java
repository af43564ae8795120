package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/** How the proxy reaches one upstream MCP server: a child process over stdio, Streamable HTTP, or the older HTTP+SSE. */
public sealed interface UpstreamTransport {
    /** Environment variable names: letters, digits and underscores, not starting with a digit. */
    Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /**
     * A child process. Only PATH, HOME and the variables named in {@code passEnv} reach it: the
     * proxy's own environment (tokens for other servers) must not leak to every upstream (SDK gotcha 5).
     */
    record Stdio(String command, List<String> args, List<String> passEnv) implements UpstreamTransport {
        public Stdio {
            if (command == null || command.isBlank()) {
                throw new InvalidArgumentException("command", "is required for a stdio upstream, e.g. npx");
            }
            args = args == null ? List.of() : List.copyOf(args);
            passEnv = passEnv == null ? List.of() : List.copyOf(passEnv);
            for (String name : passEnv) {
                if (!ENV_NAME.matcher(name).matches()) {
                    throw new InvalidArgumentException("env", "must name a variable (letters, digits, _), got '"
                            + name + "'; values are read from the proxy's environment at start");
                }
            }
        }
    }

    /** A server reached over HTTP at {@code url}, with fixed request headers (e.g. Authorization). */
    sealed interface Remote extends UpstreamTransport {
        String url();

        Map<String, String> headers();

        /** As proxy.json and {@code list} name it: {@code streamable_http} or {@code sse}. */
        String id();

        /** As {@code list} shows it: {@code http} or {@code sse}. */
        String label();
    }

    /** A Streamable HTTP endpoint. */
    record Http(String url, Map<String, String> headers) implements Remote {
        public Http {
            url = checkUrl(url);
            headers = headers == null ? Map.of() : Map.copyOf(headers);
        }

        @Override
        public String id() {
            return "streamable_http";
        }

        @Override
        public String label() {
            return "http";
        }
    }

    /**
     * The HTTP+SSE transport of MCP 2024-11-05, which many hosted servers still speak: {@code url} is
     * the event stream (GET), and the server names the endpoint to POST messages to in its first event.
     */
    record Sse(String url, Map<String, String> headers) implements Remote {
        public Sse {
            url = checkUrl(url);
            headers = headers == null ? Map.of() : Map.copyOf(headers);
        }

        @Override
        public String id() {
            return "sse";
        }

        @Override
        public String label() {
            return "sse";
        }
    }

    private static String checkUrl(String url) {
        if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            throw new InvalidArgumentException("url", "must be an http:// or https:// URL, got '" + url + "'");
        }
        return url;
    }
}
