package dev.engram.mcp.profile.toon;

import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.Guarded;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.JsonSchema;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The toon-memory face (seed-systems §1): its 38 tools with toon's names, arguments, string forms,
 * defaults, hints and text, and its {@code toon://memory/*} and {@code ui://viewer} resources, on Engram's store and ranking.
 * One project, one zone: toon has no zone argument. Tools whose behaviour is a later item of issue 16
 * (encryption, the vault, capture, gists, the global file, backups, session merging,
 * file summaries) exist with toon's schema and answer with an error naming what is not built yet.
 */
public final class ToonProfile {
    public static final String NAME = "toon";
    /** The project directory (git root, else the working directory), set by the command line; else the working directory. */
    public static final String PROJECT_SETTING = "toon.project";
    /** The user-wide file of memory_export_global / memory_import_global, set by the command line. */
    public static final String GLOBAL_FILE_SETTING = "toon.global-file";
    static final String INSTRUCTIONS = """
            Project memory (toon-memory compatible). At the start of a task call context_brief (or memory_recall with a
            few words); fetch full entries with memory_recall ids. Save decisions, patterns, bugs, knowledge and warnings
            with memory_remember (category, kebab-case key, content); the same key updates the entry. Retire an entry
            with memory_forget (soft, hard, restore, or supersede with new_key).""";

    private ToonProfile() {
    }

    public static ToolProfile create(ProfileContext context, JsonText json) {
        String project = context.setting(PROJECT_SETTING);
        String global = context.setting(GLOBAL_FILE_SETTING);
        return create(context, project == null ? Path.of("").toAbsolutePath() : Path.of(project),
                global == null ? null : Path.of(global), Clock.systemUTC());
    }

    /** The profile for the project at {@code project} (where toon's file references are checked). */
    public static ToolProfile create(ProfileContext context, Path project, Clock clock) {
        return create(context, project, null, clock);
    }

    /** As above, with toon's user-wide file for memory_export_global / memory_import_global (null: none). */
    public static ToolProfile create(ProfileContext context, Path project, Path globalFile, Clock clock) {
        ToonContext c = new ToonContext(context, project, globalFile, clock);
        GlobalTools global = new GlobalTools(c);
        MemoryTools memory = new MemoryTools(c);
        ReportTools reports = new ReportTools(c);
        ContextTools ctx = new ContextTools(c, reports);
        List<ToolHandler> tools = new ArrayList<>();
        // toon's registration order
        tools.add(memory.remember());
        tools.add(memory.recall());
        tools.add(memory.forget());
        tools.add(reports.stats());
        tools.add(reports.diff());
        tools.add(memory.suggest());
        tools.add(memory.smartRecall());
        tools.add(summary());
        tools.add(reports.archive());
        tools.add(notBuilt("memory_encrypt", "Encrypt the memory at rest with TOON_MEMORY_KEY.", JsonSchema.input(), false, true, true,
                "encryption at rest (issue 16 item 5); Engram's store is not encrypted"));
        tools.add(notBuilt("memory_decrypt", "Decrypt the memory.", JsonSchema.input()
                        .string("key", "The 64-hex key", "0123…").required("key"), false, true, true,
                "encryption at rest (issue 16 item 5); there is nothing encrypted to decrypt"));
        tools.add(notBuilt("memory_secret", "Encrypted vault for secrets that never enter recall.", JsonSchema.input()
                        .choice("action", "store, get, list or forget", List.of("store", "get", "list", "forget"))
                        .string("key", "Secret name", "gh_token").string("value", "store: the secret", "…")
                        .string("file", "Related file", "ci.yml").string("tags", "Tags separated by ';'", "github")
                        .string("ttl", "Expiry: 7d or YYYY-MM-DD", "30d").required("action"), false, false, false,
                "the secrets vault (issue 16 item 5); nothing was stored — keep secrets out of memory_remember"));
        tools.add(notBuilt("memory_captured", "The activity log captured by the hooks.", JsonSchema.input()
                        .integer("limit", "How many (default 20)", 1, 500, 20).string("tool", "Only this tool", "edit")
                        .string("file", "Only this file", "src/a.ts").bool("clear", "Empty the log"), false, false, false,
                "activity capture (engram hook capture, issue 16 item 9); no activity is recorded"));
        tools.add(new ConsolidateTool(c).tool());
        tools.add(reports.sessions());
        tools.add(ctx.brief());
        tools.add(ctx.generate());
        tools.add(ctx.diff());
        tools.add(ctx.focus());
        tools.add(reports.health());
        tools.add(ctx.export());
        tools.add(notBuilt("memory_backup", "Timestamped backup of the memory (last 10 kept).", JsonSchema.input(), false, false, false,
                "backups from the toon profile (issue 16 item 6); use `engram export --out FILE` meanwhile"));
        tools.add(reports.primer());
        tools.add(reports.compress());
        tools.add(notBuilt("memory_export_gist", "Upload the memory to a private GitHub Gist (GITHUB_TOKEN).", JsonSchema.input()
                        .string("description", "Gist description", "project memory"), false, false, false,
                "Gist sync (issue 16 item 6); nothing was uploaded"));
        tools.add(notBuilt("memory_import_gist", "Import memory from a Gist.", JsonSchema.input()
                        .string("gist_id", "Gist id or URL", "aa5a315d61ae9438b18d").bool("merge", "Merge by key (default true)")
                        .required("gist_id"), false, true, false,
                "Gist sync (issue 16 item 6); nothing was imported"));
        tools.add(global.exportGlobal());
        tools.add(global.importGlobal());
        tools.add(notBuilt("memory_merge_sessions", "Report (and optionally promote) what recent sessions did.", JsonSchema.input()
                        .string("since", "Time span (default 24h)", "24h").bool("promote", "Turn observations into entries"),
                false, false, false, "cross-process sessions and capture (issue 16 items 4 and 9)"));
        tools.add(reports.graphPath());
        tools.add(memory.checkpoint());
        tools.add(memory.pin());
        tools.add(memory.unpin());
        tools.add(memory.search());
        tools.add(memory.tag());
        tools.add(reports.reflect());
        tools.add(notBuilt("memory_promote", "Promote captured activity to entries (drafts below minConfidence).", JsonSchema.input()
                        .bool("dryRun", "Preview only (default true)")
                        .property("minConfidence", ToonTool.number("Below this, entries become drafts (default 0.65)", 0.65))
                        .integer("max", "At most this many (default 5)", 1, 100, 5).integer("days", "Look back this many days (default 7)", 1, 365, 7),
                false, false, false, "promotion from the capture log (issue 16 items 3 and 9); there is no capture log yet"));
        ViewerTools viewer = new ViewerTools(c);
        tools.add(viewer.visualize());
        List<SyncResourceSpecification> resources = List.of(
                Guarded.resource(resource("toon://memory/entries", "entries", "The memory in toon's TOON line format", "text/plain"),
                        () -> ToonData.export(c.engine(), c.zone(), Map.of())),
                Guarded.resource(resource("toon://memory/stats", "stats", "Memory statistics", "text/plain"), reports::statsText),
                Guarded.resource(resource("toon://memory/summaries", "summaries", "System primer (private-tagged entries excluded)",
                        "text/plain"), reports::primerText),
                viewer.resource());
        return new ToolProfile(NAME, INSTRUCTIONS, tools, resources, List.of());
    }

    private static Resource resource(String uri, String name, String description, String mime) {
        return Resource.builder(uri, name).description(description).mimeType(mime).build();
    }

    private static ToonTool summary() {
        return notBuilt("memory_summary", "Get or set a file's summary, to avoid re-reading big files.", JsonSchema.input()
                        .choice("action", "get or set", List.of("get", "set")).string("file", "File path", "src/big.ts")
                        .string("summary", "set: the summary", "Exports the router and three handlers").required("action", "file"),
                false, false, true, "file summaries (issue 16 item 3); nothing was stored");
    }

    private static ToonTool notBuilt(String name, String description, JsonSchema schema, boolean readOnly, boolean destructive,
                                     boolean idempotent, String what) {
        return ToonTool.notBuilt(ToonTool.define(name, description, schema, ToonTool.hints(readOnly, destructive, idempotent)), what);
    }
}
