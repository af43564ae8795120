package dev.engram.mcp.profile.toon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.Engine;
import dev.engram.engine.ExportRecord;
import dev.engram.error.EngramUserException;
import dev.engram.mcp.TestEngines;
import dev.engram.memory.EdgeType;
import dev.engram.memory.Importance;
import dev.engram.memory.Memory;
import dev.engram.memory.MemoryStatus;
import dev.engram.memory.MemoryType;
import dev.engram.memory.Origin;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** toon's data.toon and archive.toon in, and back out with export: nothing the brief lists is lost. */
class ToonDataTest {
    private static final String DATA = String.join("\n",
            "version: 1",
            "entries[4|]{id|category|key|content|file|tags|date|ttl|accessed|links|quality|confidence|lastAccessed|priority|path_scope|origin|status|supersededOn|importance|evidence}:",
            "  a1b2c3d4|decision|use-zod|Use Zod \\| not Joi\\nfor validation|src/types.ts|validation;api|2026-07-10|2027-01-01|14|depends_on:zod-schemas|0.80|0.90|2026-07-20T10:00:00.000Z|2|src/api/**|human|active||critical|verified",
            "  b2c3d4e5|pattern|zod-schemas|Shared Zod schemas live in src/schemas|src/schemas/index.ts|validation|2026-07-01||3||0.60|1.0||0||agent|active|||",
            "  c3d4e5f6|decision|use-joi|Use Joi|t.ts|validation;superseded|2026-06-01||1|superseded_by:use-zod|0.50|1.0||0||agent|obsolete|2026-07-10|low|",
            "  d4e5f6a7|bug|draft-note|Maybe a race in the cache||cache|2026-07-15||0||0.40|0.6||0||inferred|draft|||",
            "summaries:",
            "  src/big.ts: Router and three handlers",
            "");
    private static final String ARCHIVE = "version: 1\narchived[1|]{id|category|key|content}:\n  e5f6a7b8|knowledge|old-fact|An old fact|||2026-01-01||0||0.5|1.0\n";

    @TempDir
    Path dir;
    private final Engine engine = TestEngines.inMemory(Clock.systemUTC());

    private Map<String, Memory> imported() throws Exception {
        Path memory = Files.createDirectories(dir.resolve(".toon-memory").resolve("memory"));
        Files.writeString(memory.resolve("data.toon"), DATA);
        Files.writeString(memory.resolve("archive.toon"), ARCHIVE);
        ToonData.Loaded loaded = ToonData.read(dir, "default", Instant.now());
        assertEquals(Map.of("src/big.ts", "Router and three handlers"), loaded.summaries());
        ToonData.importInto(engine, loaded, false);
        Map<String, Memory> byKey = new java.util.HashMap<>();
        engine.export("default", r -> byKey.put(r.memory().key(), r.memory()));
        return byKey;
    }

    @Test
    void everyFieldSurvivesTheImport() throws Exception {
        Map<String, Memory> m = imported();
        assertEquals(5, m.size(), m.keySet().toString());
        Memory zod = m.get("use-zod");
        assertEquals("a1b2c3d4", zod.id(), "toon's id is kept");
        assertEquals("Use Zod | not Joi\nfor validation", zod.content(), "escaped pipe and newline");
        assertEquals(MemoryType.DECISION, zod.type());
        assertEquals("src/types.ts", zod.file());
        assertEquals(List.of("validation", "api"), zod.tags());
        assertEquals(Instant.parse("2026-07-10T00:00:00Z"), zod.createdAt());
        assertEquals(Instant.parse("2027-01-01T00:00:00Z"), zod.expiresAt());
        assertEquals(14, zod.accessCount());
        assertEquals(Instant.parse("2026-07-20T10:00:00Z"), zod.lastAccessedAt());
        assertEquals(0.80, zod.quality(), 1e-9);
        assertEquals(0.90, zod.confidence(), 1e-9);
        assertEquals(2, zod.pinPriority());
        assertEquals("src/api/**", zod.pathScope());
        assertEquals(Origin.HUMAN, zod.origin());
        assertEquals(Importance.CRITICAL, zod.importance());
        assertEquals(MemoryType.ERROR, m.get("draft-note").type(), "bug is Engram's error");
        assertEquals(MemoryStatus.DRAFT, m.get("draft-note").status());
        Memory joi = m.get("use-joi");
        assertEquals(MemoryStatus.SUPERSEDED, joi.status());
        assertEquals(Instant.parse("2026-07-10T00:00:00Z"), joi.supersededAt());
        assertEquals("a1b2c3d4", joi.supersededBy());
        assertEquals(MemoryStatus.ARCHIVED, m.get("old-fact").status(), "archive.toon entries are archived");
        List<ExportRecord> records = new ArrayList<>();
        engine.export("default", records::add);
        var zodEdges = records.stream().filter(r -> r.memory().key().equals("use-zod")).findFirst().orElseThrow().edges();
        assertTrue(zodEdges.stream().anyMatch(e -> e.type() == EdgeType.DEPENDS_ON && e.toId().equals("b2c3d4e5")), zodEdges.toString());
        assertTrue(zodEdges.stream().anyMatch(e -> e.type() == EdgeType.SUPERSEDES && e.toId().equals("c3d4e5f6")), zodEdges.toString());
    }

    @Test
    void exportWritesToonsLinesBack() throws Exception {
        imported();
        String out = ToonData.export(engine, "default", Map.of());
        ToonFormat.Parsed parsed = ToonFormat.parse(out);
        assertEquals(5, parsed.entries().size(), out);
        assertTrue(parsed.malformed().isEmpty(), parsed.malformed().toString());
        ToonFormat.Entry zod = parsed.entries().stream().filter(e -> e.get("key").equals("use-zod")).findFirst().orElseThrow();
        assertEquals("Use Zod | not Joi\nfor validation", zod.get("content"));
        assertEquals("a1b2c3d4", zod.get("id"));
        assertEquals("14", zod.get("accessed"));
        assertEquals("2", zod.get("priority"));
        assertEquals("critical", zod.get("importance"));
        assertTrue(zod.get("links").contains("depends_on:zod-schemas"), zod.get("links"));
        assertTrue(out.contains("Use Zod \\| not Joi\\nfor validation"), "escaped on the way out: " + out);
        ToonFormat.Entry joi = parsed.entries().stream().filter(e -> e.get("key").equals("use-joi")).findFirst().orElseThrow();
        assertEquals("obsolete", joi.get("status"));
        assertEquals("superseded_by:use-zod", joi.get("links"));
        assertEquals("2026-07-10", joi.get("supersededOn"));
        // and the exported file imports again to the same memories
        Engine other = TestEngines.inMemory(Clock.systemUTC());
        Path again = Files.createDirectories(dir.resolve("again"));
        Files.writeString(again.resolve("data.toon"), out);
        ToonData.importInto(other, ToonData.read(again, "default", Instant.now()), false);
        List<Memory> back = new ArrayList<>();
        other.export("default", r -> back.add(r.memory()));
        Memory zodBack = back.stream().filter(x -> x.key().equals("use-zod")).findFirst().orElseThrow();
        assertEquals("a1b2c3d4", zodBack.id());
        assertEquals(14, zodBack.accessCount());
        assertEquals(MemoryStatus.SUPERSEDED, back.stream().filter(x -> x.key().equals("use-joi")).findFirst().orElseThrow().status());
    }

    @Test
    void importAtFirstStartOnlyIntoAnEmptyStoreAndToonIdsResolve() throws Exception {
        Path memory = Files.createDirectories(dir.resolve(".toon-memory").resolve("memory"));
        Files.writeString(memory.resolve("data.toon"), "version: 1\n[1|]{id|category|key|content}:\n  abc12345|decision|use-zod|Use Zod for validation|src/types.ts|types;validation|2026-07-25||0||0.70|1.0\n");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        var engines = ToonData.importingOnce(() -> engine, "default", dir, new PrintStream(log, true, StandardCharsets.UTF_8));
        var profile = ToonProfile.create(new dev.engram.mcp.profile.ProfileContext(engines, "default"), dir, Clock.systemUTC());
        var recall = profile.tools().stream().filter(t -> t.definition().name().equals("memory_recall")).findFirst().orElseThrow();
        var result = dev.engram.mcp.tool.ToolAdapter.call(recall, Map.of("ids", "abc12345"));
        String text = ((io.modelcontextprotocol.spec.McpSchema.TextContent) result.content().get(0)).text();
        assertTrue(text.contains("[decision] use-zod (abc12345)"), text);
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("imported 1 toon-memory entries"), log.toString(StandardCharsets.UTF_8));
        Files.writeString(memory.resolve("data.toon"), "version: 1\n[1|]{id|category|key|content}:\n  ffff0000|decision|other|Other\n");
        ToonData.importAtStart(engine, "default", dir, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> keys = new ArrayList<>();
        engine.export("default", r -> keys.add(r.memory().key()));
        assertEquals(List.of("use-zod"), keys, "a store with memories is never imported into again");
        engine.forget(new dev.engram.engine.ForgetCommand("use-zod", "default", dev.engram.engine.ForgetAction.HARD));
        Files.writeString(memory.resolve("data.toon"), "version: 1\n[1|]{id|category|key|content}:\n  abc12345|decision|use-zod|Use Zod for validation|src/types.ts|types;validation|2026-07-25||0||0.70|1.0\n");
        ToonData.importAtStart(engine, "default", dir, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, engine.stats("default").total(), "deleted after the import: a restart does not bring it back");
    }

    @Test
    void aSecondProjectsDataToonIsMergedIntoAZoneItSharesWithoutTakingAnIdOrBeingFollowed() throws Exception {
        // one store for several projects (ENGRAM_HOME): project a's data.toon came in first
        Path a = Files.createDirectories(dir.resolve("a").resolve(".toon-memory").resolve("memory"));
        Files.writeString(a.resolve("data.toon"), "version: 1\n[1|]{id|category|key|content}:\n  abc12345|decision|use-zod|Use Zod for validation\n");
        assertEquals(a.resolve("data.toon"), ToonData.importAtStart(engine, "default", List.of(dir.resolve("a")), quiet()));
        Path b = Files.createDirectories(dir.resolve("b").resolve(".toon-memory").resolve("memory"));
        String bText = "version: 1\n[2|]{id|category|key|content}:\n  abc12345|warning|dont-use-mysql|never use MySQL here\n"
                + "  bbb00001|pattern|shared-convention|Name branches feature/<ticket>\n";
        Files.writeString(b.resolve("data.toon"), bText);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        assertEquals(null, ToonData.importAtStart(engine, "default", List.of(dir.resolve("b")), new PrintStream(log, true, StandardCharsets.UTF_8)),
                "merged, not followed: mirroring would write the other project's memories into b's file");
        assertTrue(log.toString(StandardCharsets.UTF_8).contains("Added: 2"), log.toString(StandardCharsets.UTF_8));
        Map<String, Memory> byKey = new java.util.HashMap<>();
        engine.export("default", r -> byKey.put(r.memory().key(), r.memory()));
        assertEquals(java.util.Set.of("use-zod", "dont-use-mysql", "shared-convention"), byKey.keySet());
        assertEquals("abc12345", byKey.get("use-zod").id());
        assertEquals("Use Zod for validation", byKey.get("use-zod").content(), "project a's memory is untouched");
        assertTrue(!byKey.get("dont-use-mysql").id().equals("abc12345"), "a taken id gets a new one");
        assertEquals(bText, Files.readString(b.resolve("data.toon")), "b's file is left as it was");
        ToonData.importAtStart(engine, "default", List.of(dir.resolve("b")), quiet());
        assertEquals(3, engine.stats("default").total(), "merged once: a restart does not merge again");
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }

    @Test
    void encryptedOrMissingDataIsRefusedClearly() throws Exception {
        assertTrue(assertThrows(EngramUserException.class, () -> ToonData.read(dir, "default", Instant.now()))
                .getMessage().contains("no toon-memory data"));
        Files.writeString(dir.resolve("data.toon"), "0a1b:2c3d:4e5f6a");
        assertTrue(assertThrows(EngramUserException.class, () -> ToonData.read(dir, "default", Instant.now()))
                .getMessage().contains("is encrypted"));
    }

    /** A data.toon toon encrypted comes in whole with its key; without it, or with another, nothing is read. */
    @Test
    void encryptedDataAndArchiveAreOpenedWithTheirKey() throws Exception {
        String key = "0123456789abcdef".repeat(4);
        Path memory = Files.createDirectories(dir.resolve(".toon-memory").resolve("memory"));
        Files.writeString(memory.resolve("data.toon"), DATA);
        Files.writeString(memory.resolve("archive.toon"), ARCHIVE);
        ToonData.Loaded plain = ToonData.read(dir, "default", Instant.EPOCH, null);
        Files.writeString(memory.resolve("data.toon"), dev.engram.crypto.AesGcm.sealToon(DATA, java.util.HexFormat.of().parseHex(key)));
        Files.writeString(memory.resolve("archive.toon"), dev.engram.crypto.AesGcm.sealToon(ARCHIVE, java.util.HexFormat.of().parseHex(key)));
        ToonData.Loaded opened = ToonData.read(dir, "default", Instant.EPOCH, key);
        assertEquals(plain.records(), opened.records(), "every entry, archive included, as from the plain files");
        assertEquals(plain.summaries(), opened.summaries());
        assertEquals(5, opened.records().size());
        String none = assertThrows(EngramUserException.class, () -> ToonData.read(dir, "default", Instant.EPOCH, null)).getMessage();
        assertTrue(none.contains("is encrypted (toon's memory_encrypt): set TOON_MEMORY_KEY (or ENGRAM_KEY)"), none);
        String wrong = assertThrows(EngramUserException.class,
                () -> ToonData.read(dir, "default", Instant.EPOCH, "f".repeat(64))).getMessage();
        assertTrue(wrong.contains("encrypted with another key") && !wrong.contains("ffff"), wrong);
        String malformed = assertThrows(EngramUserException.class,
                () -> ToonData.read(dir, "default", Instant.EPOCH, "not-hex")).getMessage();
        assertTrue(malformed.contains("must be 64 hex characters"), malformed);
    }

    @Test
    void malformedLinesAreReportedNotShifted() {
        ToonFormat.Parsed p = ToonFormat.parse("version: 1\nentries[2|]{id|category|key|content}:\n  x1|decision\n  x2|knowledge|ok-key|a \\\\ backslash\n");
        assertEquals(1, p.entries().size());
        assertEquals("a \\ backslash", p.entries().get(0).get("content"));
        assertEquals(1, p.malformed().size());
    }

    @Test
    void dataToonWinsOverTheArchiveAndTheArchivesFirstEntryWins() throws Exception {
        Files.writeString(dir.resolve("data.toon"), "version: 1\n[1|]{id|category|key|content}:\n  a0000001|decision|use-zod|Live: use Zod\n");
        Files.writeString(dir.resolve("archive.toon"), "version: 1\narchived[3|]{id|category|key|content}:\n  a0000002|decision|use-zod|Archived Zod\n"
                + "  a0000003|decision|old-cache|Newest archived cache note\n  a0000004|decision|old-cache|Oldest archived cache note\n");
        ToonData.Loaded loaded = ToonData.read(dir, "default", Instant.now());
        Map<String, Memory> byKey = new java.util.HashMap<>();
        loaded.records().forEach(r -> byKey.put(r.memory().key(), r.memory()));
        assertEquals(2, loaded.records().size());
        assertEquals("Live: use Zod", byKey.get("use-zod").content());
        assertEquals(MemoryStatus.ACTIVE, byKey.get("use-zod").status());
        assertEquals("Newest archived cache note", byKey.get("old-cache").content());
        assertEquals(2, loaded.problems().size(), loaded.problems().toString());
    }

    @Test
    void aFileThatIsNotUtf8IsAUserErrorNamingTheByte() throws Exception {
        byte[] bytes = "version: 1\n[1|]\n  a1|decision|k|caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(dir.resolve("data.toon"), bytes);
        String message = assertThrows(EngramUserException.class, () -> ToonData.read(dir, "default", Instant.now())).getMessage();
        assertTrue(message.contains("data.toon is not UTF-8 (byte " + (bytes.length - 2) + ")"), message);
    }

    @Test
    void theFirstStartImportLooksAtTheWorkingDirectoryFirstAndSaysWhatItSkipped() throws Exception {
        Path root = Files.createDirectories(dir.resolve("repo"));
        Path cwd = Files.createDirectories(root.resolve("packages").resolve("app"));
        Files.createDirectories(cwd.resolve(".toon-memory").resolve("memory"));
        Files.writeString(cwd.resolve(".toon-memory/memory/data.toon"), "version: 1\n[1|]\n  a0000001|decision|from-cwd|Found at the working directory\n");
        Files.createDirectories(root.resolve(".toon-memory").resolve("memory"));
        Files.writeString(root.resolve(".toon-memory/memory/data.toon"), "version: 1\n[1|]\n  a0000002|decision|from-root|Found at the git root\n");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ToonData.importingOnce(() -> engine, "default", List.of(cwd, root), new PrintStream(log, true, StandardCharsets.UTF_8)).get();
        List<String> keys = new ArrayList<>();
        engine.export("default", r -> keys.add(r.memory().key()));
        assertEquals(List.of("from-cwd"), keys);
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(root.resolve(".toon-memory") + " was not imported") && text.contains("engram import --from toon " + root), text);
        // a zone already in use (a store other projects share): the folder's entries are merged by key, and the log says so
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.createDirectories(other.resolve(".toon-memory").resolve("memory"));
        Files.writeString(other.resolve(".toon-memory/memory/data.toon"), "version: 1\n[1|]\n  a0000003|decision|other|Other\n");
        ByteArrayOutputStream log2 = new ByteArrayOutputStream();
        ToonData.importAtStart(engine, "default", other, new PrintStream(log2, true, StandardCharsets.UTF_8));
        String merged = log2.toString(StandardCharsets.UTF_8);
        assertTrue(merged.contains("merged the toon-memory entries of " + other.resolve(".toon-memory").resolve("memory"))
                && merged.contains("Added: 1") && merged.contains("is not written back"), merged);
        List<String> after = new ArrayList<>();
        engine.export("default", r -> after.add(r.memory().key()));
        assertEquals(java.util.Set.of("from-cwd", "other"), java.util.Set.copyOf(after));
    }

    @Test
    void aFileWithABareCountHeaderIsImported() throws Exception {
        Files.writeString(dir.resolve("data.toon"), "version: 1\n[1|]\n  a0000001|decision|use-zod|Use Zod\n");
        assertEquals(1, ToonData.read(dir, "default", Instant.now()).records().size());
    }

    /** toon keys are any text: keys that fold to one Engram key, or that hold no ASCII letter, stay separate entries. */
    @Test
    void keysThatFoldTogetherOrHoldNoAsciiLetterKeepEveryEntryAndTheirLinks() throws Exception {
        Files.writeString(dir.resolve("data.toon"), "version: 1\n[6|]{id|category|key|content|file|tags|date|ttl|accessed|links}:\n"
                + "  a0000001|knowledge|Cache|upper-case cache entry|||2026-08-01||0|缓存策略\n"
                + "  a0000002|knowledge|cache|lower-case cache entry|||2026-08-01||0|\n"
                + "  a0000003|knowledge|缓存策略|caching strategy in Chinese|||2026-08-01||0|\n"
                + "  a0000004|knowledge|日志规范|logging rules in Chinese|||2026-08-01||0|\n"
                + "  a0000005|knowledge|über-cache|the cache above all|||2026-08-01||0|\n"
                + "  a0000006|knowledge|Auth_Flow|how login works|||2026-08-01||0|\n");
        ToonData.Loaded loaded = ToonData.read(dir, "default", Instant.now());
        Map<String, String> contentByKey = new java.util.HashMap<>();
        loaded.records().forEach(r -> contentByKey.put(r.memory().key(), r.memory().content()));
        assertEquals(6, contentByKey.size(), contentByKey.toString());
        assertEquals("lower-case cache entry", contentByKey.get("cache"), "the key Engram could hold as it is keeps it");
        assertEquals("upper-case cache entry", contentByKey.get("cache-2"));
        assertEquals("the cache above all", contentByKey.get("uber-cache"));
        assertEquals("how login works", contentByKey.get("auth_flow"));
        String chinese = ToonData.slug("缓存策略");
        assertTrue(chinese.matches("entry-[0-9a-f]{6}") && !chinese.equals(ToonData.slug("日志规范")), chinese);
        assertEquals("caching strategy in Chinese", contentByKey.get(chinese));
        ExportRecord upper = loaded.records().stream().filter(r -> r.memory().key().equals("cache-2")).findFirst().orElseThrow();
        assertEquals(1, upper.edges().size(), "the link to 缓存策略 as toon wrote it: " + loaded.problems());
        assertTrue(loaded.problems().stream().anyMatch(p -> p.contains("'Cache' is 'cache-2'")), loaded.problems().toString());
        assertEquals("auth_flow", ToonData.engramRef(" Auth_Flow "));
        assertEquals("m_abcdefgh23", ToonData.engramRef("m_abcdefgh23"));
    }

    /** toon's TTL is a day: an expiry within a day is written as the next one, so a round trip never expires a memory early. */
    @Test
    void aTtlIsWrittenAsTheDayItHasRunOutBy() {
        assertEquals("2026-12-08", ToonData.ttlDay(Instant.parse("2026-12-07T09:43:00Z")));
        assertEquals("2026-12-08", ToonData.ttlDay(Instant.parse("2026-12-07T23:59:59.999Z")));
        assertEquals("2027-01-01", ToonData.ttlDay(Instant.parse("2027-01-01T00:00:00Z")), "a whole day stays itself");
    }
}
