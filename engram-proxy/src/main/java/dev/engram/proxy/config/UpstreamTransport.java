package dev.engram.proxy.config;

import dev.engram.error.InvalidArgumentException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** How the proxy reaches one upstream MCP server: a child process over stdio, Streamable HTTP, or the older HTTP+SSE. */
public sealed interface UpstreamTransport {
    /** Environment variable names: letters, digits and underscores, not starting with a digit. */
    Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** An HTTP header name (an RFC 9110 token). */
    Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * A child process. Only PATH, HOME and the variables named in {@code passEnv} reach it: the
     * proxy's own environment (tokens for other servers) must not leak to every upstream (SDK gotcha 5).
     */
    record Stdio(String command, List<String> args, List<String> passEnv) implements UpstreamTransport {
        public Stdio {
            if (command == null || command.isBlank()) {
                throw new InvalidArgumentException("command", "is required for a stdio upstream, e.g. npx");
            }
            // a NUL or line break cannot be in a program's name: Path.of and the process start would fail on it
            if (command.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
                throw new InvalidArgumentException("command", "must not contain control characters (NUL, line breaks); give the"
                        + " program's name or full path, e.g. npx");
            }
            args = args == null ? List.of() : args;
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a == null) throw new InvalidArgumentException("args[" + i + "]", "is not a string; give every argument as text");
                if (a.indexOf('\0') >= 0) {
                    throw new InvalidArgumentException("args[" + i + "]", "contains a NUL character, which no process argument can hold");
                }
            }
            args = List.copyOf(args);
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
            headers = checkHeaders(headers);
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
            headers = checkHeaders(headers);
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

    /** Headers Java's HTTP client sets itself and refuses from callers: one of them would fail every request. */
    Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade");

    private static String checkUrl(String url) {
        if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
            // credentials in a URL of another scheme are hidden from the message too
            throw new InvalidArgumentException("url", "must be an http:// or https:// URL, got '"
                    + (url != null && url.contains("@") ? EffectiveConfig.maskUrl(url) : url) + "'");
        }
        try {
            URI u = new URI(url);
            if (u.getHost() == null || u.getHost().isEmpty()) {
                throw new InvalidArgumentException("url", "has no host name; give the server's full URL, e.g. https://host/mcp");
            }
        } catch (URISyntaxException e) {
            if (url.contains("${")) {
                throw new InvalidArgumentException("url", "refers to an environment variable (${…}), which the proxy does not"
                        + " expand; write the URL itself");
            }
            // the reason and index only: the message would repeat the URL and any credentials in it
            throw new InvalidArgumentException("url", "is not a valid URL (" + e.getReason() + " at index " + e.getIndex()
                    + "); write spaces and other special characters %-encoded, e.g. %20");
        }
        return url;
    }

    private static Map<String, String> checkHeaders(Map<String, String> headers) {
        if (headers == null) return Map.of();
        for (Map.Entry<String, String> e : headers.entrySet()) {
            String name = e.getKey();
            if (name == null || !HEADER_NAME.matcher(name).matches()) {
                throw new InvalidArgumentException("headers", "name '" + name + "' is not a header name (letters, digits and"
                        + " !#$%&'*+.^_`|~- only, no spaces), e.g. Authorization");
            }
            if (RESTRICTED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                throw new InvalidArgumentException("headers", name + " is set by the HTTP client itself and cannot be given; remove it");
            }
            String value = e.getValue();
            if (value == null) throw new InvalidArgumentException("headers", name + " has no value; give it one or remove it");
            // a line break would start a header (or a body) of the value's choosing: request smuggling
            if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
                throw new InvalidArgumentException("headers", "value of " + name + " must not contain a line break or NUL");
            }
        }
        return Map.copyOf(headers);
    }
}
