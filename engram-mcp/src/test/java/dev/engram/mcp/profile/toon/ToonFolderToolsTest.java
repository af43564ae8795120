package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.engine.ImportCommand;
import dev.engram.engine.ImportPolicy;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.TestEngines;
import dev.engram.mcp.json.ExportCodec;
import dev.engram.mcp.json.JsonText;
import dev.engram.mcp.profile.ProfileContext;
import dev.engram.mcp.profile.ToolProfile;
import dev.engram.mcp.profile.nativeprofile.StructuredRenderer;
import dev.engram.mcp.profile.toon.ToonCapture.Observation;
import dev.engram.mcp.tool.ToolAdapter;
import dev.engram.mcp.tool.ToolHandler;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The toon tools over its memory folder: capture log, promotion, session merge, vault, summaries, backups, data.toon re-sync. */
class ToonFolderToolsTest {
    private static final String KEY = "a".repeat(64);
    @TempDir
    Path project;
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());

    private Path memoryDir() {
        return project.resolve(".toon-memory").resolve("memory");
    }

    private ToolProfile profile(String key) {
        return ToonProfile.create(ProfileContext.of(engine, "default"), project, null, null, key, Clock.systemUTC());
    }

    private CallToolResult raw(ToolProfile p, String tool, Map<String, Object> args) {
        ToolHandler h = p.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        return ToolAdapter.call(h, args);
    }

    private String call(ToolProfile p, String tool, Map<String, Object> args) {
        CallToolResult r = raw(p, tool, args);
        String text = ((TextContent) r.content().get(0)).text();
        assertFalse(r.isError(), tool + " failed: " + text);
        return text;
    }

    private String error(ToolProfile p, String tool, Map<String, Object> args) {
        CallToolResult r = raw(p, tool, args);
        assertTrue(r.isError(), tool + " should have failed");
        return ((TextContent) r.content().get(0)).text();
    }

    private static Observation obs(Instant ts, String session, String tool, String file, String summary) {
        return new Observation(ts.toString(), session, "code", "main", tool, Integer.toHexString(summary.hashCode()), file, summary);
    }

    @Test
    void confidenceIsToonsDeterministicHeuristic() {
        Instant now = Instant.now();
        // 0.5 +0.1 (40..300 chars) +0.15 (file) +0.1 (writing tool)
        assertEquals(0.85, ToonCapture.confidence(obs(now, "s", "edit", "src/lib/graph.ts",
                "Added typed link parsing to graph.ts with superseded_by edges")), 1e-9);
        // 0.5 -0.1 (short) -0.15 (looking tool) -0.1 (browsing word)
        assertEquals(0.15, ToonCapture.confidence(obs(now, "s", "read", "", "Viewed README to check docs")), 1e-9);
        assertEquals(0.1, ToonCapture.confidence(obs(now, "s", "edit", "a.ts", "  ")), 1e-9);
        // failure words add 0.1
        assertEquals(0.95, ToonCapture.confidence(obs(now, "s", "bash", "t.ts", "npm test failed: the parser cannot handle escaped pipes")), 1e-9);
        assertEquals(0.15, ToonCapture.confidence(obs(now, "s", "grep", "", "listed and scanned")), 1e-9);
        assertEquals("added-typed-link-parsing", ToonCapture.key(obs(now, "s", "edit", "", "Added typed link parsing to graph.ts")));
    }

    @Test
    void captureRedactsSecretsDeduplicatesAndKeepsTheNewest() throws Exception {
        JsonText json = JsonText.standard();
        Instant now = Instant.parse("2026-08-01T10:00:00Z");
        Map<String, Object> event = Map.of("tool_name", "Bash", "session_id", "sess-1",
                "tool_input", Map.of("command", "curl -H 'Authorization: Bearer abc.def.ghi' -d password=hunter2hunter2 https://x"));
        Observation o = ToonCapture.observe(event, "claude", "main", now, json::write);
        assertNotNull(o);
        assertFalse(o.summary().contains("abc.def.ghi"), o.summary());
        assertFalse(o.summary().contains("hunter2hunter2"), o.summary());
        assertTrue(o.summary().contains("<redacted>"), o.summary());
        assertEquals("sess-1", o.session());
        assertNull(ToonCapture.observe(Map.of("session_id", "x"), "claude", "main", now, json::write), "no tool, nothing to log");
        assertEquals("sk-<redacted> and ghp_<redacted>".replace("sk-<redacted>", "<redacted>").replace("ghp_<redacted>", "<redacted>"),
                ToonCapture.redact("sk-" + "A".repeat(24) + " and ghp_" + "b".repeat(36)));

        assertTrue(ToonCapture.append(memoryDir(), o, now));
        assertFalse(ToonCapture.append(memoryDir(), o, now.plusSeconds(60)), "the same call within five minutes is logged once");
        assertTrue(ToonCapture.append(memoryDir(), o, now.plusSeconds(400)));
        for (int i = 0; i < ToonCapture.MAX + 5; i++) {
            ToonCapture.append(memoryDir(), obs(now.plusSeconds(1000 + i), "s", "edit", "f.ts", "change " + i), now.plusSeconds(1000 + i));
        }
        List<Observation> log = ToonCapture.read(memoryDir());
        assertEquals(ToonCapture.MAX, log.size());
        assertEquals("change " + (ToonCapture.MAX + 4), log.get(0).summary(), "newest first");
        String file = Files.readString(ToonCapture.file(memoryDir()));
        assertTrue(file.startsWith("version: 1\nobservations[" + ToonCapture.MAX + "|]{ts|session|agent|branch|tool|hash|file|summary}:\n"), file);
    }

    @Test
    void captureNeverLogsASecretOrTheStoreKeyNorAHashOfThem() {
        JsonText json = JsonText.standard();
        Instant now = Instant.parse("2026-08-01T10:00:00Z");
        String key = "a1b2c3d4".repeat(8);
        List<Map<String, Object>> events = List.of(
                Map.of("tool_name", "mcp__engram__memory_secret", "tool_input", Map.of("action", "store", "key", "dbpw", "value", "hunter2correcthorse")),
                Map.of("tool_name", "mcp__engram__memory_decrypt", "tool_input", Map.of("key", key)),
                Map.of("tool_name", "memory_encrypt", "tool_input", Map.of("key", key)),
                Map.of("tool_name", "mcp__other__login", "tool_input", Map.of("user", "ann", "password", "opensesame",
                        "nested", Map.of("apiKey", "plainapikeyvalue", "client_secret", List.of("s3cr3tv4lue")), "accessToken", "tok123")));
        for (Map<String, Object> e : events) {
            Observation o = ToonCapture.observe(e, "claude", "main", now, json::write);
            String logged = o.line();
            for (String secret : List.of("hunter2correcthorse", "dbpw", key, "opensesame", "plainapikeyvalue", "s3cr3tv4lue", "tok123")) {
                assertFalse(logged.contains(secret), secret + " logged: " + logged);
            }
            Observation other = ToonCapture.observe(Map.of("tool_name", e.get("tool_name"), "tool_input",
                    ToonCapture.withoutCredentials((String) e.get("tool_name"), e.get("tool_input"))), "claude", "main", now, json::write);
            assertEquals(other.hash(), o.hash(), "the hash is of the redacted input");
        }
        Observation secret = ToonCapture.observe(events.get(0), "claude", "main", now, json::write);
        assertTrue(secret.summary().contains("store"), "the action is still logged: " + secret.summary());
        Observation login = ToonCapture.observe(events.get(3), "claude", "main", now, json::write);
        assertTrue(login.summary().contains("ann"), "what is not a credential stays: " + login.summary());
        assertTrue(ToonCapture.credentialName("GITHUB_TOKEN") && ToonCapture.credentialName("private-key")
                && ToonCapture.credentialName("Authorization"));
        assertFalse(ToonCapture.credentialName("key") || ToonCapture.credentialName("max_tokens")
                || ToonCapture.credentialName("keyboard") || ToonCapture.credentialName("budget_tokens"));
    }

    @Test
    void redactionCoversTheShapesCredentialsComeIn() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("psql postgres://admin:pw0rd@db:5432/app", "pw0rd");
        cases.put("git clone https://oauth2:glpat-abcdefghijklmnopqrstu@gitlab.com/x.git", "glpat-abcdefghijklmnopqrstu");
        cases.put("curl -u ann:s3cr3t https://api", "s3cr3t");
        cases.put("mysql --password hunter2 -h db", "hunter2");
        cases.put("tool --token=abc123xyz run", "abc123xyz");
        cases.put("export STRIPE=sk_live_" + "a".repeat(24), "sk_live_" + "a".repeat(24));
        cases.put("key AIza" + "B".repeat(35), "AIza" + "B".repeat(35));
        cases.put("-H 'Authorization: Basic YWxhZGRpbjpvcGVu'", "YWxhZGRpbjpvcGVu");
        cases.put("DB_PASSWORD=hunter2 ./run", "hunter2");
        cases.put("{\"password\":\"pa55\",\"user\":\"ann\"}", "pa55");
        cases.put("{\"api_key\": \"k-123456\"}", "k-123456");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            String out = ToonCapture.redact(c.getKey());
            assertFalse(out.contains(c.getValue()), c.getKey() + " -> " + out);
            assertTrue(out.contains("<redacted>"), out);
        }
        assertEquals("curl -u ann:<redacted> https://api", ToonCapture.redact("curl -u ann:s3cr3t https://api"), "the user stays");
        assertEquals("git push origin main --force-with-lease", ToonCapture.redact("git push origin main --force-with-lease"));
        assertEquals("see https://example.com/a:b@c", ToonCapture.redact("see https://example.com/a:b@c"), "no credentials there");
    }

    @Test
    void aSealedBackupOpensWithTheStoresKeyOnly() throws Exception {
        engine.remember(dev.engram.engine.RememberCommand.builder("the launch checklist lives in ops/launch.md").key("launch").build());
        var codec = new ExportCodec(new StructuredRenderer(), JsonText.standard());
        ToonBackups.Written w = ToonBackups.write(engine, "default", memoryDir(), codec, Instant.parse("2026-08-01T10:00:00Z"), KEY);
        String onDisk = Files.readString(w.file());
        assertTrue(ToonData.looksEncrypted(onDisk) && !onDisk.contains("launch"), onDisk);
        String none = assertThrows(EngramUserException.class, () -> ToonBackups.read(w.file(), codec, null)).getMessage();
        assertTrue(none.contains("is sealed") && none.contains("TOON_MEMORY_KEY") && none.contains("nothing was restored"), none);
        String wrong = assertThrows(EngramUserException.class, () -> ToonBackups.read(w.file(), codec, "b".repeat(64))).getMessage();
        assertTrue(wrong.contains("does not open") && !wrong.contains("b".repeat(64)), wrong);
        List<ExportRecord> back = ToonBackups.read(w.file(), codec, KEY);
        assertEquals(List.of("the launch checklist lives in ops/launch.md"), back.stream().map(r -> r.memory().content()).toList());
        assertEquals(1, ToonBackups.list(memoryDir()).size());
        try (var files = Files.list(ToonBackups.dir(memoryDir()))) {
            assertEquals(List.of(w.file().getFileName().toString()), files.map(f -> f.getFileName().toString()).toList(), "no .tmp left");
        }
    }

    @Test
    void anEmptyDataToonIsLeftPlainBySealingAndOneSealedEmptyOpensAgain() throws Exception {
        Files.createDirectories(memoryDir());
        Path data = memoryDir().resolve("data.toon");
        Files.writeString(data, "");
        byte[] key = HexFormat.of().parseHex(KEY);
        assertEquals(List.of(), ToonFolderSealing.seal(memoryDir(), key), "nothing to hide in an empty file");
        assertEquals("", Files.readString(data));
        // an earlier version sealed it as iv:tag: with no ciphertext; that still opens
        Files.writeString(data, dev.engram.crypto.AesGcm.sealToon("", key));
        assertTrue(ToonData.looksEncrypted(Files.readString(data)), Files.readString(data));
        assertEquals(List.of("data.toon"), ToonFolderSealing.open(memoryDir(), key, new ArrayList<>()));
        assertEquals("", Files.readString(data));
    }

    @Test
    void twoWritersOfTheVaultKeepEverySecret() throws Exception {
        int each = 15;
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (String writer : List.of("a", "b")) {
            // a vault object per writer, as two processes have: only the lock file is shared
            ToonVault vault = new ToonVault(memoryDir(), KEY);
            writers.add(new Thread(() -> {
                try {
                    for (int i = 0; i < each; i++) vault.store(writer + i, "v" + i, "", "", "2026-08-01", "");
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        writers.forEach(Thread::start);
        for (Thread t : writers) t.join();
        assertEquals(List.of(), failures);
        assertEquals(2 * each, new ToonVault(memoryDir(), KEY).list().size());
        assertFalse(Files.exists(memoryDir().resolve(ToonVault.FILE + ".lock")), "the lock is let go");
    }

    @Test
    void capturedListsFiltersAndClears() throws Exception {
        ToolProfile p = profile(null);
        assertTrue(call(p, "memory_captured", Map.of()).startsWith("No captured activity."));
        Instant now = Instant.now();
        ToonCapture.append(memoryDir(), obs(now.minusSeconds(60), "s1", "read", "README.md", "read the readme"), now);
        ToonCapture.append(memoryDir(), obs(now, "s1", "edit", "src/a.ts", "rename the parser"), now);
        String all = call(p, "memory_captured", Map.of());
        assertTrue(all.startsWith("🔍 Captured activity (2):"), all);
        assertTrue(all.indexOf("rename the parser") < all.indexOf("read the readme"), "newest first: " + all);
        String edits = call(p, "memory_captured", Map.of("tool", "EDIT"));
        assertTrue(edits.contains("(1)") && edits.contains("code@main/edit (src/a.ts)"), edits);
        assertTrue(error(p, "memory_captured", Map.of("limit", 0)).contains("limit"));
        assertEquals("🧹 Capture log cleared", call(p, "memory_captured", Map.of("clear", true)));
        assertTrue(ToonCapture.read(memoryDir()).isEmpty());
    }

    @Test
    void promoteDryRunWritesNothingThenDraftsStayOutOfRecall() throws Exception {
        ToolProfile p = profile(null);
        call(p, "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation"));
        assertTrue(call(p, "memory_promote", Map.of()).startsWith("No captured activity."));
        Instant now = Instant.now();
        ToonCapture.append(memoryDir(), obs(now.minusSeconds(5), "s1", "read", "", "Viewed README to check docs"), now);
        ToonCapture.append(memoryDir(), obs(now, "s1", "edit", "src/lib/graph.ts",
                "Added typed link parsing to graph.ts with superseded_by edges"), now);
        ToonCapture.append(memoryDir(), obs(now, "s1", "edit", "", "Use Zod for validation"), now);
        ToonCapture.append(memoryDir(), obs(now.minus(Duration.ofDays(9)), "s0", "edit", "old.ts", "An old change nobody promoted in time"), now);

        String dry = call(p, "memory_promote", Map.of("dryRun", true));
        assertTrue(dry.startsWith("🔍 Dry run — 2 candidate(s) from the last 7d (threshold 0.65):"), dry);
        assertTrue(dry.contains("[active] Added typed link parsing") && dry.contains("(conf 0.85) @ src/lib/graph.ts"), dry);
        assertTrue(dry.contains("[draft] Viewed README to check docs (conf 0.15)"), dry);
        assertEquals(1, engine.stats("default").total(), "a dry run writes nothing");
        assertTrue(call(p, "memory_promote", Map.of()).contains("Dry run"), "dryRun defaults to true");

        assertTrue(error(p, "memory_promote", Map.of("minConfidence", 2)).contains("minConfidence"));
        assertTrue(error(p, "memory_promote", Map.of("max", 0)).contains("max"));
        assertEquals(1, engine.stats("default").total(), "refused calls write nothing");

        String done = call(p, "memory_promote", Map.of("dryRun", false));
        assertTrue(done.startsWith("📤 Promoted 1 active + 1 draft from the capture log."), done);
        Memory active = find("added-typed-link-parsing");
        assertEquals(MemoryStatus.ACTIVE, active.status());
        assertEquals(0.85, active.confidence(), 1e-9);
        assertEquals("src/lib/graph.ts", active.file());
        assertTrue(active.tags().contains("captured"));
        Memory draft = find("viewed-readme-to-check");
        assertEquals(MemoryStatus.DRAFT, draft.status());
        assertTrue(draft.tags().contains("draft"));
        String recall = call(p, "memory_recall", Map.of("query", "viewed readme docs"));
        assertFalse(recall.contains("Viewed README"), "drafts stay out of recall: " + recall);
        assertTrue(call(p, "memory_recall", Map.of("query", "typed link parsing")).contains("added-typed-link-parsing"));
        assertTrue(call(p, "memory_promote", Map.of("dryRun", false)).startsWith("✅ Nothing new to promote"));
        assertTrue(call(p, "memory_forget", Map.of("key", "viewed-readme-to-check", "action", "restore")).contains("restored"));
        assertEquals(MemoryStatus.ACTIVE, find("viewed-readme-to-check").status(), "restore activates a draft, as toon says");
    }

    private Memory find(String key) {
        List<ExportRecord> all = new ArrayList<>();
        engine.export("default", all::add);
        return all.stream().map(ExportRecord::memory).filter(m -> m.key().equals(key)).findFirst().orElseThrow(() -> new AssertionError(key));
    }

    @Test
    void mergeSessionsReportsSharedFilesAndPromotes() throws Exception {
        ToolProfile p = profile(null);
        assertTrue(call(p, "memory_merge_sessions", Map.of()).startsWith("No sessions found in the last 24h"));
        Instant now = Instant.now();
        ToonCapture.append(memoryDir(), new Observation(now.minusSeconds(120).toString(), "s1", "claude", "main", "edit", "h1", "src/a.ts",
                "Moved the retry policy into src/a.ts"), now);
        ToonCapture.append(memoryDir(), new Observation(now.toString(), "s2", "codex", "feature", "edit", "h2", "src/a.ts",
                "Retry policy now reads its limits from config"), now);
        String report = call(p, "memory_merge_sessions", Map.of("since", "1h"));
        assertTrue(report.startsWith("🔀 Session Merge Report (2 sessions, last 1h)"), report);
        assertTrue(report.contains("Shared files (1):\n  src/a.ts ↔ codex@feature, claude@main"), report);
        assertTrue(report.contains("Unique observations (2 of 2 total):"), report);
        assertEquals(0, engine.stats("default").total());
        assertTrue(error(p, "memory_merge_sessions", Map.of("since", "lately")).contains("since"));
        String promoted = call(p, "memory_merge_sessions", Map.of("promote", true));
        assertTrue(promoted.endsWith("📤 Promoted 2 observations to memory."), promoted);
        assertTrue(find("retry-policy-now-reads").tags().containsAll(List.of("session-merge", "codex", "feature")));
    }

    @Test
    void vaultFailsClosedWithoutAKeyAndWithTheWrongOne() {
        ToolProfile none = profile(null);
        String msg = error(none, "memory_secret", Map.of("action", "store", "key", "gh_token", "value", "shhh"));
        assertTrue(msg.contains("TOON_MEMORY_KEY") && msg.contains("64 hex"), msg);
        assertFalse(Files.exists(memoryDir().resolve(ToonVault.FILE)), "nothing written without a key");
        assertTrue(error(profile("abc"), "memory_secret", Map.of("action", "list")).contains("64 hex"));

        ToolProfile p = profile(KEY);
        call(p, "memory_secret", Map.of("action", "store", "key", "gh_token", "value", "shhh-plaintext"));
        String wrong = error(profile("b".repeat(64)), "memory_secret", Map.of("action", "get", "key", "gh_token"));
        assertTrue(wrong.contains("wrong TOON_MEMORY_KEY"), wrong);
        assertFalse(wrong.contains("shhh"), wrong);
        assertTrue(error(p, "memory_secret", Map.of("action", "store", "key", "x")).contains("value"));
        assertTrue(error(p, "memory_secret", Map.of("action", "get")).contains("key"));
        assertTrue(error(p, "memory_secret", Map.of("action", "peek", "key", "x")).contains("action"));
    }

    @Test
    void secretsStayOutOfRecallExportAndTheFile() throws Exception {
        ToolProfile p = profile(KEY);
        assertEquals("🔐 Vault is empty.", call(p, "memory_secret", Map.of("action", "list")));
        String stored = call(p, "memory_secret", Map.of("action", "store", "key", "gh_token", "value", "shhh-plaintext",
                "tags", "github", "file", "ci.yml", "ttl", "30d"));
        assertTrue(stored.startsWith("🔐 Stored secret \"gh_token\" ("), stored);
        assertFalse(stored.contains("shhh"), stored);
        String got = call(p, "memory_secret", Map.of("action", "get", "key", "gh_token"));
        assertTrue(got.startsWith("Secret: gh_token · file: ci.yml · tags: github · date: "), got);
        assertTrue(got.endsWith("\n\nshhh-plaintext"), got);
        String list = call(p, "memory_secret", Map.of("action", "list"));
        assertTrue(list.contains("gh_token (ci.yml)") && !list.contains("shhh"), list);
        call(p, "memory_secret", Map.of("action", "store", "key", "gh_token", "value", "second-value"));
        assertTrue(call(p, "memory_secret", Map.of("action", "get", "key", "gh_token")).contains("file: ci.yml"), "a new value keeps the metadata");

        String raw = Files.readString(memoryDir().resolve(ToonVault.FILE));
        assertFalse(raw.contains("second-value") || raw.contains("gh_token") || raw.contains("ci.yml"), raw);
        assertEquals(0, engine.stats("default").total(), "the vault writes nothing to the store");
        assertEquals("No results found for \"gh_token second-value\"", call(p, "memory_recall", Map.of("query", "gh_token second-value")),
                "nothing is found (toon's answer repeats the query)");
        assertFalse(call(p, "context_export", Map.of("format", "full")).contains("second-value"));
        assertEquals("🗑️ Removed secret \"gh_token\" from the vault.", call(p, "memory_secret", Map.of("action", "forget", "key", "gh_token")));
        assertTrue(call(p, "memory_secret", Map.of("action", "get", "key", "gh_token")).startsWith("❌ No secret \"gh_token\""));
        assertTrue(call(p, "memory_secret", Map.of("action", "forget", "key", "gh_token")).startsWith("❌ No secret"));
    }

    @Test
    void sealedFormIsToons() throws Exception {
        byte[] key = HexFormat.of().parseHex(KEY);
        // made by node's crypto (aes-256-gcm, the IV below), as toon's encrypt() writes it
        String fromToon = "00112233445566778899aabbccddeeff:a777b7653b0636570b60137170dee648:5af38dc3193a025642978b0e4ac4";
        assertEquals("shhh-plaintext", ToonVault.open(fromToon, key));
        String sealed = ToonVault.seal("round trip ✓", key);
        assertTrue(sealed.matches("[0-9a-f]{32}:[0-9a-f]{32}:[0-9a-f]+"), sealed);
        assertEquals("round trip ✓", ToonVault.open(sealed, key));
        String tampered = sealed.substring(0, sealed.length() - 1) + (sealed.endsWith("0") ? "1" : "0");
        assertThrows(java.security.GeneralSecurityException.class, () -> ToonVault.open(tampered, key));
    }

    @Test
    void summariesAreKeptAndExported() {
        ToolProfile p = profile(null);
        assertEquals("No summaries saved for \"src/big.ts\"", call(p, "memory_summary", Map.of("action", "get", "file", "src/big.ts")));
        assertEquals("📝 Summary saved for src/big.ts", call(p, "memory_summary", Map.of("action", "set", "file", "src/big.ts",
                "summary", "Exports the router | three handlers")));
        assertEquals("Exports the router | three handlers", call(p, "memory_summary", Map.of("action", "get", "file", "src/big.ts")));
        assertEquals("No summary for \"src/other.ts\"", call(p, "memory_summary", Map.of("action", "get", "file", "src/other.ts")));
        assertTrue(error(p, "memory_summary", Map.of("action", "set", "file", "a.ts")).contains("summary"));
        assertTrue(error(p, "memory_summary", Map.of("action", "drop", "file", "a.ts")).contains("action"));
        String entries = ToonData.export(engine, "default", FolderTools.summaries(engine.mark("toon-summaries/default").orElse("")));
        assertTrue(entries.contains("summaries:\n  src/big.ts: Exports the router \\| three handlers\n"), entries);
    }

    @Test
    void backupsKeepTheLastTenAndRestoreBringsOneBack() throws Exception {
        Instant t0 = Instant.parse("2026-08-01T10:00:00Z");
        ToolProfile p = profile(null);
        call(p, "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod for validation"));
        String first = call(p, "memory_backup", Map.of());
        assertTrue(first.startsWith("💾 Memory backed up to engram-") && first.contains("(1 memories)"), first);
        ExportCodec codec = new ExportCodec(new StructuredRenderer(), JsonText.standard());
        for (int i = 1; i <= 11; i++) ToonBackups.write(engine, "default", memoryDir(), codec, t0.plusSeconds(i));
        List<Path> kept = ToonBackups.list(memoryDir());
        assertEquals(ToonBackups.KEEP, kept.size());
        assertFalse(kept.stream().anyMatch(b -> b.getFileName().toString().contains("2026-08-01T10-00-01Z")), "the oldest went first");
        try (var s = Files.list(ToonBackups.dir(memoryDir()))) {
            assertTrue(s.noneMatch(f -> f.toString().endsWith(".tmp")), "no temporary file is left");
        }
        Path backup = kept.get(0);
        call(p, "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Valibot instead of Zod"));
        call(p, "memory_forget", Map.of("key", "use-zod", "action", "hard"));
        assertEquals(0, engine.stats("default").total());
        engine.importAll(new ImportCommand(ToonBackups.read(backup, codec), ImportPolicy.REPLACE, false));
        assertEquals("Use Zod for validation", find("use-zod").content());
        Files.writeString(backup, "{not json\n");
        assertTrue(assertThrows(EngramUserException.class, () -> ToonBackups.read(backup, codec)).getMessage().contains("line 1"));
    }

    @Test
    void whatToonChangesInDataToonWhileTheServerRunsComesIn() throws Exception {
        Files.createDirectories(memoryDir());
        Path data = memoryDir().resolve("data.toon");
        String header = "version: 1\nentries[1|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence}:\n";
        String zod = "  abc12345|decision|use-zod|Use Zod for validation|src/types.ts|types|2026-07-25||0||0.70|1.0\n";
        String joi = "  e1|decision|use-joi|Use Joi for validation|t.ts|validation|2026-07-01||0||0.5|1.0\n";
        Files.writeString(data, header + zod);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(err, true, StandardCharsets.UTF_8);
        Supplier<Engine> engines = ToonData.importingOnce(() -> engine, "default", List.of(project), log);
        assertEquals(1, engines.get().stats("default").total());
        call(profile(null), "memory_remember", Map.of("category", "decision", "key", "use-zod", "content", "Use Zod 4 for validation"));
        Files.writeString(data, header.replace("[1|]", "[2|]") + zod + joi + "summaries:\n  src/big.ts: the router\n");
        assertEquals(2, engines.get().stats("default").total(), "the entry toon added came in");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("imported its 1 new or changed entries"), err.toString(StandardCharsets.UTF_8));
        assertEquals("Use Zod 4 for validation", find("use-zod").content(), "an entry the file did not change is not imported again");
        assertEquals("the router", FolderTools.summaries(engine.mark("toon-summaries/default").orElse("")).get("src/big.ts"));
        engine.forget(new dev.engram.engine.ForgetCommand(find("use-joi").id(), "default", dev.engram.engine.ForgetAction.HARD));
        Files.writeString(data, header.replace("[1|]", "[2|]") + zod + joi + "summaries:\n  src/big.ts: the router, two handlers\n");
        assertEquals(1, engines.get().stats("default").total(), "deleted in Engram, unchanged in the file: it stays deleted");
        assertEquals("the router, two handlers", FolderTools.summaries(engine.mark("toon-summaries/default").orElse("")).get("src/big.ts"));
        // a restart over an unchanged file imports nothing again
        err.reset();
        assertEquals(1, ToonData.importingOnce(() -> engine, "default", List.of(project), log).get().stats("default").total());
        assertEquals("Use Zod 4 for validation", find("use-zod").content());
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("changed"), err.toString(StandardCharsets.UTF_8));
        // toon edits the entry while no Engram runs, after Engram last looked (the store's Zod 4 is older): the edit comes in
        Files.writeString(data, header + zod.replace("Use Zod for", "Use Zod 3 for"));
        assertEquals(1, ToonData.importingOnce(() -> engine, "default", List.of(project), log).get().stats("default").total());
        assertEquals("Use Zod 3 for validation", find("use-zod").content());
    }

    /** A followed data.toon holding one entry, {@code t1}, that toon wrote today. */
    private Path dataToonWithT1Today() throws java.io.IOException {
        Path data = Files.createDirectories(memoryDir()).resolve("data.toon");
        Files.writeString(data, "version: 1\n[1|]{id|category|key|content}:\n  aaa000001|knowledge|t1|toon one about caching|||"
                + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + "||0||0.70|1.0||0||agent|active|||\n");
        return data;
    }

    /** The followed profile on {@code follower}, as the server builds it. */
    private ToolProfile mirrored(ToonFollower follower) {
        return follower.mirroring(ToonProfile.create(new ProfileContext(follower, "default"), project, null, null, null, Clock.systemUTC()));
    }

    /**
     * The record of the file is saved after the tool answered; a process that ended before saving leaves the one from
     * before its own writes. The next start then tells Engram's writes (as the store holds them) from toon's edits.
     */
    @Test
    void aRecordOlderThanEngramsOwnLastWriteTakesNoneOfItsWritesForToonsEdits() throws Exception {
        Path data = dataToonWithT1Today();
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        ToonFollower first = ToonData.importingOnce(() -> engine, "default", List.of(project), quiet);
        first.get();
        String mark = "toon-base/default/" + data.toAbsolutePath().normalize();
        String beforeItsWrites = engine.mark(mark).orElseThrow();
        ToolProfile p = mirrored(first);
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "e1", "content", "engram one about queues"));
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "t1", "content", "toon one about caching, as Engram amended it"));
        // the save runs after the answer: once it has, put the old record back, as if the process had ended first
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (engine.mark(mark).orElseThrow().endsWith(beforeItsWrites.substring(beforeItsWrites.indexOf('\n')))
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(engine.mark(mark).orElseThrow().contains(beforeItsWrites.substring(beforeItsWrites.indexOf('\n'))),
                "the record was saved after the writes");
        engine.setMark(mark, beforeItsWrites);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ToonData.importingOnce(() -> engine, "default", List.of(project), new PrintStream(err, true, StandardCharsets.UTF_8)).get();
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("changed"), err.toString(StandardCharsets.UTF_8));
        assertEquals("toon one about caching, as Engram amended it", find("t1").content());
        assertEquals(2, engine.stats("default").total());
    }

    /** toon-memory running on the project between two Engram sessions: its new and edited entries survive Engram's next write. */
    @Test
    void whatToonChangesWhileNoEngramRunsComesInAtTheNextStartAndIsWrittenBack() throws Exception {
        Path data = dataToonWithT1Today();
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        ToonFollower first = ToonData.importingOnce(() -> engine, "default", List.of(project), log);
        call(mirrored(first), "memory_remember", Map.of("category", "knowledge", "key", "e1", "content", "engram one about queues"));
        // Engram stops; toon adds t2 and rewrites t1 the same day, as toon writes: the whole file, its own date
        String mirrored = Files.readString(data);
        String t1 = mirrored.lines().filter(l -> l.contains("|t1|")).findFirst().orElseThrow();
        String toonWrote = mirrored.replace(t1, t1.replace("toon one about caching", "toon one about caching, revised"))
                .replaceFirst("\\[2\\|]", "[3|]").replaceFirst("(?m)^(entries\\[3\\|][^\\n]*\\n)",
                        "$1  bbb000002|knowledge|t2|toon two about logging|||" + java.time.LocalDate.now(java.time.ZoneOffset.UTC) + "||0||0.70|1.0||0||agent|active|||\n");
        assertTrue(toonWrote.contains("|t2|"), toonWrote);
        Files.writeString(data, toonWrote);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ToonFollower second = ToonData.importingOnce(() -> engine, "default", List.of(project),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        ToolProfile p = mirrored(second);
        second.get(); // the first tool call
        assertEquals("toon two about logging", find("t2").content(), err.toString(StandardCharsets.UTF_8));
        assertEquals("toon one about caching, revised", find("t1").content());
        assertEquals("engram one about queues", find("e1").content());
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "e2", "content", "engram two about retries"));
        String after = Files.readString(data);
        for (String kept : List.of("|t2|", "toon one about caching, revised", "|e1|", "|e2|")) assertTrue(after.contains(kept), after);
        // a third start over the file Engram wrote finds nothing new
        err.reset();
        ToonData.importingOnce(() -> engine, "default", List.of(project), new PrintStream(err, true, StandardCharsets.UTF_8)).get();
        assertFalse(err.toString(StandardCharsets.UTF_8).contains("changed"), err.toString(StandardCharsets.UTF_8));
        assertEquals(4, engine.stats("default").total());
    }
    @Test
    void sessionsToonMemoryStillRecordsInItsFolderAreListedBesideEngramsWithTheirConflicts() throws Exception {
        Path sessions = Files.createDirectories(memoryDir().resolve("sessions"));
        java.time.Instant now = java.time.Instant.now();
        // toon-memory's own heartbeat files, as its server and hook scripts write them
        Files.writeString(sessions.resolve("toon-live.json"), "{\"id\": \"toon-live\", \"agent\": \"claude\", \"pid\": 4242,"
                + " \"branch\": \"feature/db\", \"startedAt\": \"" + now.minusSeconds(600) + "\", \"lastSeen\": \"" + now.minusSeconds(60)
                + "\", \"ended\": false, \"files\": {\"src/types.ts\": \"" + now.minusSeconds(60) + "\", \"src/db.ts\": \"" + now + "\"}}");
        Files.writeString(sessions.resolve("toon-stale.json"), "{\"id\": \"toon-stale\", \"agent\": \"codex\", \"pid\": 1,"
                + " \"branch\": \"main\", \"startedAt\": \"" + now.minusSeconds(7200) + "\", \"lastSeen\": \"" + now.minusSeconds(3600)
                + "\", \"ended\": false, \"files\": {\"src/types.ts\": \"" + now.minusSeconds(3600) + "\"}}");
        Files.writeString(sessions.resolve("toon-ended.json"), "{\"id\": \"toon-ended\", \"agent\": \"gemini\", \"pid\": 2,"
                + " \"branch\": \"main\", \"startedAt\": \"" + now.minusSeconds(300) + "\", \"lastSeen\": \"" + now.minusSeconds(30)
                + "\", \"ended\": true, \"files\": {\"src/types.ts\": \"" + now + "\"}}");
        Files.writeString(sessions.resolve("half-written.json"), "{\"id\": \"x\", \"lastSe");
        String host = engine.sessions().host();
        engine.sessions().beat(new dev.engram.engine.session.Heartbeat("engram-1", "opencode", host, 77, "feature/auth",
                java.util.Set.of("src/types.ts")));

        String report = call(profile(null), "memory_sessions", Map.of());
        assertTrue(report.contains("🧭 Active sessions (2)"), report);
        assertTrue(report.contains("• claude (toon-memory) @ feature/db") && report.contains("id: toon-live · pid 4242"), report);
        assertTrue(report.contains("• opencode @ feature/auth"), report);
        assertFalse(report.contains("toon-stale") || report.contains("toon-ended"), "past toon's window, or ended: " + report);
        assertTrue(report.contains("⚠️ src/types.ts  ↔  ") && report.contains("claude (toon-memory)@feature/db"), report);
        String conflicts = call(profile(null), "memory_sessions", Map.of("conflictsOnly", true));
        assertTrue(conflicts.contains("🔥 Soft conflicts (1)") && conflicts.contains("(toon-live)"), conflicts);
        try (var listed = Files.list(sessions)) {
            assertEquals(4, listed.count(), "toon's folder is only read: nothing added, nothing pruned");
        }
    }

    @Test
    void sessionBiasPutsTheEntriesAboutTheSessionsFilesFirstAsToonsFactorDoes() {
        ToolProfile p = ToonProfile.create(new ProfileContext(() -> engine, "default")
                .withSettings(Map.of(ToonProfile.SESSION_ID_SETTING, "s1")), project, null, null, null, Clock.systemUTC());
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "retry-b", "content",
                "retry policy: the retry policy of the billing retry queue", "file", "src/b.ts"));
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "retry-a", "content",
                "retry policy for billing export jobs", "file", "src/a.ts"));
        String plain = call(p, "memory_recall", Map.of("query", "retry policy", "budget", "tiny"));
        assertTrue(plain.indexOf("retry-b") < plain.indexOf("retry-a"), "the premise: b ranks first unbiased\n" + plain);
        assertEquals(plain, call(p, "memory_recall", Map.of("query", "retry policy", "budget", "tiny", "bias", "session")),
                "no session files yet: nothing to bias");
        engine.sessions().beat(new dev.engram.engine.session.Heartbeat("s1", "claude", engine.sessions().host(),
                ProcessHandle.current().pid(), "main", java.util.Set.of("./src/a.ts")));
        String biased = call(p, "memory_recall", Map.of("query", "retry policy", "budget", "tiny", "bias", "session"));
        assertTrue(biased.indexOf("retry-a") < biased.indexOf("retry-b"), biased);
        String smart = call(p, "memory_smart_recall", Map.of("intent", "retry policy", "bias", "session"));
        assertTrue(smart.indexOf("retry-a") < smart.indexOf("retry-b"), smart);
        assertEquals(plain, call(p, "memory_recall", Map.of("query", "retry policy", "budget", "tiny", "bias", "none")));
    }

    @Test
    void anEditOfTheMirroredFileBringsInOnlyTheEntryToonChanged() throws Exception {
        Files.createDirectories(memoryDir());
        Path data = memoryDir().resolve("data.toon");
        Files.writeString(data, "version: 1\n[2|]{id|category|key|content}:\n"
                + "  aaa000001|decision|use-zod|Use Zod for validation|src/types.ts|types|2026-08-01||0||0.70|1.0||0||agent|active|||\n"
                + "  bbb000002|pattern|small-prs|Keep pull requests small|||2026-08-02||0||0.70|1.0||0||agent|active|||\n");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ToonFollower follower = ToonData.importingOnce(() -> engine, "default", List.of(project),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        ToolProfile p = follower.mirroring(ToonProfile.create(new ProfileContext(follower, "default"), project, null, null, null,
                Clock.systemUTC()));
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "third", "content", "a third memory, mirrored"));
        String mirrored = Files.readString(data);
        assertTrue(mirrored.contains("|third|"), mirrored);
        // toon edits one line of what the mirror wrote: what it left alone is not imported again
        String line = mirrored.lines().filter(l -> l.contains("|small-prs|")).findFirst().orElseThrow();
        String edited = line.replace("Keep pull requests small", "Keep pull requests under 400 lines")
                .replace("|2026-08-02|", "|" + java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1) + "|");
        Files.writeString(data, mirrored.replace(line, edited));
        follower.get();
        String log = err.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("imported its 1 new or changed entries"), log);
        assertEquals("Keep pull requests under 400 lines", find("small-prs").content());
        assertEquals(3, engine.stats("default").total());
    }

    @Test
    void aMemoryDeletedWhileTheFileWasSealedDoesNotComeBackWhenItIsOpened() throws Exception {
        Files.createDirectories(memoryDir());
        Path data = memoryDir().resolve("data.toon");
        String plain = "version: 1\n[3|]{id|category|key|content}:\n"
                + "  aaa000001|decision|aa|first memory|||2026-08-01||0||0.70|1.0||0||agent|active|||\n"
                + "  bbb000002|decision|bb|second memory|||2026-08-01||0||0.70|1.0||0||agent|active|||\n"
                + "  ccc000003|decision|cc|third memory|||2026-08-01||0||0.70|1.0||0||agent|active|||\n";
        Files.writeString(data, plain);
        ToonFollower follower = ToonData.importingOnce(() -> engine, "default", List.of(project),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        follower.get();
        assertEquals(3, engine.stats("default").total());
        // memory_encrypt seals the file; the follower sees it sealed; bb is deleted for good; memory_decrypt opens the file
        Files.writeString(data, dev.engram.crypto.AesGcm.sealToon(plain, HexFormat.of().parseHex(KEY)));
        Files.setLastModifiedTime(data, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(5)));
        follower.get();
        engine.forget(new dev.engram.engine.ForgetCommand("bb", "default", dev.engram.engine.ForgetAction.HARD));
        Files.writeString(data, plain);
        Files.setLastModifiedTime(data, java.nio.file.attribute.FileTime.from(Instant.now().plusSeconds(10)));
        follower.get();
        assertEquals(2, engine.stats("default").total(), "bb stays deleted");
        assertNotNull(find("aa"), "what was not deleted is still there");
    }

    @Test
    void writesGoBackIntoTheFollowedDataToonWithTheirEvidence() throws Exception {
        Files.createDirectories(memoryDir());
        Files.createDirectories(project.resolve("src/lib"));
        Files.writeString(project.resolve("src/lib/quality.ts"), "export const q = 0\n");
        Path data = memoryDir().resolve("data.toon");
        String original = "version: 1\n[2|]{id|category|key|content}:\n"
                + "  aaa000001|warning|dont-use-mysql|never use MySQL for this project|db.ts|db|2026-08-01||0||0.70|1.0||0||agent|active|||\n"
                + "  bbb000002|knowledge|types-file|Types live here|src/types.ts|types|2026-08-02||0||0.70|1.0||0||agent|active|||verified\n";
        Files.writeString(data, original);
        ToonFollower follower = ToonData.importingOnce(() -> engine, "default", List.of(project),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        ToolProfile p = follower.mirroring(ToonProfile.create(new ProfileContext(follower, "default"), project, null, null, null,
                Clock.systemUTC()));
        call(p, "memory_stats", Map.of());
        call(p, "memory_recall", Map.of("query", "mysql"));
        assertEquals(original, Files.readString(data), "reads (and access counts) leave the file as it was");

        call(p, "memory_remember", Map.of("category", "knowledge", "key", "quality-lib", "content", "quality scoring lives here",
                "file", "src/lib/quality.ts", "tags", "quality"));
        String conflict = call(p, "memory_remember", Map.of("category", "decision", "key", "use-mysql",
                "content", "lets use MySQL for this project instead", "tags", "db"));
        assertTrue(conflict.contains("Evidence: conflict"), conflict);
        ToonFormat.Parsed written = ToonFormat.parse(Files.readString(data));
        assertEquals(List.of("use-mysql", "quality-lib", "types-file", "dont-use-mysql"),
                written.entries().stream().map(e -> e.get("key")).toList(), "newest first, as toon writes");
        Map<String, String> evidence = new java.util.HashMap<>();
        written.entries().forEach(e -> evidence.put(e.get("key"), e.get("evidence")));
        assertEquals(Map.of("use-mysql", "conflict", "quality-lib", "verified", "types-file", "verified", "dont-use-mysql", ""),
                evidence, "computed on write, kept from the file on import");
        assertFalse(Files.exists(memoryDir().resolve("data.toon.lock")), "toon's lock is released");

        // and back: a fresh store importing the written file keeps the levels
        Engine other = TestEngines.inMemory(Clock.systemUTC());
        ToonData.importInto(other, ToonData.read(project, "default", Instant.now()), false);
        Map<String, String> back = new java.util.HashMap<>();
        ToonFormat.parse(ToonData.export(other, "default", Map.of())).entries().forEach(e -> back.put(e.get("key"), e.get("evidence")));
        assertEquals(evidence, back);

        // an update with no file of its own keeps the level the entry had; a conflict is never cleared by a merge
        call(p, "memory_remember", Map.of("category", "decision", "key", "use-mysql", "content", "lets use MySQL here", "tags", "db"));
        assertEquals("conflict", ToonEvidence.read(engine, "default").get(find("use-mysql").id()));

        // toon encrypted its file meanwhile: Engram never writes plaintext over it
        Files.writeString(data, "0a1b:2c3d:4e5f6a");
        call(p, "memory_remember", Map.of("category", "knowledge", "key", "after-encrypt", "content", "written while encrypted"));
        assertEquals("0a1b:2c3d:4e5f6a", Files.readString(data));
    }
}
