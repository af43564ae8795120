package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The toon profile's tools through the same adapter the server uses: toon's names, hints, text and errors. */
class ToonToolsTest {
    @TempDir
    Path project;
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());
    private ToolProfile profile;

    private ToolProfile profile() {
        if (profile == null) profile = ToonProfile.create(ProfileContext.of(engine, "default"), project, Clock.systemUTC());
        return profile;
    }

    private CallToolResult raw(String tool, Map<String, Object> args) {
        ToolHandler h = profile().tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    private String call(String tool, Map<String, Object> args) {
        CallToolResult r = raw(tool, args);
        String text = ((TextContent) r.content().get(0)).text();
        assertFalse(r.isError(), tool + " failed: " + text);
        return text;
    }

    private String error(String tool, Map<String, Object> args) {
        CallToolResult r = raw(tool, args);
        assertTrue(r.isError(), tool + " should have failed");
        return ((TextContent) r.content().get(0)).text();
    }

    @Test
    void hasToonsThirtyEightToolsWithItsHints() {
        List<String> names = profile().tools().stream().map(t -> t.definition().name()).toList();
        assertEquals(38, names.size(), names.toString());
        assertEquals(38, names.stream().distinct().count());
        for (String n : List.of("memory_forget", "memory_archive", "memory_encrypt", "memory_decrypt", "memory_import_gist", "memory_consolidate")) {
            assertTrue(hint(n, "destructive"), n);
        }
        for (String n : List.of("memory_stats", "memory_diff", "memory_suggest", "memory_primer", "context_brief", "context_health",
                "context_export", "context_diff", "context_focus", "context_generate", "memory_graph_path", "memory_sessions",
                "memory_compress", "memory_reflect", "memory_visualize")) {
            assertTrue(hint(n, "readOnly"), n);
        }
        assertEquals(List.of("toon://memory/entries", "toon://memory/stats", "toon://memory/summaries", "ui://viewer"),
                profile().resources().stream().map(r -> r.resource().uri()).toList());
    }

    /** toon takes any text as a key: Engram keeps it in its own form, says so, and finds the entry by either. */
    @Test
    void aKeyToonAcceptsIsKeptInEngramsFormAndFoundByEither() {
        String saved = call("memory_remember", Map.of("category", "decision", "key", "JWT-Rotation",
                "content", "Rotate JWT signing keys every 30 days"));
        assertTrue(saved.contains("decision/jwt-rotation") && saved.contains("Key 'JWT-Rotation' is kept as 'jwt-rotation'"), saved);
        assertTrue(call("memory_recall", Map.of("ids", "JWT-Rotation")).contains("Rotate JWT signing keys"));
        call("memory_remember", Map.of("category", "knowledge", "key", "缓存策略", "content", "Cache reads for 5 minutes",
                "links", "JWT-Rotation"));
        assertTrue(call("memory_recall", Map.of("ids", "缓存策略")).contains("Cache reads for 5 minutes"));
        assertTrue(call("memory_pin", Map.of("key", "JWT-Rotation", "priority", 3)).contains("jwt-rotation"));
        assertTrue(call("memory_forget", Map.of("key", "缓存策略", "action", "hard")).contains("Deleted"));
        assertEquals("No entries found for ids: 缓存策略", call("memory_recall", Map.of("ids", "缓存策略")));
    }

    /** A pinned entry is in every recall, but memory_suggest lists only what the context is related to, as toon does. */
    @Test
    void suggestLeavesOutAPinnedEntryTheContextDoesNotMatch() {
        call("memory_remember", Map.of("category", "decision", "key", "alpha-cache", "content", "Cache reads in Redis for 5 minutes"));
        call("memory_pin", Map.of("key", "alpha-cache", "priority", 4));
        assertEquals("No related entries found for \"kubernetes\"", call("memory_suggest", Map.of("context", "kubernetes")));
        assertTrue(call("memory_suggest", Map.of("context", "redis cache")).contains("alpha-cache"));
    }

    /** toon lists up to three related entries after a save, so the agent can link them; looking does not count as a read. */
    @Test
    void rememberListsRelatedEntriesWithoutCountingThemAsRead() {
        call("memory_remember", Map.of("category", "decision", "key", "use-postgres", "content", "Use PostgreSQL 16 for the orders service"));
        String first = call("memory_remember", Map.of("category", "knowledge", "key", "tabs", "content", "Indent with tabs"));
        assertFalse(first.contains("Related entries"), first);
        String saved = call("memory_remember", Map.of("category", "pattern", "key", "pg-pool",
                "content", "The orders service opens a PostgreSQL pool of 20"));
        assertTrue(saved.contains("\n\n🔗 Related entries:\n  [decision] use-postgres — Use PostgreSQL 16 for the orders service"), saved);
        assertFalse(saved.substring(saved.indexOf("Related entries")).contains("pg-pool"), "not itself: " + saved);
        java.util.function.LongSupplier reads = () -> engine.record("default", "use-postgres").orElseThrow().memory().accessCount();
        assertEquals(0, reads.getAsLong());
        call("memory_recall", Map.of("query", "postgresql orders"));
        assertEquals(1, reads.getAsLong(), "a recall is a read");
    }

    private boolean hint(String tool, String which) {
        var a = profile().tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow().definition().annotations();
        return which.equals("readOnly") ? a.readOnlyHint() : a.destructiveHint();
    }

    /** toon's schema lists five categories, requires one, and lists each tool's modes: nothing else is taken silently. */
    @Test
    void categoriesAndModesAreToonsOwn() {
        String wrong = error("memory_remember", Map.of("category", "fact", "key", "k1", "content", "a fact"));
        assertTrue(wrong.contains("'fact' is not a category") && wrong.contains("decision, pattern, bug, knowledge, warning"), wrong);
        assertTrue(error("memory_remember", Map.of("key", "k1", "content", "a fact")).contains("category is required"));
        assertTrue(call("memory_remember", Map.of("category", " Decision ", "key", "k1", "content", "use zod for validation"))
                .contains("decision/k1"));
        assertTrue(error("memory_search", Map.of("category", "fact", "query", "zod")).contains("'fact' is not a category"));
        assertTrue(error("memory_recall", Map.of("query", "zod", "mode", "bogus")).contains("send flat, graph, index"));
        assertTrue(error("memory_search", Map.of("query", "zod", "mode", "index")).contains("send flat, graph"));
        assertTrue(error("memory_search", Map.of()).contains("query is required"));
        assertTrue(call("memory_recall", Map.of("query", "zod", "mode", "graph")).contains("k1"));
    }

    /** A checkpoint is one memory whatever paths the session touched: long ones are shortened to their end. */
    @Test
    void aCheckpointFitsOneMemoryWhateverPathsItLists() {
        List<String> files = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) files.add("src/" + "deep/".repeat(200) + "file" + i + ".ts");
        ToonCheckpoint.Saved saved = ToonCheckpoint.save(engine, "default", java.time.Instant.parse("2026-12-07T08:00:00Z"), "abcdef12",
                null, "main", "halfway through the refactor", files);
        assertTrue(saved.content().length() <= dev.engram.memory.MemoryRules.MAX_CONTENT_CHARS, saved.content().length() + " characters");
        assertTrue(saved.content().contains("Files touched: …/deep/") && saved.content().contains("/file9.ts (+2 more)"), saved.content());
        assertThrows(dev.engram.error.InvalidArgumentException.class, () -> ToonCheckpoint.save(engine, "default",
                java.time.Instant.now(), "abcdef12", null, null, "n".repeat(4_001), List.of()));
        assertTrue(error("memory_summary", Map.of("action", "set", "file", "f".repeat(1_025), "summary", "s")).contains("file is 1025 characters"));
    }

    @Test
    void rememberPrintsTheSavedBlockAndTheSameKeyUpdates() throws Exception {
        Files.writeString(project.resolve("types.ts"), "export {}");
        String saved = call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation",
                "file", "types.ts", "tags", "validation;api", "ttl", "7d"));
        assertTrue(saved.matches("(?s)🧠 Saved: decision/use-zod \\(m_[a-z2-7]{10}\\)\nUse Zod for validation\n⏰ TTL: \\d{4}-\\d\\d-\\d\\d.*"), saved);
        assertTrue(saved.contains("🔎 Evidence: verified"), saved);
        String again = call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod 4 for validation",
                "file", "missing.ts"));
        assertTrue(again.startsWith("🧠 Updated: decision/use-zod"), again);
        assertTrue(again.contains("🔎 Evidence: unverified"), again);
        String recalled = call("memory_recall", Map.of("query", "zod validation"));
        assertTrue(recalled.startsWith("[decision] use-zod ("), recalled);
        assertTrue(recalled.contains("Use Zod 4 for validation"), "new content wins, as toon merges: " + recalled);
    }

    @Test
    void recallLayoutsIndexAndIdsInOrder() {
        call("memory_remember", Map.of("category", "knowledge", "key", "redis-pool", "content", "Redis pool size is 20 with a 5s timeout"));
        call("memory_remember", Map.of("category", "bug", "key", "redis-timeout", "content", "Redis timeout fixed by raising the pool"));
        String index = call("memory_recall", Map.of("query", "redis", "mode", "index"));
        Matcher m = Pattern.compile("\\[1] (redis-[a-z]+) \\((m_[a-z2-7]{10})\\) · (knowledge|bug) · \\d{4}-\\d\\d-\\d\\d · \\d+%").matcher(index);
        assertTrue(m.find(), index);
        assertFalse(index.contains("pool size is 20"), "the index shows no content: " + index);
        String byIds = call("memory_recall", Map.of("ids", "redis-timeout, no-such-key;" + m.group(2)));
        assertTrue(byIds.indexOf("redis-timeout") < byIds.lastIndexOf(m.group(1)) || m.group(1).equals("redis-timeout"), byIds);
        assertFalse(byIds.contains("no-such-key"), byIds);
        String tiny = call("memory_recall", Map.of("query", "redis", "budget", "tiny"));
        assertTrue(tiny.startsWith("[1] "), tiny);
        assertTrue(tiny.contains("[2] "), tiny);
        String normal = call("memory_recall", Map.of("query", "redis", "compact", true));
        assertTrue(normal.matches("(?s)\\[1] (knowledge|bug)/redis-.*"), normal);
        assertEquals("No results found for \"kubernetes\"", call("memory_recall", Map.of("query", "kubernetes")), "toon's words");
    }

    @Test
    void tinyLayoutPrintsThePinMarkAndTrimsBeforeItsEllipsisAsToonDoes() {
        String spaces = "Redis " + "x".repeat(72);           // 78 characters, then two blanks inside the cut
        String nbsp = "Redis " + "y".repeat(73);             // 79 characters, then a no-break space at the cut's end
        call("memory_remember", Map.of("category", "knowledge", "key", "redis-a", "content", spaces + "  then words past the cut\nline two"));
        call("memory_remember", Map.of("category", "knowledge", "key", "redis-b", "content", nbsp + "\u00A0and more past the cut"));
        call("memory_remember", Map.of("category", "knowledge", "key", "redis-c", "content", "Redis plain entry\nits second line"));
        call("memory_pin", Map.of("key", "redis-a", "priority", 1));
        call("memory_pin", Map.of("key", "redis-b", "priority", 3));
        String tiny = call("memory_recall", Map.of("query", "redis", "budget", "tiny"));
        // toon: `[n] category/key` + ` 📌` (priority 1) or ` 📌N`, then the first line cut at 80, trimEnd, `…`
        for (String block : List.of("knowledge/redis-a 📌\n  " + spaces + "…", "knowledge/redis-b 📌3\n  " + nbsp + "…",
                "knowledge/redis-c\n  Redis plain entry")) {
            assertTrue(Pattern.compile("(^|\n\n)\\[[1-3]] " + Pattern.quote(block) + "(\n\n|$)").matcher(tiny).find(), block + " in:\n" + tiny);
        }
        assertEquals(3, tiny.split("\n\n").length, tiny);
        assertEquals(spaces, ToonText.trimEnd(spaces + " \t\u00A0\u2007\u3000\uFEFF"));
        assertEquals(spaces + "\u001F", ToonText.trimEnd(spaces + "\u001F "), "not a JavaScript space");
    }

    @Test
    void forgetSoftRestoreHardAndSupersede() {
        call("memory_remember", Map.of("category", "decision", "key", "use-joi", "content", "Use Joi for validation"));
        call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation"));
        assertTrue(call("memory_forget", Map.of("key", "use-joi")).contains("marked obsolete"));
        assertFalse(call("memory_recall", Map.of("query", "joi")).contains("use-joi"));
        assertTrue(call("memory_forget", Map.of("key", "use-joi", "action", "restore")).contains("restored"));
        assertTrue(call("memory_recall", Map.of("query", "joi")).contains("use-joi"));
        String superseded = call("memory_forget", Map.of("key", "use-joi", "action", "supersede", "new_key", "use-zod", "reason", "Zod is better"));
        assertTrue(superseded.contains("superseded by use-zod"), superseded);
        assertFalse(call("memory_recall", Map.of("query", "joi")).contains("Use Joi"));
        assertTrue(call("memory_forget", Map.of("key", "use-zod", "action", "hard")).startsWith("🗑️ Deleted: use-zod"));
        assertTrue(error("memory_forget", Map.of("key", "use-zod", "action", "explode")).contains("action"));
    }

    @Test
    void badInputIsNamedAndNothingIsWritten() {
        assertTrue(error("memory_remember", Map.of("category", "idea", "key", "k", "content", "c")).contains("category"));
        assertTrue(error("memory_remember", Map.of("category", "decision", "content", "c")).contains("key"));
        assertTrue(error("memory_pin", Map.of("key", "x", "priority", 9)).contains("priority"));
        assertTrue(error("memory_diff", Map.of("since", "yesterday-ish")).contains("since"));
        assertTrue(call("memory_stats", Map.of()).contains("Total entries: 0"));
    }

    @Test
    void encryptionNeedsAStoreThatOffersItAndDecryptNeedsToonsKeyArgument() {
        // the in-memory test store has no encryption at rest (the embedded one does: EncryptedStoreTest, e2e/toon.test.mjs)
        assertTrue(error("memory_encrypt", Map.of()).contains("embedded store (SQLite) only"));
        assertTrue(error("memory_decrypt", Map.of("key", "")).contains("embedded store (SQLite) only"));
        assertTrue(error("memory_decrypt", Map.of("key", 123)).contains("key must be a string"));
        var decrypt = profile().tools().stream().filter(t -> t.definition().name().equals("memory_decrypt")).findFirst().orElseThrow();
        assertEquals(List.of("key"), decrypt.definition().inputSchema().get("required"), "toon's schema: key is required");
    }

    @Test
    void statsHealthPrimerTagPinAndConsolidate() {
        call("memory_remember", Map.of("category", "pattern", "key", "api-errors", "content", "API errors are returned as RFC 7807 problem details", "tags", "api;errors"));
        call("memory_remember", Map.of("category", "knowledge", "key", "secret-host", "content", "The staging host is behind the VPN", "tags", "private"));
        call("memory_remember", Map.of("category", "knowledge", "key", "dup-a", "content", "The Redis cache uses a fixed pool size with a 5s timeout"));
        call("memory_remember", Map.of("category", "knowledge", "key", "dup-b", "content", "The Redis cache uses a fixed pool size with a 5s timeout"));
        assertTrue(call("memory_stats", Map.of()).contains("Total entries: 4"));
        assertTrue(call("context_health", Map.of()).matches("(?s)🩺 Memory Health: \\d+/100 .*duplicate content.*"));
        String primer = call("memory_primer", Map.of());
        assertTrue(primer.startsWith("=== System Primer ==="), primer);
        assertTrue(primer.contains("api-errors"), primer);
        assertFalse(primer.contains("secret-host"), "private entries stay out of the primer: " + primer);
        assertTrue(call("memory_tag", Map.of("action", "add", "tags", "http", "ids", "api-errors, nope")).contains("not found: nope"));
        assertTrue(call("memory_recall", Map.of("ids", "api-errors")).contains("Tags: api;errors;http"));
        assertTrue(call("memory_pin", Map.of("key", "api-errors", "priority", 2)).contains("priority 2"));
        assertTrue(call("memory_recall", Map.of("ids", "api-errors")).contains("api-errors 📌2"));
        String dry = call("memory_consolidate", Map.of("dryRun", true));
        assertTrue(dry.contains("Merged: dup-"), dry);
        assertTrue(call("memory_stats", Map.of()).contains("Active: 4"), "a dry run writes nothing");
        assertTrue(call("memory_consolidate", Map.of()).contains("consolidated (identical): 1 entry merged"));
        assertTrue(call("memory_stats", Map.of()).contains("Active: 3"));
        assertTrue(call("memory_graph_path", Map.of("from", "api-errors", "to", "secret-host")).startsWith("No path"));
    }

    @Test
    void supersedeWithAnUnknownNewKeyWritesNothing() {
        call("memory_remember", Map.of("category", "decision", "key", "use-joi", "content", "Use Joi for validation"));
        for (int i = 0; i < 2; i++) {
            assertTrue(error("memory_forget", Map.of("key", "use-joi", "action", "supersede", "new_key", "nope", "reason", "Zod")).contains("new_key 'nope'"));
        }
        String shown = call("memory_recall", Map.of("ids", "use-joi"));
        assertTrue(shown.contains("Use Joi for validation") && !shown.contains("Superseded"), shown);
    }

    @Test
    void supersedingAnArchivedEntryIsRefusedBeforeItsReasonIsWritten() {
        // found by ProfileFuzzHttpTest (seed 33): the reason was appended, then archiving refused
        call("memory_remember", Map.of("category", "decision", "key", "use-joi", "content", "Use Joi for validation"));
        call("memory_forget", Map.of("key", "use-joi"));
        int versions = engine.record("default", "use-joi").orElseThrow().versions().size();
        String refused = error("memory_forget", Map.of("key", "use-joi", "action", "supersede", "reason", "Zod is better"));
        assertTrue(refused.contains("already archived"), refused);
        var after = engine.record("default", "use-joi").orElseThrow();
        assertEquals("Use Joi for validation", after.memory().content());
        assertFalse(after.memory().tags().contains("superseded"), after.memory().tags().toString());
        assertEquals(versions, after.versions().size());
    }

    @Test
    void aCallNamingMoreThanAThousandEntriesIsRefusedBeforeAnyLookup() {
        // found by ProfileFuzzHttpTest (seed 22): a 1 MB ids string was 250,000 lookups and no answer within a minute
        call("memory_remember", Map.of("category", "decision", "key", "use-joi", "content", "Use Joi for validation"));
        String ids = "use-joi " + "nope ".repeat(dev.engram.memory.MemoryRules.MAX_REFERENCES);
        String tag = error("memory_tag", Map.of("action", "add", "tags", "api", "ids", ids));
        assertTrue(tag.contains("ids names 1001 memories; send at most 1000 a call"), tag);
        String recall = error("memory_recall", Map.of("ids", ids));
        assertTrue(recall.contains("ids names 1001 memories"), recall);
        assertFalse(call("memory_recall", Map.of("ids", "use-joi")).contains("api"));
        assertEquals("none of ids names an entry: nope-1, nope-2, nope-3",
                error("memory_tag", Map.of("action", "add", "tags", "api", "ids", "nope-1,nope-2,nope-3")));
        assertEquals("none of ids names an entry: n1, n2, n3, n4, n5 and 2 more",
                error("memory_tag", Map.of("action", "add", "tags", "api", "ids", "n1 n2 n3 n4 n5 n6 n7")));
    }

    @Test
    void rememberWarnsOfAPossibleContradictionAsToonDoes() {
        call("memory_remember", Map.of("category", "warning", "key", "friday-deploys",
                "content", "Deploying the billing service on Friday evenings broke invoices"));
        String saved = call("memory_remember", Map.of("category", "knowledge", "key", "deploy-plan",
                "content", "Deploying the billing service every Friday"));
        assertTrue(saved.startsWith("🧠 Saved: knowledge/deploy-plan"), saved);
        assertTrue(saved.contains("🔎 Evidence: conflict"), saved);
        assertTrue(saved.contains("\n\n⚠️ Potential CONTRADICTION with existing memory:\n  ⚠️ [warning] friday-deploys ("), saved);
        assertTrue(saved.contains("% overlap) — overlaps a warning: possible landmine"), saved);
        assertTrue(saved.contains("→ The new claim was saved but flagged (evidence: conflict)."), saved);
        String calm = call("memory_remember", Map.of("category", "knowledge", "key", "lint", "content", "The linter runs on commit"));
        assertTrue(!calm.contains("CONTRADICTION") && !calm.contains("Evidence: conflict"), calm);
    }

    @Test
    void similarMergesArchiveRestorablyAndDryRunWritesNothing() {
        call("memory_remember", Map.of("category", "knowledge", "key", "a-long", "content", "The Redis cache uses a fixed pool size with a five second timeout always"));
        call("memory_remember", Map.of("category", "decision", "key", "b-mid", "content", "The Redis cache uses a fixed pool size with a five second timeout"));
        String dry = call("memory_consolidate", Map.of("mode", "similar", "dryRun", true));
        assertTrue(dry.contains("would be consolidated (similar): 1 entry merged (dry run, nothing written)\n  Merged: b-mid → a-long"), dry);
        assertTrue(call("memory_stats", Map.of()).contains("Active: 2"));
        String done = call("memory_consolidate", Map.of("mode", "similar"));
        assertTrue(done.contains("consolidated (similar): 1 entry merged (archived, restorable)\n  Merged: b-mid → a-long"), done);
        assertTrue(call("memory_stats", Map.of()).contains("Active: 1"));
        assertTrue(call("memory_consolidate", Map.of("mode", "similar")).contains("nothing to merge"));
    }

    @Test
    void similarMergesKeepEveryTag() {
        call("memory_remember", Map.of("category", "knowledge", "key", "a-long", "content", "The Redis cache uses a fixed pool size with a five second timeout always", "tags", "t1"));
        call("memory_remember", Map.of("category", "knowledge", "key", "b-mid", "content", "The Redis cache uses a fixed pool size with a five second timeout", "tags", "t2"));
        call("memory_remember", Map.of("category", "knowledge", "key", "c-short", "content", "The Redis cache uses a fixed pool size with a five second", "tags", "t3"));
        String merged = call("memory_consolidate", Map.of("mode", "similar"));
        assertTrue(merged.contains("2 entries merged"), merged);
        String kept = call("memory_recall", Map.of("ids", "a-long"));
        // the order of the merges depends on the store's order; the tags kept do not
        Matcher tags = Pattern.compile("Tags: ([^ \\n]*)").matcher(kept);
        assertTrue(tags.find(), kept);
        assertEquals(java.util.Set.of("t1", "t2", "t3"), java.util.Set.of(tags.group(1).strip().split(";")), kept);
    }

    @Test
    void versionsNeedDottedNumbersNotDates() {
        call("memory_remember", Map.of("category", "knowledge", "key", "standup-2026-11-30", "content", "Standup notes of Monday"));
        call("memory_remember", Map.of("category", "knowledge", "key", "standup-2026-12-01", "content", "Standup notes of Tuesday"));
        call("memory_remember", Map.of("category", "knowledge", "key", "node-18.2", "content", "Node 18.2 is required"));
        call("memory_remember", Map.of("category", "knowledge", "key", "node-20.1", "content", "Node 20.1 is required"));
        String out = call("memory_consolidate", Map.of("mode", "versions"));
        assertTrue(out.contains("1 older versions") && out.contains("Superseded: node-18.2 → node-20.1"), out);
        assertFalse(out.contains("standup"), out);
    }

    @Test
    void exportGlobalDoesNotFollowALinkOutOfTheProject() throws Exception {
        call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation"));
        Path outside = Files.createDirectories(project.getParent().resolve(project.getFileName() + "-elsewhere"));
        Files.createSymbolicLink(project.resolve("out"), outside);
        assertTrue(error("memory_export_global", Map.of("target", "out/g.toon")).contains("is not allowed"));
        assertFalse(Files.exists(outside.resolve("g.toon")), "nothing written through the link");
    }

    @Test
    void exportGlobalWritesOnlyTheGlobalFileOrToonFilesAndNeverOverOtherFiles() throws Exception {
        call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation"));
        Path data = Files.createDirectories(project.resolve(".toon-memory/memory")).resolve("data.toon");
        Files.writeString(data, "version: 1\n[0|]\n");
        assertTrue(error("memory_export_global", Map.of("target", ".toon-memory/memory/data.toon")).contains("target"));
        assertEquals("version: 1\n[0|]\n", Files.readString(data));
        Path outside = project.getParent().resolve(project.getFileName() + "-outside.toon");
        assertTrue(error("memory_export_global", Map.of("target", "../" + outside.getFileName())).contains("is not allowed"));
        assertFalse(Files.exists(outside));
        assertTrue(error("memory_export_global", Map.of("target", "notes.txt")).contains("is not allowed"));
        Files.writeString(project.resolve("mine.toon"), "my own notes, not toon\n");
        assertTrue(error("memory_export_global", Map.of("target", "mine.toon")).contains("not a TOON memory document"));
        assertEquals("my own notes, not toon\n", Files.readString(project.resolve("mine.toon")));
        assertFalse(Files.exists(project.resolve("mine.toon.bak")));
        assertTrue(call("memory_export_global", Map.of("target", "global/g.toon")).contains("Exported 1 entries"));
        assertTrue(call("memory_export_global", Map.of("target", "global/g.toon")).contains("Exported 1 entries"), "a TOON file is replaced");
        assertTrue(Files.exists(project.resolve("global/g.toon.bak")));
        assertTrue(error("memory_import_global", Map.of("source", "../" + outside.getFileName())).contains("is not allowed"));
        Files.write(project.resolve("latin.toon"), "version: 1\n[1|]\n  a1|decision|k|caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        String bad = error("memory_import_global", Map.of("source", "latin.toon"));
        assertTrue(bad.contains("latin.toon is not UTF-8 (byte "), bad);
    }

    @Test
    void importGlobalIsAllOrNothingAndNamesTheBadEntry() throws Exception {
        call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod"));
        String tooLong = "x".repeat(dev.engram.memory.MemoryRules.MAX_CONTENT_CHARS + 1);
        Files.writeString(project.resolve("g.toon"), "version: 1\n[3|]\n  a0000001|decision|use-zod|Use Zod v4 everywhere|||2999-01-01\n"
                + "  a0000002|decision|new-one|A new entry|||2999-01-01\n  a0000003|decision|huge-entry|" + tooLong + "|||2999-01-01\n");
        String e = error("memory_import_global", Map.of("source", "g.toon"));
        assertTrue(e.contains("huge-entry") && e.contains("nothing was imported"), e);
        assertTrue(call("memory_stats", Map.of()).contains("Total entries: 1"));
        String got = call("memory_recall", Map.of("ids", "use-zod"));
        // the file's text, not "v4" alone: a random id such as m_v4zm6lnfo7 holds that too
        assertTrue(got.contains("Use Zod") && !got.contains("Use Zod v4"), got);
    }

    private String firstKey(String text) {
        var m = java.util.regex.Pattern.compile("\\[\\w+\\] ([\\w-]+)").matcher(text);
        assertTrue(m.find(), "no entry in: " + text);
        return m.group(1);
    }

    @Test
    void hopsWalkTheLinksAsFarAsAsked() {
        call("memory_remember", Map.of("category", "knowledge", "key", "far", "content", "Signing secrets rotate monthly"));
        call("memory_remember", Map.of("category", "knowledge", "key", "near", "content", "Stripe signs every callback", "links", "far"));
        call("memory_remember", Map.of("category", "knowledge", "key", "seed", "content", "The billing service retries webhooks", "links", "near"));
        for (String mode : List.of("flat", "graph")) {
            String one = call("memory_recall", Map.of("query", "billing webhooks", "mode", mode));
            assertTrue(one.contains("] near") && !one.contains("] far"), mode + ", toon's default of one hop: " + one);
            String two = call("memory_recall", Map.of("query", "billing webhooks", "mode", mode, "hops", 2));
            assertTrue(two.contains("] far"), mode + ", two hops: " + two);
        }
        assertTrue(error("memory_recall", Map.of("query", "billing", "hops", 3)).contains("hops"));
    }

    @Test
    void rrfLetsAHubOneMatchRankDownLead() {
        StringBuilder notes = new StringBuilder();
        for (int i = 1; i <= 11; i++) {
            call("memory_remember", Map.of("category", "knowledge", "key", "note-" + i, "content", "Unrelated note number " + i));
            notes.append(" note-").append(i);
        }
        call("memory_remember", Map.of("category", "knowledge", "key", "hub", "content", "Deploy runbook for the cluster and its many services", "links", notes.toString().strip()));
        call("memory_remember", Map.of("category", "knowledge", "key", "plain", "content", "Deploy runbook: deploy with the runbook"));
        assertEquals("plain", firstKey(call("memory_recall", Map.of("query", "deploy runbook", "limit", 1))), "the linear score: best match first");
        assertEquals("hub", firstKey(call("memory_recall", Map.of("query", "deploy runbook", "limit", 1, "rrf", true))),
                "rank fusion: 3/(k+1) + 1/(k+0) beats 3/(k+0) + 1/(k+12) at k 4");
        String smart = call("memory_smart_recall", Map.of("intent", "deploy runbook", "limit", 1, "rrf", true));
        assertTrue(smart.startsWith("[1] knowledge/hub\n"), smart);
    }

    @Test
    void evidenceMovesEntriesAsToonsBoostsDo() throws Exception {
        Files.writeString(project.resolve("Present.java"), "class Present {}");
        // the same words: without evidence the newer entry would lead the tie
        call("memory_remember", Map.of("category", "knowledge", "key", "pool-a", "content", "The pool keeps twenty connections", "file", "Present.java:12"));
        Thread.sleep(5);
        call("memory_remember", Map.of("category", "knowledge", "key", "pool-b", "content", "The pool keeps twenty connections", "file", "Missing.java"));
        String recalled = call("memory_recall", Map.of("query", "pool connections", "limit", 1));
        assertEquals("pool-a", firstKey(recalled), "verified (+0.03) over unverified (-0.02): " + recalled);
    }

    @Test
    void theNormalLayoutCutsWhatOnlyALinkBroughtInAsToonDoes() {
        String longer = "Stripe signs every callback with a timestamp and an HMAC of the body, and rejects replays older than five minutes";
        call("memory_remember", Map.of("category", "knowledge", "key", "near", "content", longer, "tags", "stripe"));
        call("memory_remember", Map.of("category", "knowledge", "key", "seed", "content", "The billing service retries webhooks", "links", "near", "tags", "billing"));
        String normal = call("memory_recall", Map.of("query", "billing webhooks", "budget", "normal"));
        assertTrue(normal.startsWith("[1] knowledge/seed\n  The billing service retries webhooks · tags: billing · edges: ->2\n"), normal);
        assertTrue(normal.contains("[2] knowledge/near\n  " + longer.substring(0, 90).stripTrailing() + "… · tags: stripe · edges: ->1"), normal);
        String deep = call("memory_recall", Map.of("query", "billing webhooks"));
        assertTrue(deep.contains(longer), "deep shows all of it: " + deep);
    }

    @Test
    void theNormalLayoutPrintsTheEdgesAmongTheEntriesAndDeepTheirLinksAsToonDoes() {
        call("memory_remember", Map.of("category", "knowledge", "key", "pool", "content", "The webhook pool holds eight workers", "tags", "infra"));
        call("memory_remember", Map.of("category", "decision", "key", "queue", "content", "Webhook deliveries go through one queue",
                "tags", "billing;queue;infra", "links", "depends_on:pool"));
        call("memory_remember", Map.of("category", "pattern", "key", "retry", "content", "Webhook retries back off twice as long each time",
                "tags", "billing;queue"));
        call("memory_remember", Map.of("category", "warning", "key", "alone", "content", "Webhook secrets are never logged", "tags", "billing"));
        String normal = call("memory_recall", Map.of("query", "webhook", "budget", "normal"));
        Map<String, String> lines = new java.util.HashMap<>();
        Map<String, Integer> rank = new java.util.HashMap<>();
        for (String block : normal.split("\n\n")) {
            Matcher m = Pattern.compile("\\[(\\d)] [a-z]+/([a-z]+)\n  (.*)").matcher(block);
            assertTrue(m.matches(), block);
            rank.put(m.group(2), Integer.parseInt(m.group(1)));
            lines.put(m.group(2), m.group(3));
        }
        assertEquals(Set.of("pool", "queue", "retry", "alone"), rank.keySet(), normal);
        // queue links pool (either way counts) and shares two tags with retry; alone shares one tag only
        assertTrue(lines.get("queue").endsWith("· edges: ->" + Math.min(rank.get("pool"), rank.get("retry")) + ", ->"
                + Math.max(rank.get("pool"), rank.get("retry"))), normal);
        assertTrue(lines.get("pool").endsWith("· tags: infra · edges: ->" + rank.get("queue")), normal);
        assertTrue(lines.get("retry").endsWith("· tags: billing;queue · edges: ->" + rank.get("queue")), normal);
        assertTrue(lines.get("alone").endsWith("· tags: billing"), "no edge for one shared tag: " + normal);
        assertFalse(call("memory_search", Map.of("query", "webhook", "budget", "normal", "category", "decision")).contains("edges:"),
                "only the entries printed are numbered, so a lone entry has no edge");
        assertTrue(call("memory_search", Map.of("query", "webhook", "budget", "normal")).contains("edges: ->"));
        // toon's fetch by ids, its tiny layout and its smart recall print no edges
        assertFalse(call("memory_recall", Map.of("ids", "queue,pool,retry", "budget", "normal")).contains("edges:"));
        assertFalse(call("memory_recall", Map.of("query", "webhook", "budget", "tiny")).contains("edges:"));
        assertFalse(call("memory_smart_recall", Map.of("intent", "webhook")).contains("edges:"));
        // the deep layout prints an entry's own links, by ids as well
        String deep = call("memory_recall", Map.of("query", "webhook deliveries queue", "limit", 1));
        assertTrue(deep.matches("\\[decision] queue \\(m_[a-z2-7]{10}\\)\n  Webhook deliveries go through one queue\n"
                + "  File:  \\| Tags: billing;queue;infra \\| Date: \\d{4}-\\d\\d-\\d\\d\n  links: depends_on:pool"), deep);
        String pool = call("memory_recall", Map.of("ids", "pool"));
        assertFalse(pool.contains("links:"), "pool links nowhere itself: " + pool);
        assertTrue(call("memory_recall", Map.of("ids", "queue")).endsWith("\n  links: depends_on:pool"));
    }

    @Test
    void budgetTokensCountTheEdgesAnEntryAddsToTheOnesBeforeIt() {
        // every entry shares two tags with every other: each one kept adds an edge to all the entries before it
        for (int i = 0; i < 8; i++) {
            call("memory_remember", Map.of("category", "knowledge", "key", "hook-" + i, "content", "Hook " + i + " retries twice",
                    "tags", "hooks;retry"));
        }
        int printedEdges = 0;
        for (int budget = 20; budget <= 300; budget += 3) {
            String text = call("memory_recall", Map.of("query", "hook retries", "budget", "normal", "budget_tokens", budget, "limit", 8));
            if (text.equals(MemoryTools.tooSmall(budget))) continue; // not even the first entry fits: none printed
            int tokens = 0;
            for (String block : text.split("\n\n")) tokens += (int) Math.ceil(block.length() / 4.0) + block.strip().split("\\s+").length;
            assertTrue(tokens <= budget, "printed " + tokens + " tokens over a budget of " + budget + ":\n" + text);
            if (text.contains("edges: ->")) printedEdges++;
        }
        assertTrue(printedEdges > 50, "the edges were printed: " + printedEdges);
    }

    @Test
    void budgetTokensKeepTheTopOfTheRankingAndStopAtTheFirstEntryThatDoesNotFitAsToonDoes() {
        call("memory_remember", Map.of("category", "knowledge", "key", "first", "content", "Retry once"));
        call("memory_remember", Map.of("category", "knowledge", "key", "second", "content", "Retry " + "with a long explanation ".repeat(20)));
        call("memory_remember", Map.of("category", "knowledge", "key", "third", "content", "Retry twice"));
        // pins order the answer: first, second, third
        call("memory_pin", Map.of("key", "first", "priority", 3));
        call("memory_pin", Map.of("key", "second", "priority", 2));
        call("memory_pin", Map.of("key", "third", "priority", 1));
        String all = call("memory_recall", Map.of("query", "retry", "budget", "normal"));
        assertTrue(all.indexOf("/first") < all.indexOf("/second") && all.indexOf("/second") < all.indexOf("/third"), all);
        String cut = call("memory_recall", Map.of("query", "retry", "budget", "normal", "budget_tokens", 40));
        assertTrue(cut.contains("/first"), cut);
        assertFalse(cut.contains("/third"), "third would fit, but toon stops at second, which does not: " + cut);
        String smart = call("memory_smart_recall", Map.of("intent", "retry", "budget_tokens", 40));
        assertTrue(smart.contains("/first") && !smart.contains("/third"), smart);
        call("memory_pin", Map.of("key", "second", "priority", 5));
        assertEquals(MemoryTools.tooSmall(20), call("memory_recall", Map.of("query", "retry", "budget", "normal", "budget_tokens", 20)));
        assertTrue(MemoryTools.tooSmall(20).startsWith("No entry fits within budget_tokens 20"));
    }

    @Test
    void budgetTokensBoundsTheLayoutThatIsPrinted() {
        for (int i = 0; i < 8; i++) {
            call("memory_remember", Map.of("category", "knowledge", "key", "retry-" + i, "content",
                    "Retry policy number " + i + " backs off exponentially from 100 ms up to thirty seconds, with jitter"));
        }
        for (String budget : List.of("deep", "normal", "tiny")) {
            String text = call("memory_recall", Map.of("query", "retry policy", "budget", budget, "budget_tokens", 120, "limit", 8));
            int tokens = 0;
            for (String block : text.split("\n\n")) tokens += (int) Math.ceil(block.length() / 4.0) + block.strip().split("\\s+").length;
            assertTrue(tokens <= 120, budget + " printed " + tokens + " tokens over a budget of 120:\n" + text);
            assertTrue(text.contains("retry-"), budget + ": " + text);
        }
    }

    /**
     * toon's explain: the ↳ line (relevance, use, recency, toon's importance, explicit importance, evidence) under each
     * entry in every layout, and only with explain; the deep layout prints origin only when it is not the agent.
     */
    @Test
    void explainAddsToonsReasonLineInEveryLayoutAndOnlyThen() throws Exception {
        Files.writeString(project.resolve("Pool.java"), "class Pool {}");
        call("memory_remember", Map.of("category", "decision", "key", "pool-size", "content", "The connection pool holds twenty connections",
                "file", "Pool.java", "importance", "high"));
        String deep = call("memory_recall", Map.of("query", "connection pool"));
        assertFalse(deep.contains("↳"), "no reason without explain: " + deep);
        assertFalse(deep.contains("origin:"), "the agent's own entry does not name its origin: " + deep);
        assertTrue(deep.contains("\n  File: Pool.java | Tags:  | Date: "), deep);
        // recalled once before: used 1×, today; written today, so toon's importance is 0.6 + 0.4 × uses / 5: 0.68 MED at one
        // use, 0.76 HIGH at two (each recall below adds one)
        List<String> levels = List.of("MED", "HIGH", "HIGH");
        List<String> budgets = List.of("deep", "normal", "tiny");
        for (int i = 0; i < budgets.size(); i++) {
            String text = call("memory_recall", Map.of("query", "connection pool", "budget", budgets.get(i), "explain", true));
            String reason = "  ↳ 100% relevance · used " + (i + 1) + "× · used today · importance " + levels.get(i)
                    + " · explicit high · evidence verified";
            assertTrue(text.contains(reason), budgets.get(i) + ": " + text);
            assertTrue(text.endsWith("evidence verified"), "the ↳ line closes the entry: " + text);
        }
        assertTrue(call("memory_smart_recall", Map.of("intent", "connection pool", "explain", true)).contains("\n  ↳ 100% relevance"));
        assertFalse(call("memory_smart_recall", Map.of("intent", "connection pool")).contains("↳"));
        // a budget counts the ↳ lines it prints
        for (int i = 0; i < 8; i++) {
            call("memory_remember", Map.of("category", "knowledge", "key", "pool-" + i, "content",
                    "Pool rule " + i + " keeps the connection pool warm between bursts of requests"));
        }
        String budgeted = call("memory_recall", Map.of("query", "connection pool", "budget", "normal", "budget_tokens", 120,
                "limit", 8, "explain", true));
        int tokens = 0;
        for (String block : budgeted.split("\n\n")) tokens += (int) Math.ceil(block.length() / 4.0) + block.strip().split("\\s+").length;
        assertTrue(tokens <= 120, tokens + " tokens over a budget of 120:\n" + budgeted);
        assertTrue(budgeted.contains("↳"), budgeted);
    }

    @Test
    void aFileChangedSinceItsEntryCountsAsDriftInHealthAndSmartRecall() throws Exception {
        Files.writeString(project.resolve("Stable.java"), "class Stable {}");
        Files.writeString(project.resolve("Moved.java"), "class Moved {}");
        call("memory_remember", Map.of("category", "knowledge", "key", "moved", "content", "The queue worker acks after the write", "file", "Moved.java"));
        Thread.sleep(5);
        call("memory_remember", Map.of("category", "knowledge", "key", "stable", "content", "The queue worker acks after the write", "file", "Stable.java"));
        assertFalse(call("context_health", Map.of()).contains("changed since"));
        // without drift the newer of two equal entries leads; with it the older one drops below
        assertTrue(call("memory_smart_recall", Map.of("intent", "queue worker acks", "limit", 1)).startsWith("[1] knowledge/stable"));
        Files.setLastModifiedTime(project.resolve("Stable.java"), java.nio.file.attribute.FileTime.from(
                java.time.Instant.now().plus(java.time.Duration.ofDays(2))));
        String health = call("context_health", Map.of());
        assertTrue(health.contains("−4 entries whose file changed since they were written: stable"), health);
        assertTrue(health.contains("−3 potentially overlapping claims: moved ≈ stable (100% same category)"), health);
        String smart = call("memory_smart_recall", Map.of("intent", "queue worker acks", "limit", 1));
        assertTrue(smart.startsWith("[1] knowledge/moved"), "the drifted entry sinks by 0.3: " + smart);
        assertTrue(call("memory_recall", Map.of("query", "queue worker acks", "limit", 1)).startsWith("[knowledge] stable"),
                "plain recall has no drift penalty, as in toon");
    }

    @Test
    void contextBriefPrintsToonsSectionsWithRecallsNormalLayout() throws Exception {
        String longer = "Stripe signs every callback with a timestamp and an HMAC of the body, and rejects replays older than five minutes";
        call("memory_remember", Map.of("category", "pattern", "key", "api-errors", "content", "API errors are returned as RFC 7807 problem details", "tags", "api;errors"));
        Thread.sleep(5);
        call("memory_remember", Map.of("category", "knowledge", "key", "near", "content", longer, "tags", "stripe"));
        Thread.sleep(5);
        call("memory_remember", Map.of("category", "knowledge", "key", "seed", "content", "The billing service retries webhooks", "links", "near", "tags", "billing"));
        call("memory_remember", Map.of("category", "knowledge", "key", "secret-host", "content", "The billing host is behind the VPN", "tags", "private"));

        String task = call("context_brief", Map.of("task", "billing webhooks"));
        String[] sections = task.split("\n\n(?=## )");
        assertTrue(sections[0].matches("## Memory \\(4 entries\\)\nknowledge:3 pattern:1\nOrigin: [a-z]+:4"), sections[0]);
        // the entry that matched whole, the rest by toon's importance (here: newest first) cut to 80 characters, the edges among them
        assertEquals("## Relevant entries\n"
                + "[1] knowledge/seed\n  The billing service retries webhooks · tags: billing · edges: ->2\n\n"
                + "[2] knowledge/near\n  " + longer.substring(0, 80).stripTrailing() + "… · tags: stripe · edges: ->1\n\n"
                + "[3] pattern/api-errors\n  API errors are returned as RFC 7807 problem details · tags: api;errors", sections[1]);
        assertEquals("## Established patterns\n- **api-errors**: API errors are returned as RFC 7807 problem details", sections[2]);
        assertTrue(sections[3].startsWith("## Sessions"), task);
        assertEquals(4, sections.length, "no health section without a warning: " + task);
        assertFalse(task.contains("secret-host"), "private entries stay out: " + task);
        // the same blocks memory_recall prints in its normal layout
        String recall = call("memory_recall", Map.of("query", "billing webhooks", "budget", "normal"));
        assertTrue(recall.startsWith("[1] knowledge/seed\n  The billing service retries webhooks · tags: billing · edges: ->2\n"), recall);

        String limited = call("context_brief", Map.of("task", "billing webhooks", "limit", 1));
        assertTrue(limited.contains("## Relevant entries\n[1] knowledge/seed\n  The billing service retries webhooks · tags: billing\n\n## "), limited);

        String general = call("context_brief", Map.of());
        String top = general.split("\n\n(?=## )")[1];
        assertTrue(top.startsWith("## Top memories\n[1] "), general);
        assertTrue(top.contains("/near\n  " + longer + " · tags: stripe"), "whole entries in general mode: " + top);
        assertFalse(top.contains("edges:"), "toon prints no edges among its top memories: " + top);
        assertFalse(general.contains("secret-host"), general);

        assertTrue(error("context_brief", Map.of("limit", 0)).contains("limit"));
        assertTrue(error("context_brief", Map.of("limit", 101)).contains("limit"));
    }

    @Test
    void contextBriefWarnsOfExpiredEntriesAndStaysWithinItsBudget() {
        call("memory_remember", Map.of("category", "knowledge", "key", "short-lived", "content", "The demo token works until tomorrow", "ttl", "1d"));
        for (int i = 0; i < 30; i++) {
            call("memory_remember", Map.of("category", "decision", "key", "retry-" + i, "content",
                    ("Retry policy number " + i + " backs off exponentially from 100 ms up to thirty seconds, with jitter. ").repeat(3)));
        }
        String brief = call("context_brief", Map.of("limit", 30));
        String entries = brief.split("\n\n(?=## )")[1];
        String printed = entries.substring("## Top memories\n".length(), entries.lastIndexOf("\n\n("));
        assertTrue(ToonText.tokens(printed) <= ToonBriefing.BUDGET_TOKENS, entries);
        assertTrue(entries.matches("(?s).*\n\n\\(\\d+ more left out to stay within 800 tokens: memory_recall for more\\)"), entries);
        assertFalse(brief.contains("## Health"), brief);

        // ten days on, the entry with a one-day TTL has expired: counted, warned of, not listed
        profile = ToonProfile.create(ProfileContext.of(engine, "default"), project,
                Clock.offset(Clock.systemUTC(), java.time.Duration.ofDays(10)));
        String later = call("context_brief", Map.of("limit", 50));
        assertTrue(later.startsWith("## Memory (31 entries) | 1 expired\ndecision:30 knowledge:1\n"), later);
        assertTrue(later.endsWith("## Health\n⚠️ 1 entries with expired TTL (run memory_archive)"), later);
        assertFalse(later.contains("short-lived"), later);
    }

    @Test
    void contextBriefOnAnEmptyStoreAndWithAPinPutsThePinFirst() throws Exception {
        String empty = call("context_brief", Map.of());
        assertTrue(empty.startsWith("Memory: empty\n\n## Sessions"), "no entries section without entries: " + empty);

        call("memory_remember", Map.of("category", "warning", "key", "prod-db", "content", "Never run migrations against prod by hand"));
        Thread.sleep(5); // one newer than the other
        call("memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Validate input with zod"));
        String unpinned = call("context_brief", Map.of()).split("\n\n(?=## )")[1];
        assertTrue(unpinned.startsWith("## Top memories\n[1] decision/use-zod\n"), "the newest first at equal importance: " + unpinned);
        call("memory_pin", Map.of("key", "prod-db"));
        String pinned = call("context_brief", Map.of()).split("\n\n(?=## )")[1];
        assertEquals("## Top memories\n[1] warning/prod-db 📌\n  Never run migrations against prod by hand\n\n"
                + "[2] decision/use-zod\n  Validate input with zod", pinned, "pinned first, marked as toon marks priority 1");
    }
}
