package dev.engram.mcp.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** HTTP/1.1 over a plain socket, because java.net.http refuses to send a forged Host header. */
final class RawHttp {
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    static Response send(int port, String method, String path, Map<String, String> headers, String body)
            throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            Map<String, String> all = new LinkedHashMap<>(Map.of("Connection", "close"));
            all.putAll(headers);
            write(s, port, method, path, all, body);
            return parse(s.getInputStream());
        }
    }

    /**
     * A POST that declares {@code contentLength} bytes but sends only {@code prefix} before reading
     * the answer: a server refusing a body for its declared size answers without reading it.
     */
    static Response sendDeclared(int port, Map<String, String> headers, long contentLength, String prefix) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            StringBuilder req = new StringBuilder("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n");
            headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
            req.append("Content-Length: ").append(contentLength).append("\r\n\r\n").append(prefix);
            s.getOutputStream().write(req.toString().getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            return parse(s.getInputStream());
        }
    }

    /** The same POST sent once per header set, one after another down one keep-alive connection. */
    static List<Response> keepAlive(int port, List<Map<String, String>> headerSets, String body) throws IOException {
        List<Response> responses = new ArrayList<>();
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            for (Map<String, String> headers : headerSets) {
                write(s, port, "POST", "/mcp", headers, body);
                responses.add(parse(s.getInputStream()));
            }
        }
        return responses;
    }

    private static void write(Socket s, int port, String method, String path, Map<String, String> headers, String body)
            throws IOException {
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder req = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Host", "127.0.0.1:" + port);
        all.put("Accept", "application/json, text/event-stream");
        all.put("Content-Type", "application/json");
        all.putAll(headers);
        all.forEach((k, v) -> {
            if (v != null) req.append(k).append(": ").append(v).append("\r\n");
        });
        req.append("Content-Length: ").append(payload.length).append("\r\n\r\n");
        // head and body in one write, as clients send them: in two, the body could arrive after a refusal (401) was
        // sent without reading it, and Jetty then closes the connection rather than wait for the rest (a broken pipe
        // on the next request of a keep-alive test, seen once in CI)
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        whole.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
        whole.write(payload);
        OutputStream out = s.getOutputStream();
        out.write(whole.toByteArray());
        out.flush();
    }

    private static Response parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            for (int n; (n = in.read(buf)) > 0; ) {
                all.write(buf, 0, n);
                if (complete(all.toString(StandardCharsets.UTF_8))) break;
            }
        } catch (java.net.SocketTimeoutException e) {
            // an SSE stream stays open; what arrived so far is enough for these tests
        }
        String raw = all.toString(StandardCharsets.UTF_8);
        int split = raw.indexOf("\r\n\r\n");
        String head = split < 0 ? raw : raw.substring(0, split);
        String body = split < 0 ? "" : raw.substring(split + 4);
        String[] lines = head.split("\r\n");
        String[] statusLine = lines[0].split(" ");
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/")) {
            // say what came instead of an index error: a connection closed before any answer reads as 0 bytes
            throw new IOException("no HTTP status line in what the server sent (" + raw.length() + " chars): "
                    + raw.substring(0, Math.min(200, raw.length())).replace("\r\n", "\\r\\n"));
        }
        int status = Integer.parseInt(statusLine[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int c = lines[i].indexOf(':');
            if (c > 0) headers.put(lines[i].substring(0, c).strip().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).strip());
        }
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) body = dechunk(body);
        return new Response(status, headers, body);
    }

    /** Stops reading once a Content-Length body or a chunked body has fully arrived. */
    private static boolean complete(String raw) {
        int split = raw.indexOf("\r\n\r\n");
        if (split < 0) return false;
        String head = raw.substring(0, split).toLowerCase(Locale.ROOT);
        int cl = head.indexOf("content-length:");
        if (cl >= 0) {
            int end = head.indexOf("\r\n", cl);
            int len = Integer.parseInt(head.substring(cl + 15, end < 0 ? head.length() : end).strip());
            return raw.getBytes(StandardCharsets.UTF_8).length - split - 4 >= len;
        }
        return head.contains("chunked") && raw.endsWith("\r\n0\r\n\r\n");
    }

    private static String dechunk(String body) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            int nl = body.indexOf("\r\n", i);
            if (nl < 0) break;
            int size = Integer.parseInt(body.substring(i, nl).strip(), 16);
            if (size == 0) break;
            int end = Math.min(body.length(), nl + 2 + size);
            out.append(body, nl + 2, end);
            i = end + 2;
        }
        return out.toString();
    }
}
