package dev.engram.mcp.profile.toon;

import dev.engram.error.EngramUserException;
import dev.engram.error.InvalidArgumentException;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolArgs;
import dev.engram.memory.MemoryRules;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
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
        return "📥 Memory merged from Gist " + id + "\n  Added: " + r.added() + " · Updated: " + r.updated() + " · Unchanged: " + r.unchanged();
    }

    private String token() {
        String token = c.setting(ToonProfile.GITHUB_TOKEN_SETTING);
        if (token == null || token.isBlank()) {
            throw new EngramUserException("GITHUB_TOKEN is not set: give the server a GitHub token with the gist scope"
                    + " (export GITHUB_TOKEN=ghp_…); nothing was sent");
        }
        return token.strip();
    }

    private String api() {
        String api = c.setting(ToonProfile.GIST_API_SETTING);
        api = api == null || api.isBlank() ? DEFAULT_API : api.strip();
        return api.endsWith("/") ? api.substring(0, api.length() - 1) : api;
    }

    private static HttpRequest.Builder request(String url, String token) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/vnd.github+json");
    }

    private Map<String, Object> send(HttpRequest req, String what) {
        HttpResponse<String> resp;
        try {
            resp = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build().send(req, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new EngramUserException("could not reach the Gist API at " + api() + ": " + e.getMessage() + "; nothing was " + what + "ed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngramUserException("interrupted while talking to the Gist API; nothing was " + what + "ed");
        }
        if (resp.statusCode() / 100 != 2) {
            String body = resp.body() == null ? "" : resp.body();
            throw new EngramUserException("GitHub API error (" + resp.statusCode() + "): " + (body.length() > 300 ? body.substring(0, 300) : body)
                    + "; nothing was " + what + "ed");
        }
        try {
            return json.readObject(resp.body());
        } catch (RuntimeException e) {
            throw new EngramUserException("the Gist API answered something that is not JSON; nothing was " + what + "ed");
        }
    }
}
