package dev.engram.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.engram.engine.AmendCommand;
import dev.engram.engine.Engine;
import dev.engram.mcp.profile.nativeprofile.TextRenderer;
import dev.engram.spi.MemoryStore;
import dev.engram.store.IndexCheck;
import dev.engram.testing.InMemoryMemoryStore;
import dev.engram.testing.InMemorySearchIndex;
import dev.engram.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * export → import into an empty store → export gives identical lines, on the in-memory fakes.
 */
class ExportImportRoundTripTest {
    private static final TextRenderer TEXT = new TextRenderer();

    @TempDir
    Path dir;

    private static Engine engine(MutableClock clock) {
        MemoryStore store = new InMemoryMemoryStore();
        return new Engine(store, new InMemorySearchIndex(store), clock);
    }

    private CliRunner cli(Engine engine) {
        IndexCheck ok = new IndexCheck(0, 0, List.of(), List.of(), 0, 0);
        return new CliRunner(dir, (config, embedding) -> new Main.OpenEngine(engine, () -> ok, () -> { }));
    }

    /** A large import says what it is doing before its one transaction, and when it is done. */
    @Test
    void aLargeImportSaysWhatItIsDoing() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        List<dev.engram.engine.RememberCommand> many = new java.util.ArrayList<>();
        for (int i = 0; i < ImportSubcommand.PROGRESS_FROM; i++) {
            many.add(dev.engram.engine.RememberCommand.builder("Bulk fact number " + i + " about service s" + i).key("bulk-" + i).build());
        }
        source.rememberAll(many);
        Path file = dir.resolve("many.jsonl");
        assertEquals(0, cli(source).run("export", "--out", file.toString()).exitCode());
        CliRunner.Run imported = cli(engine(clock)).run("import", file.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertTrue(imported.err().startsWith("import: read " + ImportSubcommand.PROGRESS_FROM + " records from " + file
                + "; writing them in one transaction…\nimport: done in "), imported.err());
        CliRunner.Run small = cli(engine(clock)).run("import", dir.resolve("many.jsonl").toString(), "--dry-run");
        assertTrue(small.err().contains("comparing them with the store"), small.err());
    }

    @Test
    void exportImportExportIsLossless() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        CliRunner from = cli(source);
        assertEquals(0, from.run("remember", "Redis calls time out because the pool has 8 connections",
                "--type", "error", "--key", "redis-timeout", "--tags", "redis,perf").exitCode());
        assertEquals(0, from.run("remember", "Raise the Redis pool to 64 connections", "--type", "decision",
                "--key", "redis-pool", "--link", "resolved_by:redis-timeout", "--ttl", "30d", "--importance", "high",
                "--file", "src/redis.ts", "--path-scope", "src/**").exitCode());
        assertEquals(0, from.run("remember", "Team prefers tabs", "--zone", "team", "--type", "preference").exitCode());
        source.amend(new AmendCommand("redis-pool", "default", "Raise the Redis pool to 128 connections",
                null, null));
        Path first = dir.resolve("first.jsonl");
        CliRunner.Run exported = from.run("export", "--out", first.toString());
        assertEquals(0, exported.exitCode(), exported.err());
        List<String> lines = Files.readAllLines(first);
        assertEquals(3, lines.size());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"versions\":[{")), lines.toString());
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"type\":\"resolved_by\"")), lines.toString());

        Engine empty = engine(clock);
        CliRunner to = cli(empty);
        CliRunner.Run imported = to.run("import", first.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        Path second = dir.resolve("second.jsonl");
        assertEquals(0, to.run("export", "--out", second.toString()).exitCode());
        assertEquals(lines, Files.readAllLines(second));
    }

    @Test
    void zonesTravelWithTheirDescriptionsDatesAndEvenEmpty() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        source.zoneAdmin().create("work", "업무", "업무 관련 지식 (work knowledge)");
        clock.advance(java.time.Duration.ofDays(3));
        source.zoneAdmin().create("emptyzone", null, "A zone with nothing in it");
        source.entities().create("work", List.of(new dev.engram.engine.graph.EntityDraft("billing", "Component", List.of("Stripe"))),
                dev.engram.engine.graph.ExistingEntity.SKIP);
        Path file = dir.resolve("zones.jsonl");
        assertEquals(0, cli(source).run("export", "--out", file.toString()).exitCode());
        clock.advance(java.time.Duration.ofDays(5));
        Engine target = engine(clock);
        CliRunner.Run imported = cli(target).run("import", file.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        assertEquals(source.zoneAdmin().list(), target.zoneAdmin().list(), "descriptions, empty zones and creation dates");
        Path again = dir.resolve("again.jsonl");
        assertEquals(0, cli(target).run("export", "--out", again.toString()).exitCode());
        assertEquals(Files.readAllLines(file), Files.readAllLines(again));
        // a store's own description stays: the file only adds what the store lacks
        Engine described = engine(clock);
        described.zoneAdmin().create("work", null, "ours");
        assertEquals(0, cli(described).run("import", file.toString()).exitCode());
        var work = described.zoneAdmin().list().stream().filter(z -> z.name().equals("work")).findFirst().orElseThrow();
        assertEquals("ours", work.description());
        assertEquals("업무", work.shortDescription());
        assertEquals(Instant.parse("2026-11-29T10:00:00Z"), work.createdAt(), "the earlier creation");
    }

    @Test
    void mementoCaseFieldsSurviveExportAndImportKoreanIncluded() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        Map<String, Object> saved = memento(source, clock, "remember", args("content", "배포가 JDK 누락으로 실패한다", "topic", "빌드",
                "type", "error", "keywords", List.of("jdk", "배포"), "caseId", "배포-장애-12", "goal", "배포를 복구한다",
                "outcome", "temurin-17 설치 후 통과", "phase", "점검", "resolutionStatus", "resolved", "assertionStatus", "verified",
                "affect", "frustration", "contextSummary", "금요일 배포 중\n두 번째 시도"));
        Path first = dir.resolve("memento.jsonl");
        assertEquals(0, cli(source).run("export", "--out", first.toString()).exitCode());
        String line = Files.readAllLines(first).get(0);
        assertTrue(line.contains("\"notes\":{\"goal\":\"배포를 복구한다\",\"outcome\":\"temurin-17 설치 후 통과\","
                + "\"context_summary\":\"금요일 배포 중\\n두 번째 시도\"}"), line);
        assertTrue(line.contains("\"tag_words\":{") && line.contains(":\"배포-장애-12\"") && line.contains(":\"점검\"")
                && line.contains(":\"빌드\""), line);

        Engine empty = engine(clock);
        CliRunner to = cli(empty);
        CliRunner.Run imported = to.run("import", first.toString());
        assertEquals(0, imported.exitCode(), imported.err());
        Path second = dir.resolve("memento-again.jsonl");
        assertEquals(0, to.run("export", "--out", second.toString()).exitCode());
        assertEquals(Files.readAllLines(first), Files.readAllLines(second));
        @SuppressWarnings("unchecked")
        Map<String, Object> f = ((List<Map<String, Object>>) memento(empty, clock, "recall", Map.of("caseId", "배포-장애-12"))
                .get("fragments")).get(0);
        assertEquals(saved.get("id"), f.get("id"));
        Map<String, Object> expected = new java.util.LinkedHashMap<>();
        expected.put("case_id", "배포-장애-12");
        expected.put("goal", "배포를 복구한다");
        expected.put("outcome", "temurin-17 설치 후 통과");
        expected.put("phase", "점검");
        expected.put("resolution_status", "resolved");
        expected.put("assertion_status", "verified");
        expected.put("context_summary", "금요일 배포 중\n두 번째 시도");
        expected.put("affect", "frustration");
        expected.put("topic", "빌드");
        expected.forEach((k, v) -> assertEquals(v, f.get(k), k + " in " + f));

        Path bad = Files.writeString(dir.resolve("bad-word.jsonl"), line.replace(":\"점검\"", ":\"검토\""));
        CliRunner.Run refused = cli(engine(clock)).run("import", bad.toString());
        assertEquals(2, refused.exitCode());
        assertTrue(refused.err().contains("bad-word.jsonl line 1: tag_words '검토' is not the word of tag 'phase:h-")
                && refused.err().contains("nothing was imported"), refused.err());
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** A call of the memento profile's tool on {@code engine}; fails the test on an error answer. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> memento(Engine engine, MutableClock clock, String tool, Map<String, Object> args) {
        var profile = dev.engram.mcp.profile.memento.MementoProfile.create(dev.engram.mcp.profile.ProfileContext.of(engine, "default"), clock);
        var handler = profile.tools().stream().filter(t -> t.definition().name().equals(tool)).findFirst().orElseThrow();
        var r = dev.engram.mcp.tool.ToolAdapter.call(handler, args);
        assertTrue(!Boolean.TRUE.equals(r.isError()), r.content().toString());
        return (Map<String, Object>) r.structuredContent();
    }

    @Test
    void anOlderExportNeverRevertsAStoreUnlessReplaceIsGiven() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine engine = engine(clock);
        CliRunner cli = cli(engine);
        assertEquals(0, cli.run("remember", "The Redis pool has 8 connections", "--key", "redis-pool").exitCode());
        Path old = dir.resolve("old.jsonl");
        assertEquals(0, cli.run("export", "--out", old.toString()).exitCode());
        clock.advance(java.time.Duration.ofMinutes(5));
        engine.amend(new AmendCommand("redis-pool", "default", "The Redis pool has 64 connections", null, null));
        Path amended = dir.resolve("amended.jsonl");
        assertEquals(0, cli.run("export", "--out", amended.toString()).exitCode());

        CliRunner.Run dry = cli.run("import", "--dry-run", "--replace", old.toString());
        assertEquals(0, dry.exitCode(), dry.err());
        assertTrue(dry.out().startsWith("replaced redis-pool (m_"), dry.out());
        assertTrue(dry.err().contains("dry run, nothing written; would have: created 0, updated 0, replaced 1,"
                + " kept newer 0, unchanged 0, versions added 1, edges added 0"), dry.err());
        assertEquals(Files.readAllLines(amended), export(cli, "after-dry-run"), "a dry run writes nothing");

        CliRunner.Run kept = cli.run("import", old.toString());
        assertEquals(0, kept.exitCode(), kept.err());
        assertTrue(kept.err().contains("imported 1 records from " + old + ": created 0, updated 0, replaced 0,"
                + " kept newer 1, unchanged 0, versions added 0, edges added 0"), kept.err());
        assertEquals(Files.readAllLines(amended), export(cli, "after-import"), "the newer store is kept");

        CliRunner.Run replaced = cli.run("import", "--replace", old.toString());
        assertEquals(0, replaced.exitCode(), replaced.err());
        assertTrue(replaced.err().contains("replaced 1,"), replaced.err());
        String content = engine.recall(dev.engram.engine.RecallQuery.of("redis pool"), TEXT).results().get(0).memory().content();
        assertEquals("The Redis pool has 8 connections", content);
        assertEquals(List.of("The Redis pool has 8 connections", "The Redis pool has 64 connections"), versions(engine),
                "v1 from the amend, v2 from --replace: the overwritten content is kept");
    }

    private static List<String> versions(Engine engine) {
        List<dev.engram.engine.ExportRecord> records = new java.util.ArrayList<>();
        engine.export(null, records::add);
        return records.get(0).versions().stream().map(dev.engram.memory.MemoryVersion::content).toList();
    }

    private List<String> export(CliRunner cli, String name) throws Exception {
        Path file = dir.resolve(name + ".jsonl");
        assertEquals(0, cli.run("export", "--out", file.toString()).exitCode());
        return Files.readAllLines(file);
    }

    @Test
    void aDryRunWithAConflictFailsAsTheImportWouldAndWritesNothing() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        CliRunner source = cli(engine(clock));
        assertEquals(0, source.run("remember", "From the source", "--key", "same").exitCode());
        Path file = dir.resolve("source.jsonl");
        assertEquals(0, source.run("export", "--out", file.toString()).exitCode());
        CliRunner target = cli(engine(clock));
        assertEquals(0, target.run("remember", "Already here", "--key", "same").exitCode());
        CliRunner.Run dry = target.run("import", "--dry-run", file.toString());
        assertEquals(2, dry.exitCode(), dry.err());
        assertTrue(dry.out().startsWith("conflict same (m_"), dry.out());
        assertTrue(dry.err().contains("conflict 1"), dry.err());
        CliRunner.Run real = target.run("import", file.toString());
        assertEquals(2, real.exitCode());
        assertTrue(real.err().contains("nothing was imported"), real.err());
        assertTrue(export(target, "target").get(0).contains("Already here"));
    }

    @Test
    void aBadLineNamesItsNumber() throws Exception {
        Engine engine = engine(new MutableClock(Instant.parse("2026-11-29T10:00:00Z")));
        Path file = Files.writeString(dir.resolve("bad.jsonl"), "\n{\"id\":1}\n");
        CliRunner.Run r = cli(engine).run("import", file.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("bad.jsonl line 2: id must be a string, got 1; nothing was imported"), r.err());
    }

    /** A file that is not UTF-8, or a folder, is refused in words; nothing of Java's own message reaches the user. */
    @Test
    void aFileThatIsNotTextOrIsAFolderIsRefusedInWords() throws Exception {
        Engine engine = engine(new MutableClock(Instant.parse("2026-11-29T10:00:00Z")));
        Path latin1 = Files.write(dir.resolve("latin1.jsonl"), new byte[] {'{', '"', 'k', (byte) 0xE9, '"', '}', '\n'});
        CliRunner.Run r = cli(engine).run("import", latin1.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("latin1.jsonl line 1: not UTF-8 text") && !r.err().contains("java."), r.err());
        Path folder = Files.createDirectories(dir.resolve("folder"));
        CliRunner.Run f = cli(engine).run("import", folder.toString());
        assertEquals(2, f.exitCode());
        assertTrue(f.err().contains("is a directory") && !f.err().contains("java."), f.err());
    }

    /** An edge to a memory in neither the file nor the store is said, not dropped in silence. */
    @Test
    void anEdgeWithoutItsOtherEndIsSaid() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2026-11-29T10:00:00Z"));
        Engine source = engine(clock);
        CliRunner from = cli(source);
        assertEquals(0, from.run("remember", "The pool has 8 connections", "--key", "pool").exitCode());
        assertEquals(0, from.run("remember", "Redis runs the pool", "--key", "redis", "--link", "pool").exitCode());
        Path file = dir.resolve("out.jsonl");
        assertEquals(0, from.run("export", "--out", file.toString()).exitCode());
        List<String> lines = Files.readAllLines(file);
        Path onlyRedis = Files.write(dir.resolve("redis.jsonl"), lines.stream().filter(l -> l.contains("\"key\":\"redis\"")).toList());
        CliRunner.Run r = cli(engine(clock)).run("import", onlyRedis.toString());
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.err().contains("1 edge left out: the other end is in neither the file nor the store"), r.err());
    }
}
