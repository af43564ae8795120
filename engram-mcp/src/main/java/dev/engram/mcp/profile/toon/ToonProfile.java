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
 * One project, one zone: toon has no zone argument. The capture log, the secrets vault and backups
 * live in toon's memory folder as toon keeps them. memory_encrypt / memory_decrypt encrypt the store at
 * rest ({@link EncryptionTools}).
 */
public final class ToonProfile {
    public static final String NAME = "toon";
    /** The project directory (git root, else the working directory), set by the command line; else the working directory. */
    public static final String PROJECT_SETTING = "toon.project";
    /** The user-wide file of memory_export_global / memory_import_global, set by the command line. */
    public static final String GLOBAL_FILE_SETTING = "toon.global-file";
    /** toon's memory folder (capture log, secrets vault), set by the command line; else PROJECT/.toon-memory/memory. */
    public static final String MEMORY_DIR_SETTING = "toon.memory-dir";
    /** The secrets vault's key (TOON_MEMORY_KEY, else ENGRAM_KEY), set by the command line; absent: the vault refuses. */
    public static final String VAULT_KEY_SETTING = "toon.vault-key";
    /** memory_export_gist / memory_import_gist: the token (GITHUB_TOKEN) and the API root (ENGRAM_GIST_API, else GitHub's). */
    public static final String GITHUB_TOKEN_SETTING = "toon.github-token";
    public static final String GIST_API_SETTING = "toon.gist-api";
    /** The session id heartbeats use when the environment fixes one (TOON_MEMORY_SESSION_ID), set by the command line. */
    public static final String SESSION_ID_SETTING = "toon.session-id";
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
        String memoryDir = context.setting(MEMORY_DIR_SETTING);
        return create(context, project == null ? Path.of("").toAbsolutePath() : Path.of(project),
                global == null ? null : Path.of(global), memoryDir == null ? null : Path.of(memoryDir),
                context.setting(VAULT_KEY_SETTING), Clock.systemUTC());
    }

    /** The profile for the project at {@code project} (where toon's file references are checked). */
    public static ToolProfile create(ProfileContext context, Path project, Clock clock) {
        return create(context, project, null, clock);
    }

    /** As above, with toon's user-wide file for memory_export_global / memory_import_global (null: none). */
    public static ToolProfile create(ProfileContext context, Path project, Path globalFile, Clock clock) {
        return create(context, project, globalFile, null, null, clock);
    }

    /** As above, with toon's memory folder (null: PROJECT/.toon-memory/memory) and the vault's key (null: none). */
    public static ToolProfile create(ProfileContext context, Path project, Path globalFile, Path memoryDir, String vaultKey,
                                     Clock clock) {
        ToonContext c = new ToonContext(context, project, globalFile, clock, memoryDir, vaultKey);
        GlobalTools global = new GlobalTools(c);
        MemoryTools memory = new MemoryTools(c);
        ReportTools reports = new ReportTools(c);
        ContextTools ctx = new ContextTools(c, reports);
        FolderTools folder = new FolderTools(c, reports);
        GistTools gists = new GistTools(c);
        List<ToolHandler> tools = new ArrayList<>();
        // toon's registration order
        tools.add(memory.remember());
        tools.add(memory.recall());
        tools.add(memory.forget());
        tools.add(reports.stats());
        tools.add(reports.diff());
        tools.add(memory.suggest());
        tools.add(memory.smartRecall());
        tools.add(folder.summary());
        tools.add(reports.archive());
        EncryptionTools encryption = new EncryptionTools(c);
        tools.add(encryption.encrypt());
        tools.add(encryption.decrypt());
        tools.add(folder.secret());
        tools.add(folder.captured());
        tools.add(new ConsolidateTool(c).tool());
        tools.add(reports.sessions());
        tools.add(ctx.brief());
        tools.add(ctx.generate());
        tools.add(ctx.diff());
        tools.add(ctx.focus());
        tools.add(reports.health());
        tools.add(ctx.export());
        tools.add(folder.backup());
        tools.add(reports.primer());
        tools.add(reports.compress());
        tools.add(gists.exportGist());
        tools.add(gists.importGist());
        tools.add(global.exportGlobal());
        tools.add(global.importGlobal());
        tools.add(folder.mergeSessions());
        tools.add(reports.graphPath());
        tools.add(memory.checkpoint());
        tools.add(memory.pin());
        tools.add(memory.unpin());
        tools.add(memory.search());
        tools.add(memory.tag());
        tools.add(reports.reflect());
        tools.add(folder.promote());
        ViewerTools viewer = new ViewerTools(c);
        tools.add(viewer.visualize());
        List<SyncResourceSpecification> resources = List.of(
                Guarded.resource(resource("toon://memory/entries", "entries", "The memory in toon's TOON line format", "text/plain"),
                        () -> ToonData.export(c.engine(), c.zone())),
                Guarded.resource(resource("toon://memory/stats", "stats", "Memory statistics", "text/plain"), reports::statsText),
                Guarded.resource(resource("toon://memory/summaries", "summaries", "System primer (private-tagged entries excluded)",
                        "text/plain"), reports::primerText),
                viewer.resource());
        return new ToolProfile(NAME, INSTRUCTIONS, tools, resources, List.of());
    }

    private static Resource resource(String uri, String name, String description, String mime) {
        return Resource.builder(uri, name).description(description).mimeType(mime).build();
    }
}
