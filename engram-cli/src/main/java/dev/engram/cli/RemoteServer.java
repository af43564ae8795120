package dev.engram.cli;

import dev.engram.error.EngramUserException;
import dev.engram.mcp.http.McpHttpServer;
import dev.engram.mcp.json.JsonText;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CLI's client for a running {@code engram serve}: one MCP session over Streamable HTTP (initialize, the
 * initialized notification, tool calls, then the session is deleted) and {@code GET /export} for export. A small
 * JSON-RPC client on java.net.http rather than the SDK's, because what the CLI must tell a person is in the HTTP
 * answer the SDK client keeps to itself: the status (401, 403, 413, 429, 503), {@code Retry-After} and the
 * server's message. Every failure becomes one {@link EngramUserException} line naming the server and what to do.
 */
public final class RemoteServer implements AutoCloseable {
    static final String PROTOCOL_VERSION = "2025-11-25";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);

    /** A tool's answer: its text, its structured content (empty when none) and whether it is an error. */
    public record ToolAnswer(String text, Map<String, Object> structured, boolean isError) {
    }

    private final URI endpoint;
    private final String token;
    private final JsonText json;
    private final HttpClient http;
    private String session;
    private String protocol = PROTOCOL_VERSION;
    private long nextId = 1;

    private RemoteServer(URI endpoint, String token, JsonText json, HttpClient http) {
        this.endpoint = endpoint;
        this.token = token;
        this.json = json;
        this.http = http;
    }

    /**
     * How long Java's client keeps an idle connection (read once per JVM, when its first client is built). Java 17's
     * default is 1,200 s, the server's {@link McpHttpServer#IDLE_TIMEOUT} 30 s: a pooled connection the server was
     * closing just then failed a tool call with "HTTP/1.1 header parser received no bytes" (twice in an hour of
     * {@code engram-bench load}), and the JDK retries only GET and HEAD. Kept below the server's, the client closes first.
     */
    static final String KEEP_ALIVE_PROPERTY = "jdk.httpclient.keepalive.timeout";
    static final Duration KEEP_ALIVE = McpHttpServer.IDLE_TIMEOUT.minusSeconds(10);

    /** An HTTP client as the CLI's: HTTP/1.1, the connect timeout; one may serve many sessions (engram-bench load). */
    public static HttpClient httpClient() {
        // a value the user set stays theirs
        if (System.getProperty(KEEP_ALIVE_PROPERTY) == null) System.setProperty(KEEP_ALIVE_PROPERTY, String.valueOf(KEEP_ALIVE.toSeconds()));
        return HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** The endpoint of {@code url}: an http(s) URL; without a path, the server's default {@code /mcp}. */
    static URI endpoint(String url) {
        URI uri;
        try {
            uri = URI.create(url.strip());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || uri.getHost() == null || !("http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme()))
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new ConfigException("--remote", "flag", "must be the http(s) URL of a running engram serve, e.g."
                    + " http://127.0.0.1:56332/mcp; got '" + url + "'");
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/") ? "/mcp" : uri.getRawPath();
        return URI.create(uri.getScheme().toLowerCase(java.util.Locale.ROOT) + "://" + uri.getRawAuthority() + path);
    }

    /** Opens a session on the server at {@code url}; {@code token} may be null (a server run with --no-auth). */
    static RemoteServer connect(String url, String token, JsonText json) {
        return connect(url, token, json, httpClient());
    }

    /** As {@link #connect(String, String, JsonText)}, over a given (shared) HTTP client. */
    public static RemoteServer connect(String url, String token, JsonText json, HttpClient http) {
        RemoteServer remote = new RemoteServer(endpoint(url), token == null || token.isBlank() ? null : token.strip(), json, http);
        remote.initialize();
        return remote;
    }

    private void initialize() {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("protocolVersion", PROTOCOL_VERSION);
        params.put("capabilities", Map.of());
        params.put("clientInfo", Map.of("name", "engram-cli", "version", Main.version()));
        Exchange answer = request("initialize", params);
        session = answer.session().orElse(null);
        if (answer.result().get("protocolVersion") instanceof String v) protocol = v;
        notifyInitialized();
    }

    private void notifyInitialized() {
        String body = json.write(Map.of("jsonrpc", "2.0", "method", "notifications/initialized"));
        HttpResponse<InputStream> r = send(post(body));
        try (InputStream in = r.body()) {
            in.readAllBytes();
        } catch (IOException e) {
            throw unreachable(e);
        }
        if (r.statusCode() >= 300) throw refused(r.statusCode(), r.headers(), "");
    }

    /** Calls a tool; a tool error (isError) comes back as an answer, not an exception. */
    public ToolAnswer call(String tool, Map<String, Object> arguments) {
        Map<String, Object> result = request("tools/call", Map.of("name", tool, "arguments", arguments)).result();
        String text = "";
        if (result.get("content") instanceof List<?> content) {
            StringBuilder all = new StringBuilder();
            for (Object c : content) {
                if (c instanceof Map<?, ?> m && "text".equals(m.get("type")) && m.get("text") instanceof String t) {
                    if (!all.isEmpty()) all.append('\n');
                    all.append(t);
                }
            }
            text = all.toString();
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> structured = result.get("structuredContent") instanceof Map<?, ?> s ? (Map<String, Object>) s : Map.of();
        return new ToolAnswer(text, structured, Boolean.TRUE.equals(result.get("isError")));
    }

    /** Calls a tool and returns its answer; a tool error becomes the exception the same mistake makes locally. */
    ToolAnswer callOrFail(String tool, Map<String, Object> arguments) {
        ToolAnswer a = call(tool, arguments);
        if (a.isError()) throw new EngramUserException(a.text());
        return a;
    }

    /** Streams the export lines of {@code zone} (null: every zone the token may read) to {@code out}; returns their number. */
    long export(String zone, OutputStream out) {
        URI uri = endpoint.resolve("/export" + (zone == null ? "" : "?zone=" + URLEncoder.encode(zone, StandardCharsets.UTF_8)));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofHours(1)).GET();
        if (token != null) b.header("Authorization", "Bearer " + token);
        HttpResponse<InputStream> r = send(b.build());
        long lines = 0;
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw refused(r.statusCode(), r.headers(), new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
            }
            byte[] buf = new byte[64 * 1024];
            for (int n; (n = in.read(buf)) > 0; ) {
                out.write(buf, 0, n);
                for (int i = 0; i < n; i++) if (buf[i] == '\n') lines++;
            }
            out.flush();
        } catch (IOException e) {
            throw new EngramUserException("the export from " + endpoint + " broke off after " + lines + " memories ("
                    + reason(e) + "); what was written is incomplete: run it again");
        }
        return lines;
    }

    @Override
    public void close() {
        if (session == null) return;
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(CONNECT_TIMEOUT).DELETE()
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", protocol);
        if (token != null) b.header("Authorization", "Bearer " + token);
        try {
            http.send(b.build(), HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            // the server ends idle sessions itself
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        session = null;
    }

    private record Exchange(Map<String, Object> result, Optional<String> session) {
    }

    /** One JSON-RPC request and its answer, read from a JSON body or from the event stream the server answers with. */
    private Exchange request(String method, Map<String, Object> params) {
        long id = nextId++;
        String body = json.write(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
        HttpResponse<InputStream> r = send(post(body));
        Map<String, Object> message;
        try (InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                throw refused(r.statusCode(), r.headers(), new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8));
            }
            boolean stream = r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
            message = stream ? fromEvents(in, id) : json.readObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw unreachable(e);
        } catch (EngramUserException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new EngramUserException("the server at " + endpoint + " did not answer " + method + " with JSON-RPC;"
                    + " is the --remote URL engram serve's MCP endpoint (e.g. http://host:56332/mcp)?");
        }
        if (message == null) {
            throw new EngramUserException("the server at " + endpoint + " ended its answer to " + method + " without one;"
                    + " is it an engram serve (or another MCP server) at that URL?");
        }
        if (message.get("error") instanceof Map<?, ?> error) {
            throw new EngramUserException("the server at " + endpoint + " refused " + method + ": " + error.get("message"));
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> result = message.get("result") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        return new Exchange(result, r.headers().firstValue("Mcp-Session-Id"));
    }

    /** The first event carrying the answer to {@code id}; null when the stream ends without it. */
    private Map<String, Object> fromEvents(InputStream in, long id) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        StringBuilder data = new StringBuilder();
        for (String line = reader.readLine(); ; line = reader.readLine()) {
            if (line == null || line.isEmpty()) {
                if (!data.isEmpty()) {
                    Map<String, Object> m = json.readObject(data.toString());
                    data.setLength(0);
                    if (m.get("id") instanceof Number n && n.longValue() == id) return m;
                }
                if (line == null) return null;
            } else if (line.startsWith("data:")) {
                if (!data.isEmpty()) data.append('\n');
                data.append(line.substring(5).stripLeading());
            }
        }
    }

    private HttpRequest post(String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(CALL_TIMEOUT)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (token != null) b.header("Authorization", "Bearer " + token);
        if (session != null) b.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", protocol);
        return b.build();
    }

    private HttpResponse<InputStream> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngramUserException("interrupted while waiting for the server at " + endpoint);
        }
    }

    private EngramUserException unreachable(IOException e) {
        return new EngramUserException("cannot reach the server at " + endpoint + " (" + reason(e) + "); is engram serve"
                + " running there? Check the --remote URL (host, port, http or https)");
    }

    /** Why a connection failed, in words: Java's HTTP client often fails with exceptions that carry no message. */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) return "unknown host";
            if (t instanceof HttpConnectTimeoutException) return "the connection timed out";
            if (t instanceof ConnectException) return "connection refused";
            if (t instanceof HttpTimeoutException) return "no answer in time";
        }
        return e.getMessage() == null || e.getMessage().isBlank() ? "the connection failed" : e.getMessage();
    }

    /** An HTTP refusal, said the way a person acts on it; the server's own message is kept. */
    EngramUserException refused(int status, java.net.http.HttpHeaders headers, String body) {
        String said = serverMessage(body);
        String detail = said == null ? "" : ": " + said;
        return new EngramUserException(switch (status) {
            case 401 -> "the server at " + endpoint + " refused the token (401" + detail + "); send a valid one with"
                    + " ENGRAM_TOKEN=<token> (or --token); the server's operator makes one with 'engram tokens add'";
            case 403 -> "the token may not do this (403" + detail + ")";
            case 404 -> "nothing at " + endpoint + " (404): the --remote URL must be engram serve's MCP endpoint, e.g."
                    + " http://host:56332/mcp";
            case 413 -> "the request is too large for the server (413" + detail + ")";
            case 429 -> "the server's rate limit refused the request (429" + detail + "); retry after "
                    + headers.firstValue("Retry-After").orElse("1") + " s";
            case 503 -> "the server is unavailable (503" + detail + "); retry in a moment";
            default -> "the server at " + endpoint + " answered HTTP " + status + detail;
        });
    }

    private String serverMessage(String body) {
        if (body == null || body.isBlank()) return null;
        try {
            Map<String, Object> m = json.readObject(body);
            if (m.get("error") instanceof Map<?, ?> error && error.get("message") instanceof String s) return s;
        } catch (RuntimeException e) {
            // not JSON: say nothing of it
        }
        return null;
    }
}
