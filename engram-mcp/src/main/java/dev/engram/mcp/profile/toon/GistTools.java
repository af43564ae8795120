package dev.engram.mcp.profile.toon;

import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.MemoryRules;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * toon's Gist sync: memory_export_gist uploads the project's memory as {@code data.toon} to a new
 * private Gist, memory_import_gist merges a Gist's {@code data.toon} by key (as memory_import_global
 * does). The token is GITHUB_TOKEN; the API root is GitHub's unless ENGRAM_GIST_API names another (a
 * GitHub Enterprise host, or a local fake in tests). Secrets of the vault are never part of it.
 */
final class GistTools {
    static final String DEFAULT_API = "https://api.github.com";
    /** The settings key of {@link #deadline} in seconds (for tests and embedders; the CLI keeps the default). */
    static final String TIMEOUT_SETTING = "toon.gist-timeout-seconds";
    static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(30);
    /** GitHub sends a file of at most about 1 MB inline; a few gists' worth is the most an answer should hold. */
    static final long MAX_ANSWER = 32L * 1024 * 1024;
    private static final Pattern GIST_ID = Pattern.compile("[A-Za-z0-9]{1,64}");
    private static final Pattern FROM_URL = Pattern.compile("/([a-fA-F0-9]+)/?$");
    private final ToonContext c;
    private final JsonText json;

    GistTools(ToonContext c) {
        this.c = c;
        this.json = JsonText.standard();
    }

    ToonTool exportGist() {
        var schema = JsonSchema.input().string("description", "Gist description (default: toon-memory backup DATE)", "project memory");
        return new ToonTool(ToonTool.define("memory_export_gist", "Upload the memory to a new private GitHub Gist as data.toon "
                + "(GITHUB_TOKEN); import it elsewhere with memory_import_gist.", schema, ToonTool.hints(false, false, false)), args -> {
            String token = token();
            c.refuseInTheClear("memory_export_gist");
            String desc = args.textOr("description");
            if (desc == null || desc.isBlank()) desc = "toon-memory backup " + ToonText.date(c.now());
            String data = ToonData.export(c.engine(), c.zone());
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("description", desc.strip());
            body.put("public", false);
            body.put("files", Map.of("data.toon", Map.of("content", data)));
            HttpRequest req = request(api() + "/gists", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json.write(body))).build();
            Map<String, Object> gist = send(req, "export");
            Object id = gist.get("id");
            if (!(id instanceof String gid)) throw new EngramUserException("the Gist API answered without an id; nothing is known to be uploaded");
            Object url = gist.get("html_url");
            return "📤 Memory exported to Gist\nID: " + gid + "\nURL: " + (url == null ? "—" : url) + "\n\nTo import later: memory_import_gist(gist_id: \""
                    + gid + "\")";
        });
    }

    ToonTool importGist() {
        var schema = JsonSchema.input()
                .string("gist_id", "Gist id or URL", "aa5a315d61ae9438b18d")
                .bool("merge", "Merge by key (default true); false is refused: replacing a project's memory is not built")
                .required("gist_id");
        return new ToonTool(ToonTool.define("memory_import_gist", "Merge a Gist's data.toon into this project by key (GITHUB_TOKEN): "
                + "new keys are added, newer entries update content and tags.", schema, ToonTool.hints(false, true, false)), this::importGist);
    }

    private String importGist(ToolArgs args) {
        Boolean merge = args.boolOr("merge");
        if (merge != null && !merge) {
            throw new InvalidArgumentException("merge", "false (replace the project's memory) is not built yet; send merge true"
                    + " to merge by key, or forget entries first");
        }
        String given = args.text("gist_id").strip();
        Matcher m = FROM_URL.matcher(given);
        String id = m.find() ? m.group(1) : given;
        if (!GIST_ID.matcher(id).matches()) {
            throw new InvalidArgumentException("gist_id", MemoryRules.shown(given) + " is not a Gist id or URL; send e.g. aa5a315d61ae9438b18d"
                    + " or https://gist.github.com/user/aa5a315d61ae9438b18d");
        }
        String token = token();
        Map<String, Object> gist = send(request(api() + "/gists/" + id, token).GET().build(), "import");
        String text = null;
        if (gist.get("files") instanceof Map<?, ?> files && files.get("data.toon") instanceof Map<?, ?> file
                && file.get("content") instanceof String content) {
            if (Boolean.TRUE.equals(file.get("truncated"))) {
                throw new EngramUserException("Gist " + id + "'s data.toon is too large for the API to send whole; download it and"
                        + " run: engram import --from toon FILE");
            }
            text = content;
        }
        if (text == null) throw new EngramUserException("Gist " + id + " holds no data.toon file; nothing was imported");
        if (!ToonFormat.isDocument(text)) {
            throw new EngramUserException("Gist " + id + "'s data.toon is not a TOON memory document; nothing was imported");
        }
        GlobalTools.Merged r = GlobalTools.merge(c, text, "Gist");
        return "📥 Memory merged from Gist " + id + r.summary();
    }

    private String token() {
        String token = c.setting(ToonProfile.GITHUB_TOKEN_SETTING);
        if (token == null || token.isBlank()) {
            throw new EngramUserException("GITHUB_TOKEN is not set: give the server a GitHub token with the gist scope"
                    + " (export GITHUB_TOKEN=ghp_…); nothing was sent");
        }
        String t = token.strip();
        // a header carries visible ASCII only; the token itself is never repeated in a message or a log
        if (!t.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f)) {
            throw new EngramUserException("GITHUB_TOKEN holds a character an HTTP header cannot carry (a space, a line break or a"
                    + " non-ASCII letter): set it to the token alone; nothing was sent");
        }
        return t;
    }

    private String api() {
        String api = c.setting(ToonProfile.GIST_API_SETTING);
        api = api == null || api.isBlank() ? DEFAULT_API : api.strip();
        api = api.endsWith("/") ? api.substring(0, api.length() - 1) : api;
        try {
            URI uri = new URI(api);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) return api;
        } catch (java.net.URISyntaxException e) {
            // said below
        }
        throw new EngramUserException("ENGRAM_GIST_API is " + MemoryRules.shown(api) + ", not an http(s) address; set it to the"
                + " API root, e.g. " + DEFAULT_API + " or https://github.example.com/api/v3; nothing was sent");
    }

    /** How long one call to the Gist API may take in all, answer included (the tool holds the server meanwhile). */
    private Duration deadline() {
        String v = c.setting(TIMEOUT_SETTING);
        try {
            return v == null || v.isBlank() ? DEFAULT_DEADLINE : Duration.ofMillis((long) (Double.parseDouble(v.strip()) * 1000));
        } catch (NumberFormatException e) {
            return DEFAULT_DEADLINE;
        }
    }

    private HttpRequest.Builder request(String url, String token) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(deadline())
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/vnd.github+json");
    }

    private Map<String, Object> send(HttpRequest req, String what) {
        String nothing = "; nothing was " + what + "ed";
        HttpResponse<byte[]> resp;
        Duration deadline = deadline();
        java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> call = HttpClient.newBuilder()
                .connectTimeout(deadline.compareTo(Duration.ofSeconds(10)) < 0 ? deadline : Duration.ofSeconds(10)).build()
                .sendAsync(req, info -> new BoundedBody(MAX_ANSWER));
        try {
            // the request's own timeout ends at the headers; this one covers a body that trickles in too
            resp = call.get(deadline.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            call.cancel(true);
            throw new EngramUserException("the Gist API at " + api() + " did not answer within " + deadline.toSeconds() + " s"
                    + (what.equals("export") ? "; the upload may or may not have happened: look at your gists before trying again" : nothing));
        } catch (java.util.concurrent.ExecutionException e) {
            throw new EngramUserException("could not reach the Gist API at " + api() + ": " + reason(e.getCause()) + nothing);
        } catch (InterruptedException e) {
            call.cancel(true);
            Thread.currentThread().interrupt();
            throw new EngramUserException("interrupted while talking to the Gist API" + nothing);
        }
        String body = new String(resp.body(), StandardCharsets.UTF_8);
        if (resp.statusCode() / 100 != 2) {
            boolean unknown = what.equals("export") && resp.statusCode() >= 500;
            throw new EngramUserException("GitHub API error (" + resp.statusCode() + "): " + (body.length() > 300 ? body.substring(0, 300) : body)
                    + (unknown ? "; the upload may or may not have happened: look at your gists before trying again" : nothing));
        }
        try {
            return json.readObject(body);
        } catch (RuntimeException e) {
            throw new EngramUserException("the Gist API answered something that is not JSON" + nothing);
        }
    }

    /** Why a call failed, in words (a refused connection's exception has no message of its own). */
    static String reason(Throwable e) {
        // a name that does not resolve comes wrapped in a ConnectException: look for it first
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.UnknownHostException || t instanceof java.nio.channels.UnresolvedAddressException) {
                return "the host name does not resolve";
            }
        }
        if (e instanceof java.net.ConnectException) return "the connection was refused";
        if (e instanceof java.net.http.HttpTimeoutException) return "no answer in time";
        if (e instanceof TooLarge) return e.getMessage();
        if (e instanceof javax.net.ssl.SSLException) return "TLS failed (" + e.getMessage() + ")";
        String m = e == null ? null : e.getMessage();
        if (e != null && e.getCause() != null && (m == null || m.isBlank())) return reason(e.getCause());
        return m == null || m.isBlank() ? (e == null ? "unknown failure" : e.getClass().getSimpleName()) : m;
    }

    private static final class TooLarge extends IOException {
        TooLarge(long limit) {
            super("the answer is larger than " + limit / (1024 * 1024) + " MB");
        }
    }

    /** The answer's bytes, refused past {@code limit}: a runaway body must not take the server's heap. */
    private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final long limit;
        private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        private final java.util.concurrent.CompletableFuture<byte[]> result = new java.util.concurrent.CompletableFuture<>();
        private java.util.concurrent.Flow.Subscription subscription;

        BoundedBody(long limit) {
            this.limit = limit;
        }

        @Override
        public java.util.concurrent.CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(java.util.concurrent.Flow.Subscription s) {
            subscription = s;
            s.request(Long.MAX_VALUE);
        }

        @Override
        public void onNext(List<java.nio.ByteBuffer> items) {
            for (java.nio.ByteBuffer b : items) {
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                bytes.write(chunk, 0, chunk.length);
            }
            if (bytes.size() > limit && !result.isDone()) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge(limit));
            }
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(bytes.toByteArray());
        }
    }
}
